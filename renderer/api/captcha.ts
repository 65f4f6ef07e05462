import type { Repository } from '../store/repository.ts';
import type { SiteSettings } from '../store/types.ts';

/**
 * Server check of a captcha token (A13). Only the local provider can be verified here: its
 * tokens read `local-ok:{siteKey}:{random}` and are single-use. A real provider needs a
 * network call that is out of scope, so its tokens never verify.
 */
export async function verifyCaptchaToken(
  repo: Repository,
  settings: SiteSettings,
  token: string,
  now: number,
): Promise<boolean> {
  const siteKey = settings.captcha.siteKey;
  if (!siteKey || settings.captcha.provider !== 'local' || token.length > 512) return false;
  const prefix = `local-ok:${siteKey}:`;
  if (!token.startsWith(prefix) || token.length === prefix.length) return false;
  return repo.useCaptchaToken(token, now);
}
