// The tables of the documentation that are generated from the code, so that they cannot say
// something the code does not: the settings (the configuration schema's names and defaults,
// with the words `gatehouse --help` prints), the scopes (the scope and route registries) and
// the CLI reference (the commander definitions `gatehouse` runs). `npm run docs`
// (scripts/docs.mjs) writes them between their markers; test/docs/generated.test.ts fails
// when a document differs from what this module renders.
import type { Argument, Command, Option } from 'commander';
import { buildProgram } from '../src/cli/program.ts';
import { settingsHelp } from '../src/config/help.ts';
import { renderScopeTable } from '../src/platform/scope-table.ts';

export interface GeneratedTable {
  /** The name in the markers: `<!-- generated: NAME … -->` … `<!-- end generated: NAME -->`. */
  name: string;
  /** The document that holds it, relative to the repository's root. */
  file: string;
  /** Where its content comes from, said in the start marker. */
  source: string;
  render: () => string;
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** Every setting with its default and meaning: what `gatehouse --help` lists. */
export function renderSettingsTable(): string {
  const lines = ['| variable | default | meaning |', '|---|---|---|'];
  for (const s of settingsHelp()) lines.push(`| \`${s.name}\` | ${s.default === undefined ? 'unset' : `\`${s.default}\``} | ${cell(s.meaning)} |`);
  return lines.join('\n');
}

/** Every command that runs something, by its path (["clients", "create"]). */
function leafCommands(command: Command, path: string[] = []): Array<{ path: string[]; command: Command }> {
  if (command.commands.length === 0) return [{ path, command }];
  return command.commands.flatMap((c) => leafCommands(c, [...path, c.name()]));
}

const argumentSpelling = (a: Argument) => {
  const name = `${a.name()}${a.variadic ? '...' : ''}`;
  return a.required ? `<${name}>` : `[${name}]`;
};

/** An option that collects repeated values starts from an empty list. */
const repeatable = (o: Option) => Array.isArray(o.defaultValue);

const shownOptions = (c: Command) => c.options.filter((o) => !o.hidden && o.long !== '--json' && o.long !== '--help');

function usage(path: string[], c: Command): string {
  const parts = ['gatehouse', ...path, ...c.registeredArguments.map(argumentSpelling)];
  for (const o of shownOptions(c)) {
    const flags = `${o.flags}${repeatable(o) ? '...' : ''}`;
    parts.push(o.mandatory ? flags : `[${flags}]`);
  }
  if (c.options.some((o) => o.long === '--json')) parts.push('[--json]');
  return parts.join(' ');
}

function optionMeaning(o: Option): string {
  const notes = [o.mandatory ? 'required' : '', repeatable(o) ? 'repeat for several' : '', o.defaultValue !== undefined && !repeatable(o) ? `default: ${String(o.defaultValue)}` : '']
    .filter((n) => n !== '')
    .join('; ');
  return notes === '' ? o.description : `${o.description} (${notes})`;
}

/** Each command with its usage, its arguments and its options, in the order `--help` lists them. */
export function renderCliReference(): string {
  const blocks: string[] = [];
  for (const { path, command } of leafCommands(buildProgram())) {
    const words = command.description();
    const lines = [`### gatehouse ${path.join(' ')}`, '', `${words.charAt(0).toUpperCase()}${words.slice(1)}.`, '', '```sh', usage(path, command), '```'];
    const rows = [
      ...command.registeredArguments.map((a) => `| \`${argumentSpelling(a)}\` | ${cell(a.description || 'see above')} |`),
      ...shownOptions(command).map((o) => `| \`${o.flags}\` | ${cell(optionMeaning(o))} |`),
    ];
    if (rows.length > 0) lines.push('', '| argument or option | meaning |', '|---|---|', ...rows);
    blocks.push(lines.join('\n'));
  }
  return blocks.join('\n\n');
}

export const generatedTables: GeneratedTable[] = [
  { name: 'settings', file: 'docs/operating.md', source: 'src/config (the schema and --help)', render: renderSettingsTable },
  { name: 'cli', file: 'docs/operating.md', source: 'src/cli/program.ts', render: renderCliReference },
  { name: 'scopes', file: 'docs/integrating.md', source: 'src/oauth/scopes.ts and src/platform/route-table.ts', render: renderScopeTable },
];

export const DOCS_COMMAND = 'npm run docs';

const startPattern = (name: string) => new RegExp(`<!-- generated: ${name}\\b[^>]*-->\\n`);
const endMarker = (name: string) => `<!-- end generated: ${name} -->`;

/**
 * The document with the table's content replaced between its markers (the start marker
 * rewritten too, so that it names the source and the command). Throws when a marker is missing.
 */
export function withTable(text: string, table: GeneratedTable): string {
  const start = startPattern(table.name).exec(text);
  const end = text.indexOf(endMarker(table.name));
  if (start === null || end < start.index) {
    throw new Error(`${table.file} needs the markers <!-- generated: ${table.name} --> and ${endMarker(table.name)}`);
  }
  const marker = `<!-- generated: ${table.name} from ${table.source} by \`${DOCS_COMMAND}\`; do not edit by hand -->\n`;
  return `${text.slice(0, start.index)}${marker}\n${table.render()}\n\n${text.slice(end)}`;
}

/** Each document that holds a generated table, before and after regenerating them all. */
export function regenerate(read: (file: string) => string): Array<{ file: string; before: string; after: string }> {
  const files = [...new Set(generatedTables.map((t) => t.file))];
  return files.map((file) => {
    const before = read(file);
    const after = generatedTables.filter((t) => t.file === file).reduce((text, t) => withTable(text, t), before);
    return { file, before, after };
  });
}
