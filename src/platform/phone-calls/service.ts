// Outbound phone calls asked of a team event type (docs/integrating.md#phone-calls): on the
// platform, Cal.ai's agent calls a number and offers the event type. Gatehouse runs no phone
// provider, so a request is held, queued, for an operator to place or hand on (`gatehouse
// phone-calls list`, which reads through this service); the API says it is queued, never that
// a call took place. The Cal.com API key a request carries is for the platform's agent: it is
// neither kept nor shown, and so never reaches this service.
import { randomUUID } from 'node:crypto';
import { notFound } from '../input.ts';
import type { PlatformContext } from '../stores.ts';
import type { PhoneCall } from './store.ts';

export { TEMPLATE_TYPES, type PhoneCall, type TemplateType } from './store.ts';

/** The most a list shows. */
export const PHONE_CALL_LIST_MAX = 1000;

/** What is asked: the call, for an event type of the team, by a user. */
export type PhoneCallRequest = Omit<PhoneCall, 'id' | 'status' | 'createdAt'>;

/** Queues the call, for an event type of the team only: another team's, or a missing one, is 404. */
export async function queuePhoneCall(ctx: PlatformContext, request: PhoneCallRequest): Promise<PhoneCall> {
  const eventType = await ctx.stores.api.eventTypes.findOwned({ teamId: request.teamId }, request.eventTypeId);
  if (eventType === undefined) throw notFound('event type');
  const call: PhoneCall = { ...request, eventTypeId: eventType.id, id: randomUUID(), status: 'queued', createdAt: ctx.clock() };
  await ctx.stores.api.phoneCalls.insert(call);
  return call;
}

/** The calls asked for, oldest first; with teamId, that team's only. */
export function listPhoneCalls(ctx: PlatformContext, filter: { teamId?: string }, limit: number): Promise<PhoneCall[]> {
  return ctx.stores.api.phoneCalls.list(filter, limit);
}
