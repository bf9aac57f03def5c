#!/usr/bin/env node
// npm run docs:scopes: regenerates the README's scope table from the registries
// (src/platform/scope-table.ts). Runs the TypeScript sources through tsx, like bin/gatehouse.mjs.
import { readFileSync, writeFileSync } from 'node:fs';
import { register } from 'tsx/esm/api';

register();
const { withScopeTable } = await import('../src/platform/scope-table.ts');
const file = new URL('../README.md', import.meta.url);
const before = readFileSync(file, 'utf8');
const after = withScopeTable(before);
if (after !== before) writeFileSync(file, after);
process.stdout.write(after === before ? 'README.md scope table is up to date\n' : 'README.md scope table regenerated\n');
