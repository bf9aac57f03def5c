// The gatehouse command (SPEC §4). It calls the same services as the web app, never SQL.
import { Command, CommanderError } from 'commander';
import { ConfigError, settingNames } from '../config/index.ts';
import { ServiceError } from '../services/errors.ts';
import { registerAuditCommand } from './audit.ts';
import { registerClientCommands } from './clients.ts';
import { registerDemoCommand } from './demo.ts';
import { CliError, emit } from './output.ts';
import { registerPlatformCommands } from './platform.ts';
import { jsonOption, runtime } from './runtime.ts';
import { registerUserCommands } from './users.ts';

const program = new Command('gatehouse')
  .description('Gatehouse, the OAuth 2.0 authorization service')
  .addHelpText('after', `\nEnvironment variables:\n  ${settingNames.join('\n  ')}\n`)
  .exitOverride()
  .configureOutput({ writeErr: (text) => process.stderr.write(text) });

program
  .command('serve')
  .description('run the service (applies pending migrations first)')
  .action(async () => {
    const { startServer } = await import('../server.ts');
    const server = await startServer(runtime.config());
    const stop = async () => {
      await server.close();
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
    emit(!!opts.json, { applied }, () => (applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date'));
  });

registerUserCommands(program, runtime);
registerClientCommands(program, runtime);
registerDemoCommand(program, runtime);
registerAuditCommand(program, runtime);
registerPlatformCommands(program, runtime);

try {
  await program.parseAsync(process.argv);
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
