// The published TypeScript port (`@squarespace/template-engine`) set up as every bench uses
// it: a compiler with the port's formatters and predicates and a CLDR instance for its
// locale-aware formatters. One place, so that every bench measures the same configuration.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { CLDR } from '@phensley/cldr';

export async function loadReferencePort(locale = 'en-US') {
  const port = await import('@squarespace/template-engine');
  const { CLDRFramework } = await import('@phensley/cldr');
  // The port returns empty strings from CLDR formatters unless it is given a bundle.
  const require = createRequire(import.meta.url);
  const packDir = require.resolve('@phensley/cldr/packs/en.json').replace(/en\.json$/, '');
  const framework = new CLDRFramework({ loader: (language: string) => readFileSync(packDir + language + '.json', 'utf8') });
  const cldr: CLDR = framework.get(locale);
  const compiler = new port.Compiler({ formatters: port.Formatters, predicates: port.Predicates });
  return { port, cldr, compiler };
}
