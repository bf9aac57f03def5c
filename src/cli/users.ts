import type { Command } from 'commander';
import { createUser } from '../services/accounts/users.ts';
import { jsonOption, type CliRuntime } from './runtime.ts';
import { CliError, emit } from './output.ts';

export function registerUserCommands(program: Command, runtime: CliRuntime): void {
  const users = program.command('users').description('manage user accounts');
  users
    .command('create')
    .description('create a user; the password is read from standard input unless --password is given')
    .requiredOption('--email <email>', 'login email')
    .requiredOption('--name <name>', 'display name')
    .option('--password <password>', 'password (for scripts; otherwise read from standard input)')
    .option('--admin', 'make the user a platform admin')
    .addOption(jsonOption())
    .action(async (opts: { email: string; name: string; password?: string; admin?: boolean; json?: boolean }) => {
      const password = opts.password ?? runtime.readStdin().replace(/\r?\n$/, '');
      if (password === '') throw new CliError('a password is required: pipe it on standard input or pass --password');
      const user = await runtime.withServices((s) => createUser(s, { email: opts.email, name: opts.name, password, admin: !!opts.admin }));
      emit(!!opts.json, { id: user.id, email: user.email, name: user.name, admin: user.isAdmin }, () => `created user ${user.email} (${user.id})${user.isAdmin ? ', admin' : ''}`);
    });
}
