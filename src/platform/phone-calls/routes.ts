// An outbound call offering a team event type (TEAM_EVENT_TYPE_WRITE), as Cal.ai's agent makes
// it on the platform. Gatehouse runs no phone provider: the request is queued for the
// operator (docs/integrating.md#phone-calls) and the answer's callId names it there. The
// calApiKey the platform's body carries is read for the shape only: never kept, never shown.
import type { PlatformDeps } from '../deps.ts';
import { route, type HandlerMap } from '../handler.ts';
import { bool, email, object, str } from '../schemas.ts';
import { queuePhoneCall, TEMPLATE_TYPES, type TemplateType } from './service.ts';

/** E.164: a plus, then up to 15 digits, the first not 0. */
const phoneNumber = { type: 'string', pattern: '^\\+[1-9][0-9]{1,14}$', description: 'An E.164 number such as +14155550123' };
const words = (max: number, description: string) => str(1, max, { description });

interface PhoneCallInput {
  yourPhoneNumber: string;
  numberToCall: string;
  calApiKey?: string;
  enabled?: boolean;
  templateType?: TemplateType;
  schedulerName?: string;
  guestName?: string;
  guestEmail?: string;
  guestCompany?: string;
  beginMessage?: string;
  generalPrompt?: string;
}

const body = object(
  {
    yourPhoneNumber: { ...phoneNumber, description: 'The number the call comes from (E.164)' },
    numberToCall: { ...phoneNumber, description: 'The number to call (E.164)' },
    calApiKey: str(1, 500, { description: "The platform's agent books with it; Gatehouse neither keeps nor shows it" }),
    enabled: { ...bool, default: true },
    templateType: { type: 'string', enum: [...TEMPLATE_TYPES], default: 'CUSTOM_TEMPLATE' },
    schedulerName: words(200, "The scheduler's name, as the agent says it"),
    guestName: words(200, "The guest's name"),
    guestEmail: email,
    guestCompany: words(200, "The guest's company"),
    beginMessage: words(2000, 'What the agent says first'),
    generalPrompt: words(20000, "The agent's instructions"),
  },
  ['yourPhoneNumber', 'numberToCall'],
);

export function phoneCallHandlers(deps: PlatformDeps): HandlerMap {
  const ctx = deps.services;
  return {
    'teamEventTypes.createPhoneCall': route<PhoneCallInput, unknown, { teamId: string; eventTypeId: string }>({
      body,
      data: object(
        {
          callId: { type: 'string', description: 'The queued call, as the operator lists it (`gatehouse phone-calls list`)' },
          callStatus: { type: 'string', enum: ['queued'], description: 'Gatehouse places no call itself: the request waits for the operator' },
        },
        ['callId', 'callStatus'],
      ),
      status: 201,
      handle: async (call) => {
        const b = call.body;
        const queued = await queuePhoneCall(ctx, {
          teamId: call.facts.team!.id,
          eventTypeId: call.params.eventTypeId,
          requestedBy: call.userId,
          yourPhoneNumber: b.yourPhoneNumber,
          numberToCall: b.numberToCall,
          enabled: b.enabled ?? true,
          templateType: b.templateType ?? 'CUSTOM_TEMPLATE',
          schedulerName: b.schedulerName ?? null,
          guestName: b.guestName ?? null,
          guestEmail: b.guestEmail ?? null,
          guestCompany: b.guestCompany ?? null,
          beginMessage: b.beginMessage ?? null,
          generalPrompt: b.generalPrompt ?? null,
        });
        return { callId: queued.id, callStatus: 'queued' };
      },
    }),
  };
}
