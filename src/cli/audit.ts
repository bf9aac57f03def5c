import type { Command } from 'commander';
// gatehouse audit (SPEC §2 item 16): the audit log, through the same store the services append to.
import { requireUserByEmail } from '../services/accounts/users.ts';
import { emit, formatTime } from './output.ts';
import { jsonOption, type CliRuntime } from './runtime.ts';

export function registerAuditCommand(program: Command, runtime: CliRuntime): void {
  program
    .command('audit')
    .description('read the audit log, newest first (SPEC §2 item 16)')
    .option('--client <clientId>', 'only events of this client')
    .option('--user <email>', 'only events about this user')
    .option('--limit <n>', 'at most this many events', '100')
    .addOption(jsonOption())
    .action(async (opts: { client?: string; user?: string; limit: string; json?: boolean }) => {
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new Error('--limit must be a whole number from 1 to 10000');
      const events = await runtime.withServices(async (s) => {
        const userId = opts.user ? (await requireUserByEmail(s, opts.user)).id : undefined;
        return s.stores.auditLog.list({ clientId: opts.client, userId, limit });
      });
      emit(!!opts.json, events, () =>
        events.length === 0
          ? 'no events'
          : events
              .map((e) => `${formatTime(e.createdAt)}  ${e.type.padEnd(22)} client=${e.clientId ?? '-'} user=${e.userId ?? '-'} actor=${e.actorId ?? '-'}${e.data ? ' ' + JSON.stringify(e.data) : ''}`)
              .join('\n'),
      );
    });
}
