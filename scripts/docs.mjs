#!/usr/bin/env node
// npm run docs: regenerates every table of the documentation that comes from the code (the
// settings, the scopes, the CLI reference: scripts/docs-tables.ts) between its markers.
// Runs the TypeScript sources through tsx, like bin/gatehouse.mjs.
import { readFileSync, writeFileSync } from 'node:fs';
import { register } from 'tsx/esm/api';

register();
const { regenerate } = await import('./docs-tables.ts');
const root = new URL('../', import.meta.url);
for (const { file, before, after } of regenerate((name) => readFileSync(new URL(name, root), 'utf8'))) {
  if (after !== before) writeFileSync(new URL(file, root), after);
  process.stdout.write(`${file}: ${after === before ? 'up to date' : 'regenerated'}\n`);
}
