import crypto from 'node:crypto';

// scrypt with the Node defaults (N=16384, r=8, p=1). The parameters are stored with the
// hash so they can be raised later without invalidating existing users.
const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

function scrypt(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    crypto.scrypt(password, salt, KEY_LENGTH, { N: n, r, p, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(password, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

const BURN_SALT = crypto.randomBytes(16);

/**
 * False for a wrong password and for a hash this module did not write. An unreadable hash (a
 * seed's foreign `passwordHash`) still costs one scrypt at this module's parameters: returned at
 * once, such an account's sign-in answered faster than an unknown address's (which burns a check,
 * `burnPasswordCheck`), and the timing named the account.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  const [n, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const salt = Buffer.from(parts[4] ?? '', 'base64url');
  const expected = Buffer.from(parts[5] ?? '', 'base64url');
  const readable = parts.length === 6 && parts[0] === 'scrypt' && [n, r, p].every((value) => Number.isInteger(value) && value > 0) && expected.length === KEY_LENGTH;
  const key = readable ? await scrypt(password, salt, n, r, p).catch(() => null) : null;
  if (key === null) {
    // Parameters scrypt refuses (N not a power of two) fail at once: burn the check too.
    await scrypt(password, BURN_SALT, N, R, P);
    return false;
  }
  return crypto.timingSafeEqual(key, expected);
}

let dummyHash: Promise<string> | null = null;

/** Spends the same work as a real check, so unknown emails do not answer faster. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('not-a-real-password');
  await verifyPassword(password, await dummyHash);
}
