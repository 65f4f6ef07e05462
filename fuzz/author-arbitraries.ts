// Generators of hostile template-author input for the author tools (`quire check`, the
// ignored-argument lint, template fallbacks, diagnostic frames, render-page): template text an
// editor could hold mid-edit, and whole site folders with the slips authors make. Sizes are
// bounded by counts (parts, nesting, line length), so every run does bounded work.
import fc from 'fast-check';
import { pluginsTakingNoArguments } from '../renderer/preview/ignored-arguments.ts';
import { STARTER_FILES } from '../renderer/preview/new-site.ts';

const NO_ARG_PREDICATES = [...pluginsTakingNoArguments('predicates')].sort();
const NO_ARG_FORMATTERS = [...pluginsTakingNoArguments('formatters')].sort();

/** Arguments as an author mistypes them: blanks, delimiters, quotes, odd characters. */
const oddArgs = fc.constantFrom(' ', '  ', ' x', '  x', ' x y', ':x', ' :', ' |', ' }', ' {', ' "a b"', " 'x", ' \\', ' \t', ' é', ' \uD83D', ' x\u0000', ' ,', ' ?', ' ..', ' @', '');

/** Predicates and formatters taking no arguments, given odd ones (`{.sold-out? }`, `{@|html  x}`). */
const pluginWithOddArgs = fc.oneof(
  fc.tuple(fc.constantFrom(...NO_ARG_PREDICATES), oddArgs, fc.constantFrom('x', '')).map(([p, a, body]) => `{.${p}${a}}${body}{.end}`),
  fc.tuple(fc.constantFrom('@', 'a', 'title', 'item.price'), fc.constantFrom(...NO_ARG_FORMATTERS), oddArgs).map(([v, f, a]) => `{${v}|${f}${a}}`),
  fc.tuple(fc.constantFrom(...NO_ARG_PREDICATES), oddArgs, fc.constantFrom(...NO_ARG_PREDICATES), oddArgs).map(([p, a, q, b]) => `{.${p}${a}}x{.or ${q}${b}}y{.end}`),
  fc.tuple(fc.constantFrom(...NO_ARG_FORMATTERS), oddArgs, fc.constantFrom(...NO_ARG_FORMATTERS), oddArgs).map(([f, a, g, b]) => `{a|${f}${a}|${g}${b}}`),
);

/** Pieces of template text steering towards the corners of the author tools. */
const AUTHOR_FRAGMENTS = [
  '{', '}', '{.end}', '{.or}', '{.section a}', '{.repeated section items}', '{.alternates with}', '{.if a}', '{.macro m}',
  '{.include p}', '{.include p.jsont}', '{.include missing}', '{a|apply p}', '{a|apply nope}', '{a|apply p.jsont}',
  '{.eval @t = price *}', '{.eval @t = }', '{.eval 1 +}', '{.eval @x = (1}', '{.var @v a}', '{a|htm}', '{a|date}',
  '{.sold-out? }', '{@|html  x}', '{.equal? a}', '{a|truncate}', '{a|truncate x}',
  '<script>var x = {a};</script>', '<script>', '</script>', '<style>.a{color:{c}}</style>', '<style>', '"{a}"',
  '/assets/site/images/nope.webp', '\n', '\r\n', '\r', '\t', '\u0000', '\uFEFF', '\uD83D', '\uDE00', '\uD83D\uDE00',
  '日本', 'e\u0301', '\u2028', ' ', 'x', '{#', '##}', '{##', '{^', '{.', '.end', '|', '?',
];

/** Unterminated tags, stray ends, lone surrogates, CRLF, NUL: short soups of author fragments. */
const authorSoup = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...AUTHOR_FRAGMENTS) },
      { weight: 2, arbitrary: pluginWithOddArgs },
      { weight: 1, arbitrary: fc.string({ maxLength: 6, unit: 'binary' }) },
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

/** Deep nesting, opened and closed in any numbers (the engine caps nesting at 256). */
const deepNesting = fc
  .tuple(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 400 }), fc.constantFrom('{.section a}', '{.if a}', '{.repeated section a}', '{.macro m}', `{.${NO_ARG_PREDICATES[0]} x}`), authorSoup)
  .map(([open, close, tag, inner]) => tag.repeat(open) + inner + '{.end}'.repeat(close));

/** One very long line (a minified template), an error somewhere in it. */
const longLine = fc
  .tuple(fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: 0, max: 20_000 }), fc.constantFrom('{a|htm}', '{.section a}', '{.end}', '{.sold-out? x}', '{.eval 1 +}', '{a|apply nope}'))
  .map(([before, after, bad]) => 'x'.repeat(before) + bad + 'y'.repeat(after));

export const hostileTemplate: fc.Arbitrary<string> = fc.oneof({ weight: 5, arbitrary: authorSoup }, { weight: 1, arbitrary: deepNesting }, { weight: 1, arbitrary: longLine });

// ---- site folders ----

/** A file's bytes: text (written as UTF-8) or raw bytes (not UTF-8). */
export type FileBody = string | Uint8Array;

const BOM = '\uFEFF';

/** JSON as authors break it; mostly whole, so that most folders load and the later checks run. */
function brokenJson(valid: string): fc.Arbitrary<string> {
  return fc.oneof({ weight: 6, arbitrary: fc.constantFrom(valid, BOM + valid, valid.replace(/\n/g, '\r\n'), minified(valid), BOM + minified(valid)) }, { weight: 1, arbitrary: broken(valid) });
}

function broken(valid: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constant(BOM + valid),
    fc.constant(''),
    fc.constant('   \n'),
    fc.integer({ min: 0, max: Math.max(0, valid.length - 1) }).map((n) => valid.slice(0, n)),
    fc.constant(valid.replace(/\n/g, '\r\n')),
    fc.constant(valid.replace(/,/, ',,')),
    fc.constant(valid.replace(/"$/m, '",').replace(/}\s*$/, ',}')),
    fc.constant(valid + '\u0000'),
    fc.constant('\u0000' + valid),
    fc.constant('[' + valid + ']'),
    fc.constant('"' + valid),
    fc.constant('['.repeat(5000) + ']'.repeat(5000)),
    fc.constant('{"a":'.repeat(3000) + '1' + '}'.repeat(3000)),
    fc.constant(valid.replace('{', '{"x\uD83D": 1, ')),
  );
}

const slug = fc.constantFrom('about', 'home', 'shop', 'about', 'news', 'a b', '', 'Ünïcode', '../up', 'x'.repeat(300));
const kind = fc.constantFrom('page', 'page', 'page', 'page', 'collection', 'cover', 'Page', 'gallery', '', 'products');
const templateName = fc.constantFrom(null, null, null, 'page', 'Page', 'landng', 'landing', 'blog.list', 'home', '', 'x'.repeat(200), '../etc/passwd');
const title = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('About', '', 'a\u0000b', '\uD83D', 'e\u0301', 'template', '"template"') }, { weight: 1, arbitrary: fc.constantFrom(5, null, true, [], {}) });
const block = fc.oneof(
  fc.constant({ type: 'html', html: '<p>x</p>' }),
  fc.constant({ type: 'nope' }),
  fc.constant({ type: 'form', formId: 'missing' }),
  fc.constant({ type: 'product', productId: 'nope' }),
  fc.constant({ type: 'image', url: '/assets/site/images/absent.webp' }),
  fc.constant('not an object'),
  fc.constant({ type: 5 }),
);

/** A content file: a page, a collection or a cover, with wrong types, unknown kinds and keys. */
const contentValue = fc.record(
  {
    kind,
    slug,
    title,
    template: templateName,
    blocks: fc.oneof({ weight: 4, arbitrary: fc.array(block, { maxLength: 3 }) }, { weight: 1, arbitrary: fc.constant('x') }),
    items: fc.array(fc.record({ slug, title }, { requiredKeys: [] }), { maxLength: 2 }),
    home: fc.constantFrom(true, false, 'yes'),
    titel: fc.constant('typo'),
  },
  { requiredKeys: ['kind', 'slug'] },
);

const contentFile: fc.Arbitrary<FileBody> = fc.oneof(
  { weight: 8, arbitrary: contentValue.chain((value) => brokenJson(JSON.stringify(value, null, 2))) },
  { weight: 1, arbitrary: fc.constant(Uint8Array.from([0x7b, 0x22, 0x74, 0xff, 0xfe, 0x22, 0x7d])) },
);

/** A value an author puts where another type belongs, or a key's slip. */
const oddValue = fc.constantFrom<unknown>(5, -1, 1.5, null, true, 'yes', '', [], {}, [1, 'x'], 'x'.repeat(2000), '\u0000', '\uD83D', { nested: { deeper: [] } });
const DATA_KEYS = ['kind', 'slug', 'title', 'template', 'home', 'blocks', 'items', 'collectionType', 'products', 'forms', 'site', 'navigation', 'homePage', 'locale', 'lock', 'variants', 'price', 'titel', 'id'];

/** What an author does to a file of a working site folder. */
type Mutation =
  | { op: 'drop'; at: number }
  | { op: 'rename'; at: number; to: string }
  | { op: 'template'; at: number; text: string; splice: number | null }
  | { op: 'json'; at: number; which: number; cut: number }
  | { op: 'value'; at: number; key: string; value: unknown; deep: number }
  | { op: 'bytes'; at: number }
  | { op: 'add'; name: string; body: FileBody };

const partialText = fc.oneof(hostileTemplate, fc.constantFrom('{.include loop}', '{.include a}', '{a|apply b}', '{.include b}', '{.section x}{.include p}{.end}'));

const RENAMES = ['templates/Page.jsont', 'templates/page.json', 'templates/pages.jsont', 'templates/pgae.jsont', 'templates/page.html', 'templates/PAGE.JSONT', 'templates/blog.lst.jsont', 'content/About.JSON', 'partials/Head.jsont', 'templates/.page.jsont.swp'];

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.nat().map((at) => ({ op: 'drop' as const, at })),
  fc.tuple(fc.nat(), fc.constantFrom(...RENAMES)).map(([at, to]) => ({ op: 'rename' as const, at, to })),
  fc.tuple(fc.nat(), hostileTemplate, fc.option(fc.nat())).map(([at, text, splice]) => ({ op: 'template' as const, at, text, splice })),
  fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 0, max: 16 })).map(([at, cut, which]) => ({ op: 'json' as const, at, which, cut })),
  fc.tuple(fc.nat(), fc.constantFrom(...DATA_KEYS), fc.oneof(oddValue, fc.constantFrom('page', 'collection', 'cover', 'gallery', 'Page', 'landng', 'products')), fc.nat({ max: 3 })).map(([at, key, value, deep]) => ({ op: 'value' as const, at, key, value, deep })),
  fc.nat().map((at) => ({ op: 'bytes' as const, at })),
  fc.tuple<[string, FileBody, string, string]>(fc.constantFrom('content/extra.json', 'content/Extra.json', 'content/empty.json', 'content/about.json', 'templates/landing.jsont', 'partials/loop.jsont'), contentFile, hostileTemplate, partialText).map(([name, body, text, partial]) => ({
    op: 'add' as const,
    name,
    body: name.startsWith('templates/') ? text : name.startsWith('partials/') ? partial : body,
  })),
);

/** The JSON variants of `broken` by index, for a mutation that keeps its choice as data. */
function brokenVariant(valid: string, which: number, cut: number): string {
  const variants = [
    BOM + valid,
    '',
    '   \n',
    valid.slice(0, cut % Math.max(1, valid.length)),
    valid.replace(/\n/g, '\r\n'),
    valid.replace(/,/, ',,'),
    valid.replace(/}\s*$/, ',}'),
    valid + '\u0000',
    '\u0000' + valid,
    '[' + valid + ']',
    '"' + valid,
    '['.repeat(5000) + ']'.repeat(5000),
    '{"a":'.repeat(3000) + '1' + '}'.repeat(3000),
    valid.replace('{', '{"x\uD83D": 1, '),
    BOM + valid.replace(/\n/g, '\r\n'),
    minified(valid),
    BOM + minified(valid),
  ];
  return variants[which % variants.length]!;
}

/** The same JSON on one line (as a tool writes it), or the text as it is. */
function minified(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}

/** Sets `key` to `value` in the object `depth` levels into a JSON text (its first object there). */
function setValue(text: string, key: string, value: unknown, depth: number): string {
  let root: unknown;
  try {
    root = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return text;
  }
  let target = root;
  for (let i = 0; i < depth; i++) {
    const inner = target && typeof target === 'object' ? Object.values(target).find((v) => v && typeof v === 'object') : undefined;
    if (!inner) break;
    target = Array.isArray(inner) ? (inner.find((v) => v && typeof v === 'object' && !Array.isArray(v)) ?? target) : inner;
  }
  if (target && typeof target === 'object' && !Array.isArray(target)) (target as Record<string, unknown>)[key] = structuredClone(value);
  // Written back as it was: one line or indented, with its BOM and line ends.
  let out: string;
  try {
    out = text.includes('\n') ? JSON.stringify(root, null, 2).replace(/\n/g, text.includes('\r\n') ? '\r\n' : '\n') : JSON.stringify(root);
  } catch {
    // Nested deeper than the stack writes back (`{"a":` 3,000 times): left as it was.
    return text;
  }
  return (text.charCodeAt(0) === 0xfeff ? BOM : '') + out;
}

function applyMutation(files: Record<string, FileBody>, m: Mutation): void {
  if (m.op === 'add') {
    files[m.name] = m.body;
    return;
  }
  const names = Object.keys(files).filter((name) => !name.endsWith('/')).sort();
  if (names.length === 0) return;
  const name = names[m.at % names.length]!;
  const body = files[name]!;
  switch (m.op) {
    case 'drop':
      delete files[name];
      break;
    case 'rename':
      delete files[name];
      // Renamed in its folder; a file of the site's root moved into one (styles.css as templates/Page.jsont).
      files[name.includes('/') ? name.replace(/[^/]*$/, m.to.replace(/^.*\//, '')) : m.to] = body;
      break;
    case 'template': {
      const text = typeof body === 'string' ? body : '';
      files[name] = m.splice === null ? m.text : text.slice(0, m.splice % (text.length + 1)) + m.text + text.slice(m.splice % (text.length + 1));
      break;
    }
    case 'json':
      if (typeof body === 'string') files[name] = brokenVariant(body, m.which, m.cut);
      break;
    case 'value':
      if (typeof body === 'string' && name.endsWith('.json')) files[name] = setValue(body, m.key, m.value, m.deep);
      break;
    case 'bytes':
      files[name] = Uint8Array.from([...Buffer.from(typeof body === 'string' ? body.slice(0, 40) : ''), 0xff, 0xfe, 0x0a]);
      break;
  }
}

export interface SiteFolder {
  /** Path inside the folder -> bytes. A path ending in `/` is an empty folder. */
  files: Record<string, FileBody>;
}

/**
 * A random site folder: the starter of `quire new` (a site that checks clean) with a few of an
 * author's slips: files deleted or renamed (`Page.jsont`), templates broken, data files that are
 * not JSON or hold the wrong types, unknown kinds, BOMs, empty files, bytes that are not UTF-8.
 */
export const siteFolder: fc.Arbitrary<SiteFolder> = fc
  .tuple(fc.subarray(Object.keys(STARTER_FILES), { minLength: 1 }), fc.array(mutation, { maxLength: 4 }))
  .map(([kept, mutations]) => {
    const files: Record<string, FileBody> = {};
    for (const name of kept) files[name] = STARTER_FILES[name]!;
    for (const m of mutations) applyMutation(files, m);
    // A folder the check recognises as a site needs one of its files; an empty one is a folder of nothing.
    if (!Object.keys(files).some((name) => /^(site\.json|catalog\.json|styles\.css|(content|templates|partials|styles|images)\/)/.test(name))) files['content/'] = '';
    return { files };
  });
