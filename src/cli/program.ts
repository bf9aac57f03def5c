// The gatehouse command's tree (docs/rules.md#cli): every command and option, built in one place so
// that the CLI reference of docs/operating.md is generated from it (npm run docs; test/docs/generated.test.ts).
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { settingsHelpText } from '../config/help.ts';
import { listUsers } from '../services/accounts/users.ts';
import { registerAuditCommand } from './audit.ts';
import { startupBanner } from './banner.ts';
import { registerBookingCommands } from './bookings.ts';
import { registerClientCommands } from './clients.ts';
import { registerDemoCommand } from './demo.ts';
import { registerMaintenanceCommands } from './maintenance.ts';
import { registerCimdCommands } from './cimd.ts';
import { registerIdentityProviderCommands } from './identity-providers.ts';
import { registerInviteLinkCommands } from './invite-links.ts';
import { registerKeyCommands } from './keys.ts';
import { registerPhoneCallCommands } from './phone-calls.ts';
import { writeLines } from './output.ts';
import { registerPlatformCommands } from './platform.ts';
import { createRuntime, jsonOption, processIo, type CliRuntime } from './runtime.ts';
import { registerUserCommands } from './users.ts';

export const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/** Without a runtime, the program of the process itself (its streams and environment). */
export function buildProgram(runtime: CliRuntime = createRuntime(processIo())): Command {
  const { stdout, stderr } = runtime.io;
  const program = new Command('gatehouse')
    .description('Gatehouse, the OAuth 2.0 authorization service')
    .version(version, '-V, --version', 'print the version and exit')
    // Program options come before the command, so `clients approve ID --version N` stays the command's own.
    .enablePositionalOptions()
    .addHelpText('after', `\n${settingsHelpText()}\n`)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => stdout.write(text),
      writeErr: (text) => stderr.write(text),
      // As commander does for the process: a terminal's width, 80 columns elsewhere.
      getOutHelpWidth: () => (stdout.isTTY && stdout.columns) || 80,
      getErrHelpWidth: () => (stderr.isTTY && stderr.columns) || 80,
      outputError: (text, write) => write(text.replace(/^error: /, 'gatehouse: ')),
    });

  program
    .command('serve')
    .description('run the service (applies pending migrations first)')
    .action(async () => {
      const { defaultDataDir, startServer } = await import('../server.ts');
      const config = runtime.config();
      const server = await startServer(config);
      const hasAdmin = (await runtime.withServices((s) => listUsers(s, { admins: true }))).length > 0;
      writeLines(stdout, startupBanner(config, { version, listening: server.url, dataDir: defaultDataDir(), hasAdmin }));
      // The one command that outlives its parse: it is the process, so it answers the signals.
      const stop = async (signal: NodeJS.Signals) => {
        await server.close();
        writeLines(stdout, `Gatehouse stopped (${signal}): requests in flight were answered and the database closed.`);
        process.exit(0);
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });

  program
    .command('migrate')
    .description('apply pending migrations and exit')
    .addOption(jsonOption())
    .action(async (opts: { json?: boolean }) => {
      const applied = await runtime.migrate();
      runtime.emit(!!opts.json, { applied }, () => (applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date'));
    });

  registerUserCommands(program, runtime);
  registerClientCommands(program, runtime);
  registerDemoCommand(program, runtime);
  registerAuditCommand(program, runtime);
  registerPlatformCommands(program, runtime);
  registerIdentityProviderCommands(program, runtime);
  registerInviteLinkCommands(program, runtime);
  registerBookingCommands(program, runtime);
  registerPhoneCallCommands(program, runtime);
  registerMaintenanceCommands(program, runtime);
  registerCimdCommands(program, runtime);
  registerKeyCommands(program, runtime);
  return program;
}
