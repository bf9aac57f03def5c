// Outbound phone calls asked of a team event type (docs/integrating.md#phone-calls): on the
// platform, Cal.ai's agent calls a number and offers the event type. Gatehouse runs no phone
// provider, so a request is held here, queued, for an operator to place or hand on
// (`gatehouse phone-calls list`); the API says it is queued, never that a call took place.
// The Cal.com API key a request carries is for the platform's agent: it is neither kept nor
// shown. The store lives here, beside the services, since the CLI reads through services;
// src/storage/stores/phone-calls.ts implements it.
import { randomUUID } from 'node:crypto';
import type { ServiceContext } from '../context.ts';

export const TEMPLATE_TYPES = ['CHECK_IN_APPOINTMENT', 'CUSTOM_TEMPLATE'] as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[number];

/** The most a list shows. */
export const PHONE_CALL_LIST_MAX = 1000;

export interface PhoneCall {
  /** The platform's callId; a UUID, as nothing counts calls. */
  id: string;
  teamId: string;
  eventTypeId: string;
  /** Who asked for it; null once that account is deleted. */
  requestedBy: string | null;
  /** E.164, as the platform takes them. */
  yourPhoneNumber: string;
  numberToCall: string;
  enabled: boolean;
  templateType: TemplateType;
  schedulerName: string | null;
  guestName: string | null;
  guestEmail: string | null;
  guestCompany: string | null;
  beginMessage: string | null;
  generalPrompt: string | null;
  /** 'queued' until an operator places it. */
  status: string;
  createdAt: number;
}

export type PhoneCallRequest = Omit<PhoneCall, 'id' | 'status' | 'createdAt'>;

export interface PhoneCallStore {
  insert(call: PhoneCall): Promise<void>;
  /** Oldest first; with teamId, that team's only. */
  list(filter: { teamId?: string }, limit: number): Promise<PhoneCall[]>;
}

export async function queuePhoneCall(ctx: ServiceContext, request: PhoneCallRequest): Promise<PhoneCall> {
  const call: PhoneCall = { ...request, id: randomUUID(), status: 'queued', createdAt: ctx.clock() };
  await ctx.stores.phoneCalls.insert(call);
  return call;
}

export function listPhoneCalls(ctx: ServiceContext, filter: { teamId?: string }, limit: number): Promise<PhoneCall[]> {
  return ctx.stores.phoneCalls.list(filter, limit);
}
