// Runs the `gatehouse` command: in this process through runGatehouse, the function the real
// command runs with the process's streams, for what a command prints and answers; or as a
// child process, the way an operator or a script does, for what only a process shows (its
// standard input as a pipe, its umask, that it exits at all). A child costs Node, tsx and the
// whole import graph again, seconds on a busy machine; a run in this process, milliseconds.
import { execFile } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { runGatehouse } from '../../src/cli/run.ts';
import { settingNames } from '../../src/config/index.ts';
import { testPasswordHashing } from './password-hashing.ts';

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

export interface CliOptions {
  /** The settings it runs with, and no other (a developer's shell may carry some). */
  env?: Record<string, string>;
  /** Standard input; none given is an empty one, never a terminal. */
  input?: string;
}

/** `gatehouse …args` in this process, with its own standard streams and settings. */
export async function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runGatehouse(args, {
    env: { ...testPasswordHashing, ...options.env },
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    readStdin: () => options.input ?? '',
  });
  return { code, stdout, stderr };
}

/**
 * `gatehouse …args` as a child process. `inputAfterMs`: the input comes that much later, as
 * from a slow writer (a password manager asking first). `umask`: see gatehouseCommand.
 */
export function runCliProcess(args: string[], options: CliOptions & { inputAfterMs?: number; umask?: string } = {}): Promise<CliResult> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !gatehouseSettings.has(key)) env[key] = value;
  }
  Object.assign(env, testPasswordHashing, options.env);
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

/** docs/rules.md#cli: bad input exits non-zero with a one-line message and no stack trace. */
export function expectOneLineRefusal(result: CliResult, message: RegExp): void {
  expect(result.code, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).toBeGreaterThan(0);
  expect(result.stdout).toBe('');
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(message);
  expect(result.stderr).not.toMatch(/^\s+at .+[:(]\d+/m);
  expect(result.stderr).not.toMatch(/Error:|node:internal|\.ts:\d+/);
}
