/**
 * Writes the published JSON Schemas of a site folder beside this file:
 *   npx tsx renderer/site/schema/write-schemas.ts
 * Run it after editing site-folder-schema.ts; site-folder-schema.test.ts fails until then.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SITE_FOLDER_SCHEMAS, schemaText } from './site-folder-schema.ts';

for (const [name, schema] of Object.entries(SITE_FOLDER_SCHEMAS)) {
  fs.writeFileSync(path.join(import.meta.dirname, name), schemaText(schema));
  console.log(`wrote renderer/site/schema/${name}`);
}
