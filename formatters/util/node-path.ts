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
  return text.split('.').map((name) => ({ name, index: digitIndex(name) }));
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
