// The gatehouse command (SPEC §4). It calls the same services as the web app, never SQL.
// Every refusal is one line on standard error that starts `gatehouse: `, commander's own
// ("error: unknown option") included.
import { CommanderError } from 'commander';
import { ConfigError } from '../config/index.ts';
import { ServiceError } from '../services/errors.ts';
import { CliError } from './output.ts';
import { buildProgram } from './program.ts';

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode;
  } else if (error instanceof ServiceError || error instanceof CliError || error instanceof ConfigError) {
    process.stderr.write(`gatehouse: ${error.message}\n`);
    process.exitCode = 1;
  } else {
    process.stderr.write(`gatehouse: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
