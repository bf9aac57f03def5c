// The gatehouse command (docs/operating.md#cli-reference) on given arguments and streams: main.ts gives it the
// process's own, a caller its buffers. It calls the same services as the web app, never SQL.
// Every refusal is one line on standard error that starts `gatehouse: `, commander's own
// ("error: unknown option") included; the answer is the exit status.
import { CommanderError } from 'commander';
import { ConfigError } from '../config/index.ts';
import { ServiceError } from '../services/errors.ts';
import { CliError } from './output.ts';
import { buildProgram } from './program.ts';
import { createRuntime, type CliIo } from './runtime.ts';

/** Runs `gatehouse …args` (the arguments after the program's name); resolves to the exit status. */
export async function runGatehouse(args: string[], io: CliIo): Promise<number> {
  try {
    await buildProgram(createRuntime(io)).parseAsync(args, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    if (error instanceof ServiceError || error instanceof CliError || error instanceof ConfigError) {
      io.stderr.write(`gatehouse: ${error.message}\n`);
    } else {
      io.stderr.write(`gatehouse: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    return 1;
  }
}
