// Runs the real `gatehouse` command in a child process, the way an operator or a script does.
import { execFile } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { settingNames } from '../../src/config/index.ts';

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface CliResult {
  /** Exit status; -1 when the process was killed (timeout). */
  code: number;
  stdout: string;
  stderr: string;
}

/** Settings a developer's shell (or Vite, which sets BASE_URL=/) might carry that would change what the CLI does. */
const gatehouseSettings = new Set<string>(settingNames);

/**
 * The program and arguments that run `gatehouse …args`; with `umask` (e.g. '022'), a shell
 * sets it first and execs the command, as an operator's login shell would.
 */
export function gatehouseCommand(args: string[], umask?: string): [string, string[]] {
  const command = [process.execPath, join(projectRoot, 'bin/gatehouse.mjs'), ...args];
  return umask === undefined ? [command[0]!, command.slice(1)] : ['/bin/sh', ['-c', 'umask "$0" && exec "$@"', umask, ...command]];
}

/**
 * `inputAfterMs`: the input comes that much later, as from a slow writer (a password manager
 * asking first). `umask`: see gatehouseCommand.
 */
export function runCli(args: string[], options: { env?: Record<string, string>; input?: string; inputAfterMs?: number; umask?: string } = {}): Promise<CliResult> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !gatehouseSettings.has(key)) env[key] = value;
  }
  Object.assign(env, options.env);
  return new Promise((done) => {
    const [program, programArgs] = gatehouseCommand(args, options.umask);
    const child = execFile(
      program,
      programArgs,
      { cwd: projectRoot, env, timeout: 20_000, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        done({ code, stdout, stderr });
      },
    );
    // Always close standard input, so a command that reads it never waits for a terminal.
    if (options.inputAfterMs === undefined) child.stdin!.end(options.input ?? '');
    else setTimeout(() => child.stdin!.end(options.input ?? ''), options.inputAfterMs);
  });
}

/** SPEC §4: bad input exits non-zero with a one-line message and no stack trace. */
export function expectOneLineRefusal(result: CliResult, message: RegExp): void {
  expect(result.code, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).toBeGreaterThan(0);
  expect(result.stdout).toBe('');
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(message);
  expect(result.stderr).not.toMatch(/^\s+at .+[:(]\d+/m);
  expect(result.stderr).not.toMatch(/Error:|node:internal|\.ts:\d+/);
}
