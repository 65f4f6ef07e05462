#!/usr/bin/env node
// Entry point for `npx quire …`: loads the TypeScript CLI through tsx.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./quire-cli.ts');
process.exitCode = await main(process.argv.slice(2));
