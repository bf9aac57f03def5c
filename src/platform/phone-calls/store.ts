// The outbound calls asked of team event types (docs/integrating.md#phone-calls), held for an
// operator. src/storage/stores/platform/phone-calls.ts implements it.

export const TEMPLATE_TYPES = ['CHECK_IN_APPOINTMENT', 'CUSTOM_TEMPLATE'] as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[number];

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

export interface PhoneCallStore {
  insert(call: PhoneCall): Promise<void>;
  /** Oldest first; with teamId, that team's only. */
  list(filter: { teamId?: string }, limit: number): Promise<PhoneCall[]>;
}
