import type { FastifyRequest } from 'fastify';
import { burnPasswordCheck, verifyPassword } from '../store/password.ts';
import type { ApiDeps } from './context.ts';
import { type ApiError, GENERIC } from './errors.ts';
import { beginAttempt } from './rate-limits.ts';

/**
 * The account `find` gives, when `password` is its password, under the sign-in limits (a
 * visitor's, B17, and the owner's): failures per client address and per `subject` (the email's
 * key), attempts under way counted (`beginAttempt`), either refusing (429) before any password
 * is hashed. An unknown account costs a password check too, so it answers as slowly as a wrong
 * password; both throw `invalid()`. A `subject` that depends on the account (the owner's known
 * browser, admin/owner-auth.ts) is asked once the account is found.
 */
export async function verifiedSignIn<T extends { passwordHash: string }>(
  deps: Pick<ApiDeps, 'limiters'>,
  request: FastifyRequest,
  subject: string | ((account: T | null) => string),
  password: string,
  find: () => Promise<T | null>,
  invalid: () => ApiError,
): Promise<T> {
  const found = typeof subject === 'string' ? undefined : await find();
  const key = typeof subject === 'string' ? subject : subject(found ?? null);
  const attempt = await beginAttempt(request, [{ limiter: deps.limiters.loginFailuresPerIp }, { limiter: deps.limiters.loginFailures, subject: key }]);
  try {
    if (!attempt.allowed) throw GENERIC.rateLimited(attempt.retryAfterSeconds, 'Too many sign-in attempts. Please try again later.');
    const account = found === undefined ? await find() : found;
    const valid = account ? await verifyPassword(password, account.passwordHash) : (await burnPasswordCheck(password), false);
    if (!account || !valid) {
      await attempt.failed();
      throw invalid();
    }
    return account;
  } finally {
    attempt.end();
  }
}
