// gatehouse phone-calls (docs/integrating.md#phone-calls): the outbound calls clients asked of
// team event types. Gatehouse runs no phone provider, so this list is where an operator finds
// them to place, or to hand to a provider; the API answered each as queued.
import type { Command } from 'commander';
import { listPhoneCalls, PHONE_CALL_LIST_MAX, type PhoneCall } from '../services/calls/phone-calls.ts';
import { formatTime } from './output.ts';
import { jsonOption, limitOf, type CliRuntime } from './runtime.ts';

const callJson = (c: PhoneCall) => ({
  id: c.id,
  status: c.status,
  team_id: c.teamId,
  event_type_id: c.eventTypeId,
  requested_by: c.requestedBy,
  your_phone_number: c.yourPhoneNumber,
  number_to_call: c.numberToCall,
  enabled: c.enabled,
  template_type: c.templateType,
  scheduler_name: c.schedulerName,
  guest_name: c.guestName,
  guest_email: c.guestEmail,
  guest_company: c.guestCompany,
  begin_message: c.beginMessage,
  general_prompt: c.generalPrompt,
  created_at: formatTime(c.createdAt),
});

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
              .map((c) => `${c.id}  ${c.status}  call ${c.numberToCall} from ${c.yourPhoneNumber}  team ${c.teamId} event type ${c.eventTypeId}  ${c.templateType}  ${formatTime(c.createdAt)}`)
              .join('\n'),
      );
    });
}
