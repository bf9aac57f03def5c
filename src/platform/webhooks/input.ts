// What a webhook's create and change take, and the making of a new one: shared by the webhooks
// of users and organizations (routes.ts) and of event types (event-type-routes.ts).
import type { PlatformDeps } from '../deps.ts';
import { newSigningSecret, type OutboundPolicy, type Webhook, type WebhookChanges, type WebhookOwner } from '../authorization-server.ts';
import { checkOutbound } from '../input.ts';
import { arrayOf, bool, nullable, str } from '../schemas.ts';

const TRIGGERS = [
  'BOOKING_CREATED',
  'BOOKING_REQUESTED',
  'BOOKING_CONFIRMED',
  'BOOKING_REJECTED',
  'BOOKING_RESCHEDULED',
  'BOOKING_CANCELLED',
  'MEETING_STARTED',
  'MEETING_ENDED',
  'FORM_SUBMITTED',
];

export const fields = {
  subscriberUrl: str(1, 2048),
  triggers: { ...arrayOf({ type: 'string', enum: TRIGGERS }, 1, 20), uniqueItems: true },
  active: bool,
  payloadTemplate: nullable(str(0, 10_000)),
};

export interface WebhookInput {
  subscriberUrl: string;
  triggers: string[];
  active?: boolean;
  payloadTemplate?: string | null;
}

/** docs/rules.md#webhooks: a subscriber on a private address is refused when registered, created or moved. */
export async function changes(body: Partial<WebhookInput>, now: number, outbound: OutboundPolicy): Promise<WebhookChanges> {
  return {
    ...(body.subscriberUrl !== undefined ? { subscriberUrl: (await checkOutbound(body.subscriberUrl, 'subscriberUrl', outbound)).toString() } : {}),
    ...(body.triggers !== undefined ? { triggers: body.triggers } : {}),
    ...(body.active !== undefined ? { active: body.active } : {}),
    ...(body.payloadTemplate !== undefined ? { payloadTemplate: body.payloadTemplate } : {}),
    updatedAt: now,
  };
}

/**
 * A new webhook of the owner, stored with a signing secret of Gatehouse's making, which the
 * creation answer shows once. The subscriber is checked before an id is taken, so a refused
 * request leaves the series as it was.
 */
export async function newWebhook(deps: PlatformDeps, owner: WebhookOwner, body: WebhookInput): Promise<{ created: Webhook; secret: string }> {
  const { clock, stores } = deps.services;
  const now = clock();
  const given = await changes(body, now, deps.outbound);
  const created: Webhook = {
    id: await stores.ids.next('webhooks'),
    ownerId: 'userId' in owner ? owner.userId : null,
    organizationId: 'organizationId' in owner ? owner.organizationId : null,
    eventTypeId: 'eventTypeId' in owner ? owner.eventTypeId : null,
    subscriberUrl: '',
    triggers: [],
    active: true,
    payloadTemplate: null,
    disabledReason: null,
    createdAt: now,
    ...given,
  };
  const secret = newSigningSecret();
  await stores.webhooks.insert(created, secret);
  return { created, secret };
}
