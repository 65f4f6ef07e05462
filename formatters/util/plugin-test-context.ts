// A small stand-in for the engine's contexts, for unit tests of plugins that must not
// depend on the engine. Frames are listed outermost first; references resolve their first
// segment from the innermost frame outward (LANGUAGE §2.3), `@` is the innermost node,
// `@index` / `@index0` come from the innermost frame that has an index.
import {
  ArgsError,
  isObject,
  member,
  type BindContext,
  type FormatterSpec,
  type PluginContext,
  type PredicateSpec,
  type Ref,
  type TemplateHandle,
  type Value,
} from '../../engine/plugin-api.ts';

export interface TestFrame {
  readonly node: Value;
  /** 0-based position of `node` in the array a repeated section walks. */
  readonly index?: number;
}

type Segment = string | number;

interface TestRef extends Ref {
  readonly segments: readonly Segment[];
}

const SEGMENT = /^(?:@|\d+|[@$]?[A-Za-z][A-Za-z0-9_-]*)$/;

function parseTestRef(text: string): TestRef | null {
  if (text === '') return null;
  const parts = text.split('.');
  if (!parts.every((p) => SEGMENT.test(p))) return null;
  return { text, segments: parts.map((p) => (/^\d+$/.test(p) && p.length < 10 ? Number(p) : p)) };
}

function step(v: Value, seg: Segment): Value {
  if (typeof seg === 'number') return Array.isArray(v) ? v[seg] : isObject(v) ? member(v, String(seg)) : undefined;
  if (Array.isArray(v)) return undefined;
  return isObject(v) ? member(v, seg) : undefined;
}

export interface PartialCall {
  readonly name: string;
  readonly value: Value;
  readonly isPrivate: boolean;
  readonly args: { [key: string]: string } | undefined;
}

export type TestPartial = (value: Value, args: { [key: string]: string } | undefined, isPrivate: boolean) => string;

export class TestPluginContext implements PluginContext {
  locale = 'en';
  now = 0;
  /** Partials `applyPartial` can run, by name. */
  readonly partials: Record<string, TestPartial> = {};
  readonly partialCalls: PartialCall[] = [];
  /** Built-in templates `runTemplate` can run, by source text. */
  readonly templates: Record<string, (node: Value, isPrivate: boolean) => string> = {};

  constructor(
    /** Outermost first. */
    readonly frames: TestFrame[],
    options: { locale?: string; now?: number } = {},
  ) {
    if (options.locale !== undefined) this.locale = options.locale;
    if (options.now !== undefined) this.now = options.now;
  }

  node(): Value {
    return this.frames.length ? this.frames[this.frames.length - 1].node : undefined;
  }

  /** The node of the frame enclosing the innermost one. */
  parentNode(): Value {
    return this.frames.length > 1 ? this.frames[this.frames.length - 2].node : undefined;
  }

  resolve(ref: Ref): Value {
    const segments = (ref as TestRef).segments ?? parseTestRef(ref.text)?.segments;
    if (!segments) return undefined;
    const [first, ...rest] = segments;
    let v: Value = undefined;
    if (first === '@') v = this.node();
    else if (first === '@index' || first === '@index0') {
      for (let i = this.frames.length - 1; i >= 0; i--) {
        const index = this.frames[i].index;
        if (index !== undefined) {
          v = first === '@index' ? index + 1 : index;
          break;
        }
      }
    } else {
      for (let i = this.frames.length - 1; i >= 0 && v === undefined; i--) v = step(this.frames[i].node, first);
    }
    for (const seg of rest) {
      if (v === undefined) break;
      v = step(v, seg);
    }
    return v;
  }

  resolveText(text: string): Value {
    const ref = parseTestRef(text);
    return ref ? this.resolve(ref) : undefined;
  }

  timeZone(): string {
    const zone = this.resolveText('website.timeZone');
    return zone === undefined ? 'America/New_York' : zone === null ? 'null' : typeof zone === 'string' ? zone : String(zone);
  }

  runTemplate(template: TemplateHandle, node: Value, isPrivate: boolean): string {
    const fn = this.templates[template.source];
    return fn ? fn(node, isPrivate) : '';
  }

  applyPartial(name: string, value: Value, isPrivate: boolean, args: { [key: string]: string } | undefined): Value {
    this.partialCalls.push({ name, value, isPrivate, args });
    const fn = this.partials[name];
    return fn ? fn(value, args, isPrivate) : undefined;
  }

  applyPartialPieces(name: string, value: Value, isPrivate: boolean, args: { [key: string]: string } | undefined): string | readonly string[] | undefined {
    const text = this.applyPartial(name, value, isPrivate, args);
    return text === undefined ? undefined : String(text);
  }

  /** Characters charged by `work`, for tests to read. */
  worked = 0;

  work(chars: number): void {
    this.worked += chars;
  }

  /** Instructions and made characters charged by `spend`, for tests to read. */
  spent = { steps: 0, made: 0 };

  spend(steps: number, made: number, _printed: number): boolean {
    this.spent.steps += steps;
    this.spent.made += made;
    return true;
  }
}

export function testBindContext(name: string, delimiter = ' '): BindContext {
  return {
    name,
    delimiter,
    raw: '',
    parseRef: parseTestRef,
    compileTemplate: (source: string) => ({ source: source.trim() }),
  };
}

export function bindFormatter<B>(spec: FormatterSpec<B>, args: string[], delimiter = ' '): B {
  return (spec.bind ? spec.bind(args, testBindContext(spec.name, delimiter)) : undefined) as B;
}

export function bindPredicate<B>(spec: PredicateSpec<B>, args: string[], delimiter = ' '): B {
  return (spec.bind ? spec.bind(args, testBindContext(spec.name, delimiter)) : undefined) as B;
}

/** The detail of the ArgsError `fn` throws, or null when it binds fine. */
export function argsErrorOf(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (e) {
    if (e instanceof ArgsError) return e.message;
    throw e;
  }
}
