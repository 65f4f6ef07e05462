import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isUnsubscribeToken, unsubscribeToken } from '../mail/newsletter-unsubscribe.ts';
import { MIGRATIONS, migrate } from './migrations.ts';
import { emailKey } from './repository.ts';
import { openPgliteClient } from './sql-client.ts';

// Migration 012: email keys stored before `emailKey` was NFC are brought to it, and rows that
// become one address are merged where a store may merge them (the list, pending restock
// sign-ups) and never deleted where it may not (accounts, owners).

const NFD = 'jose\u0301@example.com';
const NFC = 'jos\u00e9@example.com';

describe('email keys in NFC', () => {
  it('the key of an address is the same however its accents are typed', () => {
    expect(NFD).not.toBe(NFC);
    expect(emailKey(` ${NFD.toUpperCase()} `)).toBe(NFC);
    expect(emailKey(NFC)).toBe(NFC);
  });

  it('an unsubscribe link mailed before keys were NFC still unsubscribes; a token for another address does not', () => {
    const legacy = crypto.createHmac('sha256', 'k').update(`w1\0${NFD}`).digest('base64url');
    expect(isUnsubscribeToken('k', 'w1', NFD, legacy)).toBe(true);
    expect(isUnsubscribeToken('k', 'w1', NFD, unsubscribeToken('k', 'w1', NFC))).toBe(true);
    expect(isUnsubscribeToken('k', 'w1', 'ann@example.com', legacy)).toBe(false);
    expect(isUnsubscribeToken('k', 'w1', NFC, legacy)).toBe(false);
  });

  it('migration 012 rewrites stored keys and merges what may be merged', async () => {
    const client = await openPgliteClient(undefined);
    try {
      const before = MIGRATIONS.filter((m) => m.id !== '012-email-keys-nfc');
      await migrate(client, before);
      await client.query(`INSERT INTO mailing_list (email_key, email, source, added_on) VALUES ($1, $1, 's', 2), ($2, $2, 's', 1), ('ann@example.com', 'ann@example.com', 's', 3)`, [NFC, NFD]);
      await client.query(
        `INSERT INTO restock_sign_ups (id, product_id, variant_id, email, email_key, is_join_mailing_list, created_on, notified_on) VALUES
          ('r1', 'p', 'v', $1, $1, false, 1, NULL), ('r2', 'p', 'v', $2, $2, false, 2, NULL), ('r3', 'p', 'v', $2, $2, false, 0, 5), ('r4', 'p', 'w', $1, $1, false, 1, NULL)`,
        [NFD, NFC],
      );
      await client.query(`INSERT INTO site_users (id, email, email_key, password_hash) VALUES ('u1', $1, $1, 'h'), ('u2', 'rene\u0301@x.test', 'rene\u0301@x.test', 'h'), ('u3', $2, $2, 'h')`, [NFD, NFC]);
      await client.query(`INSERT INTO owners (id, email, email_key, password_hash, created_at) VALUES ('o1', $1, $1, 'h', 1)`, [NFD]);
      await client.query(`INSERT INTO orders (id, data, email_key) VALUES ('x1', '{}', $1)`, [NFD]);

      expect(await migrate(client)).toEqual(['012-email-keys-nfc']);

      // The list keeps the older of the two (the NFD row, added first), under the NFC key.
      expect(await client.query(`SELECT email_key, added_on FROM mailing_list ORDER BY email_key`)).toEqual([
        { email_key: 'ann@example.com', added_on: 3 },
        { email_key: NFC, added_on: 1 },
      ]);
      // One pending sign-up per variant and address: the older; a notified one and another variant stay.
      const restock = await client.query<{ id: string; email_key: string }>(`SELECT id, email_key FROM restock_sign_ups ORDER BY id`);
      expect(restock).toEqual([
        { id: 'r1', email_key: NFC },
        { id: 'r3', email_key: NFC },
        { id: 'r4', email_key: NFC },
      ]);
      // Accounts are never deleted: u3 already has the NFC key, so u1 keeps its own; u2 alone is renamed.
      expect(await client.query(`SELECT id, email_key FROM site_users ORDER BY id`)).toEqual([
        { id: 'u1', email_key: NFD },
        { id: 'u2', email_key: 'ren\u00e9@x.test' },
        { id: 'u3', email_key: NFC },
      ]);
      expect(await client.query(`SELECT email_key FROM owners`)).toEqual([{ email_key: NFC }]);
      expect(await client.query(`SELECT email_key FROM orders`)).toEqual([{ email_key: NFC }]);
    } finally {
      await client.close();
    }
  }, 60_000);
});
