// Dotted paths that formatters walk inside a value (`prop`, `key-by`, `find-first`). Unlike
// template variable references, a digit segment also works as a member name on an object
// (PLUGINS §2 `prop`), so each segment keeps both forms; it is split once, at bind time.
import { isObject, member, type Value } from '../../engine/plugin-api.ts';

export interface PathSegment {
  /** The segment as a member name. */
  readonly name: string;
  /** The segment as an array index, or -1 when it is not a run of digits fitting 32 bits. */
  readonly index: number;
}

export type NodePath = readonly PathSegment[];

export function parseNodePath(text: string): NodePath {
  // A loop over the dots, not `split('.').map(…)`: that pair was a quarter of compiling
  // `{people|key-by name|prop Bob.emails.primary}`, ~210 ns a path (bench/README.md, "Prices,
  // `render(text, data)` and `.eval` parsed without freezing").
  const out: PathSegment[] = [];
  let start = 0;
  for (let dot = text.indexOf('.'); dot >= 0; dot = text.indexOf('.', start)) {
    const name = text.slice(start, dot);
    out.push({ name, index: digitIndex(name) });
    start = dot + 1;
  }
  const last = start === 0 ? text : text.slice(start);
  out.push({ name: last, index: digitIndex(last) });
  return out;
}

function digitIndex(s: string): number {
  if (s.length === 0 || s.length > 10) return -1;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return -1;
  }
  const n = Number(s);
  return n <= 2147483647 ? n : -1;
}

/** Walks `path` from `v`; stepping into a scalar, null or missing gives missing. */
export function walkNodePath(v: Value, path: NodePath): Value {
  let cur = v;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    if (Array.isArray(cur)) {
      if (seg.index < 0 || seg.index >= cur.length) return undefined;
      cur = cur[seg.index];
    } else if (isObject(cur)) {
      cur = member(cur, seg.name);
    } else {
      return undefined;
    }
    if (cur === undefined) return undefined;
  }
  return cur;
}
