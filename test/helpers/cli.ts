// Runs the `gatehouse` command in this process through runGatehouse, the function the real
// command runs with the process's streams, for what a command prints and answers; milliseconds
// where a child process (cli-process.ts) costs Node, tsx and the whole import graph again.
import { expect } from 'vitest';
import { runGatehouse } from '../../src/cli/run.ts';
import { testPasswordHashing } from './password-hashing.ts';

export interface CliResult {
  /** Exit status; -1 when the process was killed (timeout). */
  code: number;
  stdout: string;
  stderr: string;
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
