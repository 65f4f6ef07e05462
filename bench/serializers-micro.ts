// `npm run bench:serializers`: `json`, `raw`, `json|htmlattr` and `json-pretty` on objects of
// ~10 KB to ~1 MB, Quire against the published port, with the fresh-data harness (fresh.ts):
// a rotation of objects generated from seeds, a new seed each round, render + Buffer.from.
import { runIfMain } from './cli.ts';
import { SERIALIZER_DEFAULTS, freshMain } from './fresh.ts';

runIfMain(import.meta.url, 'bench', () => freshMain(process.argv.slice(2), SERIALIZER_DEFAULTS));
