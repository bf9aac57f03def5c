// gatehouse audit: the audit log, newest first, through the same store the services append
// to. People are named by email, the CLI's own actions as "CLI (operator)"; --json keeps
// the ids beside them, with snake_case keys and ISO-8601 times like every other command.
import type { Command } from 'commander';
import { CLI_OPERATOR, CLI_OPERATOR_LABEL } from '../services/actors.ts';
import { requireUserByEmail } from '../services/accounts/users.ts';
import type { AuditEntry } from '../services/audit-log.ts';
import { requireClient } from '../services/clients/view.ts';
import { formatTime, snakeKeys } from './output.ts';
import { jsonOption, limitOf, type CliRuntime } from './runtime.ts';

interface NamedEntry {
  entry: AuditEntry;
  user: string | null;
  actor: string | null;
}

function json(e: NamedEntry) {
  return {
    id: e.entry.id,
    type: e.entry.type,
    created_at: formatTime(e.entry.createdAt),
    client_id: e.entry.clientId,
    user_id: e.entry.userId,
    user_email: e.user,
    actor_id: e.entry.actorId,
    actor: e.actor,
    data: snakeKeys(e.entry.data),
  };
}

function line(e: NamedEntry): string {
  const { entry } = e;
  const data = entry.data && Object.keys(entry.data).length > 0 ? '  ' + JSON.stringify(snakeKeys(entry.data)) : '';
  return `${formatTime(entry.createdAt)}  ${entry.type.padEnd(30)} client=${entry.clientId ?? '-'} user=${e.user ?? '-'} by=${e.actor ?? 'system'}${data}`;
}

export function registerAuditCommand(program: Command, runtime: CliRuntime): void {
  program
    .command('audit')
    .description('read the audit log, newest first')
    .option('--client <clientId>', 'only events of this client')
    .option('--user <email>', 'only events about this user')
    .option('--limit <n>', 'at most this many events', '100')
    .addOption(jsonOption())
    .action(async (opts: { client?: string; user?: string; limit: string; json?: boolean }) => {
      const limit = limitOf(opts.limit, 10_000);
      const named = await runtime.withServices(async (s) => {
        // An unknown id is refused, as every other command does, rather than "no events".
        if (opts.client !== undefined) await requireClient(s, opts.client);
        const userId = opts.user !== undefined ? (await requireUserByEmail(s, opts.user)).id : undefined;
        const events = await s.stores.auditLog.list({ clientId: opts.client, userId, limit });
        const ids = new Set(events.flatMap((e) => [e.userId, e.actorId]).filter((id): id is string => id !== null && id !== CLI_OPERATOR));
        const emails = new Map((await s.stores.users.findByIds([...ids])).map((u) => [u.id, u.email]));
        // A user since deleted keeps the id the event recorded.
        const name = (id: string | null) => (id === null ? null : id === CLI_OPERATOR ? CLI_OPERATOR_LABEL : (emails.get(id) ?? id));
        return events.map((entry) => ({ entry, user: name(entry.userId), actor: name(entry.actorId) }));
      });
      runtime.emit(!!opts.json, named.map(json), () => (named.length === 0 ? 'no events' : named.map(line)));
    });
}
