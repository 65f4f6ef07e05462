import { describe, expect, it } from 'vitest';
import { isValidSchemaName } from '../shared/platform-wire.ts';
import { OWNER_EVENTS } from './owner-events.ts';

describe('owner events', () => {
  const names = [...Object.values(OWNER_EVENTS.apiKeys), ...Object.values(OWNER_EVENTS.inventory)];

  it('cover every event seed §2 lists for the two panels, each a distinct, valid tracker schema name', () => {
    expect(Object.keys(OWNER_EVENTS.apiKeys).sort()).toEqual(
      ['createKey', 'deleteKey', 'deleteKeyConfirm', 'learnMore', 'modalCancel', 'modalComplete', 'modalCopy', 'modalNext', 'termsOfUse'].sort(),
    );
    expect(Object.keys(OWNER_EVENTS.inventory).sort()).toEqual(['nextPage', 'rowClick', 'rowExpander', 'search', 'sortName', 'sortPrice', 'sortStock'].sort());
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(isValidSchemaName(name), name).toBe(true);
  });
});
