import { CONTEXT_SCRIPT_ID } from '../protocol/markers.ts';
import { parseProps } from '../protocol/props.ts';
import { PLATFORM_CONTEXT_KEY, normalizePlatformContext, type PlatformContext } from '../shared/platform-context.ts';

/**
 * Reads the `platform` member of `#sf-context`. Kept apart from `runtime/page-context.ts`
 * so the boot can decide whether to load the platform chunk with this small module alone;
 * a missing or broken block means defaults (the runtime's own reader reports it).
 */
export function readPlatformContext(doc: Document): PlatformContext {
  const text = doc.getElementById(CONTEXT_SCRIPT_ID)?.textContent ?? '';
  const parsed = parseProps(text);
  const raw = parsed.ok && typeof parsed.value === 'object' && parsed.value !== null ? (parsed.value as Record<string, unknown>)[PLATFORM_CONTEXT_KEY] : undefined;
  return normalizePlatformContext(raw);
}
