// `gatehouse --help` (docs/rules.md#configuration; `--version`, run as a process, is in cli.test.ts): the help lists every variable the
// configuration reads, each with its default and meaning, and cites nothing outside the
// repository; refusals from the argument parser start "gatehouse: " like every other.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { settingsHelp } from '../../src/config/help.ts';
import { loadConfig, settingNames } from '../../src/config/index.ts';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/program.ts';
import { expectOneLineRefusal, runCli, type CliResult } from '../helpers/cli.ts';
import { projectRoot } from '../helpers/project-root.ts';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every command that runs something, by its path ("clients create"), with its own options. */
function leafCommands(command: Command, path: string[] = []): Array<{ path: string; options: string[] }> {
  if (command.commands.length === 0) return [{ path: path.join(' '), options: command.options.map((o) => o.long!).filter(Boolean) }];
  return command.commands.flatMap((c) => leafCommands(c, [...path, c.name()]));
}

// The CLI reference and the settings table of docs/operating.md are generated from the
// program and the configuration (test/docs/generated.test.ts checks they are current).
describe('the CLI reference of docs/operating.md', () => {
  const operating = readFileSync(join(projectRoot, 'docs/operating.md'), 'utf8');
  const commands = leafCommands(buildProgram());

  it('says truly which commands take --json: all but serve', () => {
    expect(commands.length).toBeGreaterThan(20);
    expect(commands.filter((c) => !c.options.includes('--json')).map((c) => c.path)).toEqual(['serve']);
    expect(operating).toContain('Every command but `serve` takes `--json`');
  });
});

describe('gatehouse --help', { timeout: 120_000 }, () => {
  let help: CliResult;
  beforeAll(async () => {
    help = await runCli(['--help']);
  });

  it('--help lists exactly the variables loadConfig reads, each with its default and meaning', () => {
    expect(help.code).toBe(0);
    const section = help.stdout.slice(help.stdout.indexOf('Environment variables:'));
    const listed = [...section.matchAll(/^ {2}([A-Z_0-9]+) \(default: ([^)]*)\)\n {6}(\S.*)$/gm)].map((m) => ({ name: m[1], default: m[2], meaning: m[3] }));
    expect(listed.map((v) => v.name)).toEqual(settingNames);
    const defaults = loadConfig({});
    expect(listed.find((v) => v.name === 'PORT')?.default).toBe(String(defaults.port));
    expect(listed.find((v) => v.name === 'DATABASE_URL')?.default).toBe(defaults.databaseUrl);
    expect(listed.find((v) => v.name === 'ACCESS_TOKEN_TTL_SECONDS')?.default).toBe(String(defaults.ttl.accessToken));
    expect(listed.find((v) => v.name === 'REDIS_URL')?.default).toBe('unset');
    for (const v of settingsHelp()) expect(listed).toContainEqual({ name: v.name, default: v.default ?? 'unset', meaning: v.meaning });
  });

  it('the configuration is the only reader of the environment, so the help cannot miss a variable', () => {
    const readers = sources(join(projectRoot, 'src')).filter((file) => /process\.env\b/.test(readFileSync(file, 'utf8')));
    expect(readers.map((f) => f.slice(projectRoot.length + 1))).toEqual(['src/config/index.ts']);
  });

  it('cites no document outside the repository and documents --version', () => {
    expect(help.stdout).not.toMatch(/SPEC|seed §/);
    expect(help.stdout).toMatch(/-V, --version +print the version and exit/);
  });

  it('the argument parser refuses with the same "gatehouse: " prefix as every other refusal', async () => {
    expectOneLineRefusal(await runCli(['no-such-command']), /^gatehouse: unknown command 'no-such-command'$/);
    expectOneLineRefusal(await runCli(['users', 'list', '--no-such-option']), /^gatehouse: unknown option '--no-such-option'$/);
  });
});
