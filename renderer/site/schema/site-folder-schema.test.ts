import fs from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { PAGE_TABLE } from '../../pages/page-types/table.ts';
import { CONTENT_SCHEMA, SITE_FOLDER_SCHEMAS, schemaText } from './site-folder-schema.ts';

const DEMO = path.join(import.meta.dirname, '..', '..', '..', 'fixtures', 'sites', 'demo');

describe('published site folder schemas', () => {
  it('name every content page type of the page table, and no other', () => {
    const table = (PAGE_TABLE as readonly { contentPageTypes?: readonly number[] }[]).flatMap((kind) => kind.contentPageTypes ?? []);
    const schema = (CONTENT_SCHEMA.properties.pageType as unknown as { enum: number[] }).enum;
    expect([...schema].sort()).toEqual([...new Set(table)].sort());
  });

  it('match their TypeBox source (run write-schemas.ts after an edit)', () => {
    for (const [name, schema] of Object.entries(SITE_FOLDER_SCHEMAS)) {
      expect(fs.readFileSync(path.join(import.meta.dirname, name), 'utf8'), name).toBe(schemaText(schema));
    }
  });

  it('are plain JSON Schemas a strict validator accepts, and the demo site passes them', () => {
    const ajv = new Ajv({ strict: true, allowUnionTypes: true });
    const demoFiles: Record<string, string[]> = {
      'site.schema.json': ['site.json'],
      'catalog.schema.json': ['catalog.json'],
      'content.schema.json': fs.readdirSync(path.join(DEMO, 'content')).map((name) => `content/${name}`),
    };
    for (const name of Object.keys(SITE_FOLDER_SCHEMAS)) {
      const published = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, name), 'utf8')) as Record<string, unknown>;
      const { $schema: _draft, ...schema } = published;
      const validate = ajv.compile(schema);
      for (const file of demoFiles[name]!) {
        expect(validate(JSON.parse(fs.readFileSync(path.join(DEMO, file), 'utf8'))), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
    }
  });
});
