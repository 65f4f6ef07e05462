// The size the reference gives a node (`count`, `has-multiple?`, the share buttons' options):
// an array's length, an object's member count, 0 for anything else.
import { isObject, TEXT_PER_STEP, type PluginContext, type Value } from '../../engine/plugin-api.ts';

/**
 * Array length, object member count; scalars have size 0. Listing an object's names is work in
 * their number, charged an instruction a member (`PluginContext.work`): on an object of
 * thousands of members a template can repeat it within the instruction limit (bench/README.md,
 * "Render time").
 */
export function sizeOf(v: Value, ctx: PluginContext): number {
  if (Array.isArray(v)) return v.length;
  if (!isObject(v)) return 0;
  const n = Object.keys(v).length;
  ctx.work(n * TEXT_PER_STEP);
  return n;
}
