import crypto from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { enqueueMail } from '../../mail/outbox-worker.ts';
import { passwordResetLink, passwordResetMail, RESET_LINK_MINUTES } from '../../mail/password-reset.ts';
import { resetRequestsLimitedText } from '../../../hydrate/shared/retry-wait.ts';
import { hashPassword } from '../../store/password.ts';
import { emailKey } from '../../store/repository.ts';
import { mailOrigin, randomToken } from '../context.ts';
import { ApiError, GENERIC } from '../errors.ts';
import { isValidEmail } from '../form-validation.ts';
import { addRoute, fieldCodes, type RouteKit } from '../route-kit.ts';

// A member's forgotten password (designed here: STOREFRONT designs no reset). POST the email:
// always the same 200, answered before the address is looked up, so neither the answer nor its
// timing tells anyone which addresses have accounts; an account's
// address gets a mail with a single-use link (30 minutes, a new request replaces the old
// token, only its SHA-256 is stored). POST the token and a new password: the password is set,
// every session of the member ends, and no one is signed in (the visitor signs in anew).

export const RESET_REQUEST_PATH = '/site-users/account/password-reset';
export const RESET_PASSWORD_PATH = '/site-users/account/password';
export const RESET_CHECK_PATH = '/site-users/account/password-reset/check';
/** The neutral answer to every well-formed request (no account enumeration). */
export const RESET_REQUESTED_MESSAGE = "If an account uses that address, we've emailed a link to reset its password.";
/** Designed here (no password rule elsewhere): long enough to resist guessing, said to the visitor. */
export const MIN_PASSWORD_LENGTH = 8;
const MAX_PASSWORD_LENGTH = 200;
const MAX_EMAIL_LENGTH = 256;
const MAX_TOKEN_LENGTH = 100;
const RESET_MS = RESET_LINK_MINUTES * 60_000;

const ERR = {
  // EMAIL_INVALID, the restock sign-up's code (STOREFRONT B10) for the same problem: one code
  // for a bad address wherever it is sent; the text stays the reset form's own.
  invalidEmail: () => new ApiError(400, 'EMAIL_INVALID', 'Enter a valid email address.'),
  weakPassword: () => new ApiError(400, 'WEAK_PASSWORD', `Choose a password of at least ${MIN_PASSWORD_LENGTH} characters.`),
  longPassword: () => new ApiError(400, 'PASSWORD_TOO_LONG', `Choose a password of at most ${MAX_PASSWORD_LENGTH} characters.`),
  badToken: () => new ApiError(400, 'RESET_LINK_INVALID', 'This reset link is not valid. Ask for a new one.'),
  usedToken: () => new ApiError(400, 'RESET_LINK_USED', 'This reset link was already used. Ask for a new one.'),
  expiredToken: () => new ApiError(400, 'RESET_LINK_EXPIRED', 'This reset link has expired. Ask for a new one.'),
  // D10's 429 with Retry-After, and how long in words at the email field (the forgot form
  // read A0.2's "in a few seconds" for a wait of up to an hour).
  limited: (retryAfterSeconds: number) => {
    const refused = GENERIC.rateLimited(retryAfterSeconds);
    return new ApiError(refused.status, refused.code, refused.message, { headers: refused.headers, errors: { email: resetRequestsLimitedText(retryAfterSeconds) } });
  },
};

/** The reset, when its link still works at `now`; else the error that says why not. */
function usableReset<T extends { expiresAt: number; usedAt: number | null }>(reset: T | null, now: number): T {
  if (!reset) throw ERR.badToken();
  if (reset.usedAt !== null) throw ERR.usedToken();
  if (reset.expiresAt <= now) throw ERR.expiredToken();
  return reset;
}

export function resetTokenHash(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** The after-answer job of a reset request (api/after-response.ts). */
const RESET_JOB = 'password-reset';

export function registerPasswordResetRoutes(kit: RouteKit): void {
  const { deps } = kit;

  // A request's job, run after its answer (or by the recovery after a crash): the lookup, and
  // for an account the token and the mail, in the transaction that deletes the job. The link's
  // 30 minutes count from now, not from the request: a mail a crash held back is not sent
  // half-spent.
  deps.afterAnswerJobs.handle(RESET_JOB, async (repo, job) => {
    const user = await repo.getUserByEmail(job.email);
    if (!user) return;
    const now = deps.now();
    const token = randomToken();
    await repo.putPasswordReset({ siteUserId: user.id, tokenHash: resetTokenHash(token), expiresAt: now + RESET_MS });
    const mail = passwordResetMail(deps.publicSite?.().title ?? '', passwordResetLink(mailOrigin(deps), token));
    // To the account's own address, never the typed spelling.
    await enqueueMail(repo, { to: user.email, ...mail, id: deps.newId('m'), queuedOn: now });
  });

  addRoute(kit, {
    method: 'POST',
    url: RESET_REQUEST_PATH,
    crumb: true,
    schema: {
      summary: 'Ask for a password reset mail (designed here); the same 200 whether or not an account uses the address.',
      body: Type.Object({ email: Type.String({ minLength: 1, maxLength: MAX_EMAIL_LENGTH }) }),
    },
    invalid: fieldCodes({ email: ERR.invalidEmail }),
    handler: async (request) => {
      const email = request.body.email.trim();
      if (!isValidEmail(email)) throw ERR.invalidEmail();
      // Counted for every address, known or not, so a 429 says nothing about an account either.
      const perIp = await deps.limiters.passwordResetRequestsPerIp.take(request);
      if (!perIp.allowed) throw ERR.limited(perIp.retryAfterSeconds);
      const perEmail = await deps.limiters.passwordResetRequests.take(request, emailKey(email));
      if (!perEmail.allowed) throw ERR.limited(perEmail.retryAfterSeconds);
      // The lookup, the token and the mail happen after the answer (after-response.ts): done
      // before it, a known address was answered 2-5 ms later than an unknown one. Up to here
      // both did the same work (the checks, the two limiters, and the job's one INSERT, which
      // keeps the request's work through a crash), so the answer, its timing included, says
      // nothing of an account.
      const job = await deps.afterAnswerJobs.record(deps.store.read, RESET_JOB, email);
      deps.afterAnswerJobs.runAfterAnswer(job, request.log);
      return { success: true, message: RESET_REQUESTED_MESSAGE };
    },
  });

  // The reset step asks as it opens whether its link still works, so a used or expired link
  // says so at once rather than after a new password was typed. A POST: the token stays out
  // of URLs and logs. Tokens are 32 random characters, so answering this guesses nothing.
  addRoute(kit, {
    method: 'POST',
    url: RESET_CHECK_PATH,
    crumb: true,
    schema: {
      summary: "Whether a reset link's token still works (designed here).",
      body: Type.Object({ token: Type.String({ minLength: 1, maxLength: MAX_TOKEN_LENGTH }) }),
    },
    invalid: fieldCodes({ token: ERR.badToken }),
    handler: async (request) => {
      const now = deps.now();
      await deps.store.transaction(async (repo) => usableReset(await repo.getPasswordReset(resetTokenHash(request.body.token)), now));
      return { valid: true };
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: RESET_PASSWORD_PATH,
    crumb: true,
    schema: {
      summary: "Set a new password with a reset link's token (designed here); ends every session of the member.",
      body: Type.Object({
        token: Type.String({ minLength: 1, maxLength: MAX_TOKEN_LENGTH }),
        password: Type.String({ minLength: MIN_PASSWORD_LENGTH, maxLength: MAX_PASSWORD_LENGTH }),
      }),
    },
    // Never the value itself: only whether it was too long decides which rule is said.
    invalid: fieldCodes({ token: ERR.badToken, password: (failure) => (typeof failure.value === 'string' && failure.value.length > MAX_PASSWORD_LENGTH ? ERR.longPassword() : ERR.weakPassword()) }),
    handler: async (request) => {
      const { token, password } = request.body;
      const now = deps.now();
      // The link is checked before the slow scrypt hash, so unknown tokens cost the server no
      // hashing; the hash is made outside the transaction (the row lock never waits on it),
      // and the link is checked again under the lock there (two tabs submitting at once).
      usableReset(await deps.store.read.getPasswordReset(resetTokenHash(token)), now);
      const passwordHash = await hashPassword(password);
      await deps.store.transaction(async (repo) => {
        const reset = usableReset(await repo.getPasswordReset(resetTokenHash(token)), now);
        await repo.setUserPasswordHash(reset.siteUserId, passwordHash);
        await repo.markPasswordResetUsed(reset.siteUserId, now);
        await repo.deleteUserSessions(reset.siteUserId);
      });
      return { success: true, message: 'Password changed. Sign in with your new password.' };
    },
  });
}
