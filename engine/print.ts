// Canonical template text for nodes: the `<repr>` of EOF_IN_BLOCK and UNEXPECTED_ERROR
// messages, and a whole-tree printer whose output parses back to the same tree.

import type { FormatterCall, Inst, OrNode, PluginArgs, PredicateCall, TemplateAst, VarRef } from './ast.ts';

function args(a: PluginArgs): string {
  return a.args.length ? a.delimiter + a.args.join(a.delimiter) : '';
}

function refs(list: readonly VarRef[]): string {
  return list.map((r) => r.text).join(',');
}

function formatters(list: readonly FormatterCall[]): string {
  let s = '';
  for (const f of list) s += '|' + f.name + args(f);
  return s;
}

function pred(p: PredicateCall): string {
  return p.name + args(p);
}

function open(n: { pre?: boolean }): string {
  return n.pre ? '{^' : '{';
}

/** The opening tag of an instruction (what the reference calls its repr). */
export function repr(n: Inst | OrNode | { kind: 'alternates'; pre?: boolean }): string {
  const o = open(n);
  switch (n.kind) {
    case 'text':
      return n.text;
    case 'variable':
      return o + refs(n.refs) + formatters(n.formatters) + '}';
    case 'section':
      return o + '.section ' + n.ref.text + '}';
    case 'repeated':
      return o + '.repeated section ' + n.ref.text + '}';
    case 'alternates':
      return o + '.alternates with}';
    case 'predicate':
      return o + (n.viaIf ? '.if ' : '.') + pred(n.pred) + '}';
    case 'or':
      return o + (n.pred ? '.or ' + pred(n.pred) : '.or') + '}';
    case 'if': {
      let s = o + '.if ' + n.refs[0].text;
      for (let i = 0; i < n.ops.length; i++) s += ' ' + n.ops[i] + ' ' + n.refs[i + 1].text;
      return s + '}';
    }
    case 'bindvar':
      return o + '.var ' + n.name + ' ' + refs(n.refs) + formatters(n.formatters) + '}';
    case 'ctxvar':
      return o + '.ctx ' + n.name + ' ' + n.bindings.map((b) => b.key + '=' + b.ref.text).join(' ') + '}';
    case 'inject':
      return o + '.inject ' + n.name + ' ' + n.path + args(n) + '}';
    case 'macro':
      return o + '.macro ' + n.name + '}';
    case 'eval':
      return o + '.eval' + n.gap + n.expression + '}';
    case 'include':
      return o + '.include' + args(n) + '}';
    case 'comment':
      return n.multiline ? '{##' + n.text + '##}' : o + '#' + n.text + '}';
    case 'literal':
      return o + '.' + n.keyword + '}';
  }
}

function printBody(body: readonly Inst[]): string {
  let s = '';
  for (const n of body) s += printInst(n);
  return s;
}

function printAlt(alt: OrNode | null): string {
  let s = '';
  for (let a = alt; a; a = a.alt) s += repr(a) + printBody(a.body);
  return s;
}

function printInst(n: Inst): string {
  switch (n.kind) {
    case 'section':
    case 'predicate':
    case 'if':
      return repr(n) + printBody(n.body) + printAlt(n.alt) + endTag(n);
    case 'repeated':
      return (
        repr(n) +
        printBody(n.body) +
        (n.alternates ? repr(n.alternates) + printBody(n.alternates.body) : '') +
        printAlt(n.alt) +
        endTag(n)
      );
    case 'macro':
      return repr(n) + printBody(n.body) + endTag(n);
    default:
      return repr(n);
  }
}

/**
 * A block opened by a preprocessor tag was closed by `{^.end}`: only `{^…}` tags are
 * instructions in preprocessor mode, where `{.end}` would be text and leave the block open.
 */
function endTag(n: { readonly pre?: boolean }): string {
  return n.pre ? '{^.end}' : '{.end}';
}

/** Template text for a whole tree (blocks closed explicitly, canonical spacing). */
export function printTemplate(ast: TemplateAst): string {
  return printBody(ast.body);
}
