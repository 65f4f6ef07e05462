import { emailKey } from './repository.ts';
import type { Queryable } from './sql-client.ts';

// The admin's SQL (migration 007-admin): owners, their sessions and API keys. Reached as
// `repo.owners` from the Repository, so it runs on the pooled client or inside a transaction.

export interface Owner {
  id: string;
  email: string;
  passwordHash: string;
  createdAt: number;
}

export interface OwnerSessionRecord {
  /** SHA-256 (base64url) of the cookie's secret; the secret itself is never stored. */
  idHash: string;
  ownerId: string;
  csrfToken: string;
  createdAt: number;
  expiresAt: number;
}

export interface ApiKeyRecord {
  id: string;
  name: string;
  /** The first characters of the key, shown in lists so an owner can tell keys apart. */
  prefix: string;
  createdBy: string | null;
  createdAt: number;
  lastUsedAt: number | null;
}

/** A saved form submission as the admin lists and exports it. */
export interface AdminSubmission {
  id: string;
  formId: string;
  values: Record<string, unknown>;
  pagePath: string;
  createdOn: number;
}

type Row = Record<string, unknown>;
const num = (value: unknown): number => (typeof value === 'number' ? value : Number(value));
const str = (value: unknown): string => String(value);

function toOwner(row: Row): Owner {
  return { id: str(row.id), email: str(row.email), passwordHash: str(row.password_hash), createdAt: num(row.created_at) };
}

function toApiKey(row: Row): ApiKeyRecord {
  return {
    id: str(row.id),
    name: str(row.name),
    prefix: str(row.prefix),
    createdBy: row.created_by === null || row.created_by === undefined ? null : str(row.created_by),
    createdAt: num(row.created_at),
    lastUsedAt: row.last_used_at === null || row.last_used_at === undefined ? null : num(row.last_used_at),
  };
}

export class AdminRepository {
  constructor(private readonly db: Queryable) {}

  async countOwners(): Promise<number> {
    const rows = await this.db.query('SELECT count(*) AS n FROM owners');
    return num(rows[0]?.n ?? 0);
  }

  async getOwnerByEmail(email: string): Promise<Owner | null> {
    const rows = await this.db.query('SELECT * FROM owners WHERE email_key = $1', [emailKey(email)]);
    return rows[0] ? toOwner(rows[0]) : null;
  }

  async getOwner(id: string): Promise<Owner | null> {
    const rows = await this.db.query('SELECT * FROM owners WHERE id = $1', [id]);
    return rows[0] ? toOwner(rows[0]) : null;
  }

  /** Inserts the owner unless one has the email already (then false): safe for N starting servers. */
  async insertOwner(owner: Owner): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO owners (id, email, email_key, password_hash, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (email_key) DO NOTHING RETURNING id`,
      [owner.id, owner.email.trim(), emailKey(owner.email), owner.passwordHash, owner.createdAt],
    );
    return rows.length > 0;
  }

  /** Sets the owner's password and ends every session of the owner (a reset is how a leaked password is shut out); returns how many ended. */
  async setOwnerPassword(id: string, passwordHash: string): Promise<number> {
    await this.db.query('UPDATE owners SET password_hash = $2 WHERE id = $1', [id, passwordHash]);
    return (await this.db.query('DELETE FROM owner_sessions WHERE owner_id = $1 RETURNING id_hash', [id])).length;
  }

  /** Deletes the owner of `email` and, with it, its sessions; false when there is none. */
  async deleteOwnerByEmail(email: string): Promise<boolean> {
    return (await this.db.query('DELETE FROM owners WHERE email_key = $1 RETURNING id', [emailKey(email)])).length > 0;
  }

  async insertSession(session: OwnerSessionRecord): Promise<void> {
    await this.db.query(
      'INSERT INTO owner_sessions (id_hash, owner_id, csrf_token, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
      [session.idHash, session.ownerId, session.csrfToken, session.createdAt, session.expiresAt],
    );
  }

  /** The live session and its owner's email, or null (unknown or expired). */
  async getLiveSession(idHash: string, now: number): Promise<(OwnerSessionRecord & { email: string }) | null> {
    const rows = await this.db.query(
      `SELECT s.*, o.email FROM owner_sessions s JOIN owners o ON o.id = s.owner_id
       WHERE s.id_hash = $1 AND s.expires_at > $2`,
      [idHash, now],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      idHash: str(row.id_hash),
      ownerId: str(row.owner_id),
      csrfToken: str(row.csrf_token),
      createdAt: num(row.created_at),
      expiresAt: num(row.expires_at),
      email: str(row.email),
    };
  }

  /** Deletes the session, and any expired ones while at it (a bounded clean-up per sign-out). */
  async deleteSession(idHash: string, now: number): Promise<void> {
    await this.db.query('DELETE FROM owner_sessions WHERE id_hash = $1', [idHash]);
    await this.db.query(
      'DELETE FROM owner_sessions WHERE id_hash IN (SELECT id_hash FROM owner_sessions WHERE expires_at <= $1 LIMIT 100)',
      [now],
    );
  }

  async insertApiKey(key: ApiKeyRecord & { keyHash: string }): Promise<void> {
    await this.db.query(
      'INSERT INTO api_keys (id, name, prefix, key_hash, created_by, created_at, last_used_at) VALUES ($1, $2, $3, $4, $5, $6, NULL)',
      [key.id, key.name, key.prefix, key.keyHash, key.createdBy, key.createdAt],
    );
  }

  async listApiKeys(): Promise<ApiKeyRecord[]> {
    const rows = await this.db.query('SELECT * FROM api_keys ORDER BY created_at DESC, id');
    return rows.map(toApiKey);
  }

  async countApiKeys(): Promise<number> {
    const rows = await this.db.query('SELECT count(*) AS n FROM api_keys');
    return num(rows[0]?.n ?? 0);
  }

  /** True when a key was deleted. */
  async deleteApiKey(id: string): Promise<boolean> {
    const rows = await this.db.query('DELETE FROM api_keys WHERE id = $1 RETURNING id', [id]);
    return rows.length > 0;
  }

  /** The key whose secret hashes to `keyHash`, marking it used (at most once a minute). */
  async useApiKey(keyHash: string, now: number): Promise<ApiKeyRecord | null> {
    const rows = await this.db.query('SELECT * FROM api_keys WHERE key_hash = $1', [keyHash]);
    const row = rows[0];
    if (!row) return null;
    const key = toApiKey(row);
    if (key.lastUsedAt === null || now - key.lastUsedAt >= 60_000) {
      await this.db.query('UPDATE api_keys SET last_used_at = $2 WHERE id = $1', [key.id, now]);
      key.lastUsedAt = now;
    }
    return key;
  }

  /** One page of a form's submissions, newest first, after the keyset `after` (exclusive). */
  async listSubmissionsPage(formId: string, limit: number, after: { createdOn: number; id: string } | null): Promise<AdminSubmission[]> {
    const rows = after
      ? await this.db.query(
          `SELECT id, form_id, submitted_values, page_path, created_on FROM form_submissions
           WHERE form_id = $1 AND (created_on, id) < ($2, $3) ORDER BY created_on DESC, id DESC LIMIT $4`,
          [formId, after.createdOn, after.id, limit],
        )
      : await this.db.query(
          `SELECT id, form_id, submitted_values, page_path, created_on FROM form_submissions
           WHERE form_id = $1 ORDER BY created_on DESC, id DESC LIMIT $2`,
          [formId, limit],
        );
    return rows.map((row) => ({
      id: str(row.id),
      formId: str(row.form_id),
      values: (typeof row.submitted_values === 'string' ? JSON.parse(row.submitted_values) : row.submitted_values) as Record<string, unknown>,
      pagePath: str(row.page_path),
      createdOn: num(row.created_on),
    }));
  }
}
