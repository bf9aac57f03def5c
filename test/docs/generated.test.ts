// The tables the documentation generates from the code (scripts/docs-tables.ts): each document
// must hold exactly what the code renders today, so a setting, a scope, a route or a CLI option
// changed without `npm run docs` fails here, naming the command that brings the document back.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { settingNames } from '../../src/config/index.ts';
import { scopeRegistry } from '../../src/oauth/scopes.ts';
import { apiRoutes } from '../../src/platform/route-table.ts';
import { DOCS_COMMAND, generatedTables, regenerate, renderCliReference, renderSettingsTable } from '../../scripts/docs-tables.ts';
import { projectRoot } from '../helpers/project-root.ts';
import { buildProgram } from '../../src/cli/program.ts';
import type { Command } from 'commander';

const read = (file: string) => readFileSync(join(projectRoot, file), 'utf8');

describe('generated tables', () => {
  it.each(generatedTables.map((t) => [t.name, t.file] as const))('the %s table of %s is what the code renders', (name, file) => {
    const { before, after } = regenerate(read).find((r) => r.file === file)!;
    const table = generatedTables.find((t) => t.name === name)!;
    const section = (text: string) => text.slice(text.indexOf(`<!-- generated: ${name}`), text.indexOf(`<!-- end generated: ${name} -->`));
    // A plain boolean first, so that the failure names the command, then the difference itself.
    const current = section(before) === section(after);
    expect(current, `${file}: the ${name} table differs from ${table.source}; run \`${DOCS_COMMAND}\` and commit the result`).toBe(true);
  });

  it('the settings table names every setting the configuration reads', () => {
    const table = renderSettingsTable();
    for (const name of settingNames) expect(table).toContain(`| \`${name}\` |`);
  });

  it('the scope tables name every scope and every public route', () => {
    const doc = read('docs/integrating.md');
    for (const s of scopeRegistry) expect(doc).toContain(`| \`${s.name}\` |`);
    for (const r of apiRoutes.filter((x) => x.scope === 'public')) expect(doc).toContain(`\`${r.method} ${r.path}\``);
  });

  it('the CLI reference has a section per command, with each of its options', () => {
    const leaves = (c: Command, path: string[] = []): Array<{ path: string; command: Command }> =>
      c.commands.length === 0 ? [{ path: path.join(' '), command: c }] : c.commands.flatMap((child) => leaves(child, [...path, child.name()]));
    const reference = renderCliReference();
    const commands = leaves(buildProgram());
    expect(commands.length).toBeGreaterThan(20);
    for (const { path, command } of commands) {
      const start = reference.indexOf(`### gatehouse ${path}\n`);
      expect(start, `no section for gatehouse ${path}`).toBeGreaterThanOrEqual(0);
      const next = reference.indexOf('\n### ', start + 1);
      const section = reference.slice(start, next < 0 ? undefined : next);
      for (const o of command.options.filter((x) => x.long !== '--json')) expect(section, `gatehouse ${path} ${o.long}`).toContain(`\`${o.flags}\``);
    }
  });
});
