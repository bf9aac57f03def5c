// Runs the `gatehouse` command as a child process, the way an operator or a script does, for
// what only a process shows: its standard input as a pipe, its umask, that it exits at all.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { settingNames } from '../../src/config/index.ts';
import type { CliOptions, CliResult } from './cli.ts';
import { testPasswordHashing } from './password-hashing.ts';
import { projectRoot } from './project-root.ts';

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
