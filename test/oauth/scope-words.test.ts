// The scope registry keeps the words of the platform's OAuth documentation, which the project
// was described with: what a user reads on the consent page for a scope is what that
// documentation's table says of it. A scope the table does not name keeps Gatehouse's words.
// Skipped where the project's reference material is not beside the project.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scopeRegistry } from '../../src/oauth/scopes.ts';
import { referenceDir } from '../helpers/calcom-reference.ts';

const seedDir = join(referenceDir, '..', 'seed');
const seedFiles = existsSync(seedDir) ? readdirSync(seedDir).filter((name) => name.endsWith('.txt')) : [];
if (seedFiles.length === 0) console.warn(`The scopes' words suite skipped: the project's description (shared/seed/*.txt) is not at ${seedDir}.`);

describe.skipIf(seedFiles.length === 0)('the scopes’ words', () => {
  it('every scope the documentation’s table names is described in its words', () => {
    const text = seedFiles.map((name) => readFileSync(join(seedDir, name), 'utf8')).join('\n');
    const table = new Map([...text.matchAll(/^\| `([A-Z_]+)` \| ([^|]+) \|/gm)].map((m) => [m[1]!, m[2]!.trim()]));
    expect(table.size).toBeGreaterThan(30);
    const differing = scopeRegistry.filter((s) => table.has(s.name) && table.get(s.name) !== s.description).map((s) => `${s.name}: "${s.description}", not "${table.get(s.name)}"`);
    expect(differing).toEqual([]);
  });
});
