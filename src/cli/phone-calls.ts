// gatehouse phone-calls (docs/integrating.md#phone-calls): the outbound calls clients asked of
// team event types. Gatehouse runs no phone provider, so this list is where an operator finds
// them to place, or to hand to a provider; the API answered each as queued.
import type { Command } from 'commander';
import { listPhoneCalls, PHONE_CALL_LIST_MAX, type PhoneCall } from '../platform/phone-calls/service.ts';
import { formatTime, snakeKeys } from './output.ts';
import { jsonOption, limitOf, type CliRuntime } from './runtime.ts';

/** A call as the JSON output writes it: every field in snake_case, the time in ISO 8601. */
const callJson = (c: PhoneCall) => ({ ...(snakeKeys(c) as Record<string, unknown>), created_at: formatTime(c.createdAt) });

export function registerPhoneCallCommands(program: Command, runtime: CliRuntime): void {
  const calls = program.command('phone-calls').description('the outbound calls asked of team event types through the API, which Gatehouse queues for you to place');
  calls
    .command('list')
    .description('list the calls asked for, oldest first: who to call, from which number, for which event type')
    .option('--team <teamId>', "only this team's calls")
    .option('--limit <n>', `at most this many (1 to ${PHONE_CALL_LIST_MAX})`, '100')
    .addOption(jsonOption())
    .action(async (opts: { team?: string; limit: string; json?: boolean }) => {
      const limit = limitOf(opts.limit, PHONE_CALL_LIST_MAX);
      const rows = await runtime.withServices((s) => listPhoneCalls(s, { teamId: opts.team }, limit));
      runtime.emit(!!opts.json, rows.map(callJson), () =>
        rows.length === 0
          ? 'no phone calls asked for'
          : rows
              .map((c) => `${c.id}  ${c.status}  call ${c.numberToCall} from ${c.yourPhoneNumber}  team ${c.teamId} event type ${c.eventTypeId}  ${c.templateType}  ${formatTime(c.createdAt)}`),
      );
    });
}
