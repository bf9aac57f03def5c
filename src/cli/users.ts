// `gatehouse users create|list|reset-password|set-admin` (docs/rules.md#cli): accounts, through the
// same services as the web app's sign-in and admin pages.
import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { CLI_OPERATOR } from '../services/actors.ts';
import { createUser, listUsers, resetPassword, setAdmin } from '../services/accounts/users.ts';
import { jsonOption, type CliRuntime } from './runtime.ts';
import { CliError, formatTime } from './output.ts';

/** The password piped on standard input, without the newline `echo` adds. */
function passwordFromStdin(runtime: CliRuntime, how: string): string {
  const password = runtime.readStdin().replace(/\r?\n$/, '');
  if (password === '') throw new CliError(`a password is required: ${how}`);
  return password;
}

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
      const password = opts.password ?? passwordFromStdin(runtime, 'pipe it on standard input or pass --password');
      const user = await runtime.withServices((s) => createUser(s, { email: opts.email, name: opts.name, password, admin: !!opts.admin }, { actorId: CLI_OPERATOR }));
      runtime.emit(!!opts.json, { id: user.id, email: user.email, name: user.name, admin: user.isAdmin }, () => `created user ${user.email} (${user.id})${user.isAdmin ? ', admin' : ''}`);
    });

  users
    .command('list')
    .description('list user accounts by email')
    .option('--admins', 'only platform admins')
    .addOption(jsonOption())
    .action(async (opts: { admins?: boolean; json?: boolean }) => {
      const list = await runtime.withServices((s) => listUsers(s, { admins: !!opts.admins }));
      runtime.emit(
        !!opts.json,
        list.map((u) => ({ id: u.id, email: u.email, name: u.name, admin: u.isAdmin, created_at: formatTime(u.createdAt) })),
        () => (list.length === 0 ? 'no users' : list.map((u) => `${u.email}  ${u.name}${u.isAdmin ? '  (admin)' : ''}`)),
      );
    });

  users
    .command('reset-password')
    .argument('<email>', 'the user\'s login email')
    .description('give a user a new password, printed once (or read from standard input with --password-stdin); signs them out everywhere')
    .option('--password-stdin', 'read the new password from standard input instead of generating one')
    .addOption(jsonOption())
    .action(async (email: string, opts: { passwordStdin?: boolean; json?: boolean }) => {
      const chosen = opts.passwordStdin ? passwordFromStdin(runtime, 'pipe it on standard input with --password-stdin') : undefined;
      const password = chosen ?? randomBytes(12).toString('base64url');
      const { user, sessionsEnded } = await runtime.withServices((s) => resetPassword(s, email, password, CLI_OPERATOR));
      const signedOut = sessionsEnded === 0 ? '' : `; ${sessionsEnded} browser session${sessionsEnded === 1 ? '' : 's'} signed out`;
      runtime.emit(
        !!opts.json,
        // A password the operator piped in is theirs already: it is never echoed back.
        { email: user.email, password: chosen === undefined ? password : null, sessions_ended: sessionsEnded },
        () => (chosen === undefined ? `new password for ${user.email}: ${password}  (shown once)${signedOut}` : `password of ${user.email} changed${signedOut}`),
      );
    });

  users
    .command('set-admin')
    .argument('<email>', 'the user\'s login email')
    .description('make a user a platform admin, who reviews clients (--off takes it away)')
    .option('--off', 'take the admin role away')
    .addOption(jsonOption())
    .action(async (email: string, opts: { off?: boolean; json?: boolean }) => {
      const { user, changed } = await runtime.withServices((s) => setAdmin(s, email, !opts.off, CLI_OPERATOR));
      const role = user.isAdmin ? 'a platform admin' : 'not a platform admin';
      runtime.emit(!!opts.json, { email: user.email, admin: user.isAdmin, changed }, () => `${user.email} ${changed ? 'is now' : 'was already'} ${role}`);
    });
}
