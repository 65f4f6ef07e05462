// `npm run bench:serializers`: `json`, `raw`, `json|htmlattr` and `json-pretty` on objects of
// ~10 KB to ~1 MB, Quire against the published port, with the fresh-data harness (fresh.ts):
// a rotation of objects generated from seeds, a new seed each round, render + Buffer.from.
import { pathToFileURL } from 'node:url';
import { SERIALIZER_DEFAULTS, freshMain } from './fresh.ts';

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  freshMain(process.argv.slice(2), SERIALIZER_DEFAULTS).catch((e: unknown) => {
    process.stderr.write(`bench: ${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(2);
  });
}
