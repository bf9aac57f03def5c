// The gatehouse command (docs/operating.md#cli-reference) on given arguments and streams: main.ts gives it the
// process's own, a caller its buffers. It calls the same services as the web app, never SQL.
// Every refusal is one line on standard error that starts `gatehouse: `, commander's own
// ("error: unknown option") included; the answer is the exit status.
import { CommanderError } from 'commander';
import { writeLines } from './output.ts';
import { buildProgram } from './program.ts';
import { createRuntime, type CliIo } from './runtime.ts';

/** Runs `gatehouse …args` (the arguments after the program's name); resolves to the exit status. */
export async function runGatehouse(args: string[], io: CliIo): Promise<number> {
  try {
    await buildProgram(createRuntime(io)).parseAsync(args, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    // One line, whatever the message quotes of what was given (output.ts: printable).
    writeLines(io.stderr, `gatehouse: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
