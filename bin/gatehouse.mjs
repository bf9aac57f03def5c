#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx, so `npx gatehouse` and `npm start`
// need no build step. The large plain-JavaScript dependencies are loaded first, natively:
// through tsx's loader hooks they take several times longer to import.
await Promise.all(['kysely', 'commander', 'zod', 'pg', 'better-sqlite3'].map((name) => import(name)));
const { register } = await import('tsx/esm/api');
register();
await import('../src/cli/main.ts');
