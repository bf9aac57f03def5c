// What a webhook's answers say of it, written once for the webhooks of users and organizations
// (routes.ts) and of event types (event-type-routes.ts): each adds only the fields that name its
// owner. The platform's two shapes (WebhookOutputDto, EventTypeWebhookOutputDto) place those
// fields differently, after the id or after the subscription, so both places are offered and
// every answer keeps its key order.
import type { Delivery, Webhook } from '../authorization-server.ts';
import { iso, isoOrNull } from '../input.ts';
import { arrayOf, bool, nullable, numberedId, object, withFields, type JsonSchema } from '../schemas.ts';

/** Where an answer's own fields stand: right after the id, or after payloadTemplate. */
interface OwnFields<T> {
  afterId?: T;
  afterSubscription?: T;
}

/** The answer's schema, every field required; payloadTemplate may carry its own description. */
export function webhookSchema(own: OwnFields<Record<string, JsonSchema>>, payloadTemplateDescription?: string): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    id: numberedId,
    ...own.afterId,
    subscriberUrl: { type: 'string' },
    triggers: arrayOf({ type: 'string' }, 1, 20),
    active: bool,
    payloadTemplate: nullable({ type: 'string', ...(payloadTemplateDescription !== undefined ? { description: payloadTemplateDescription } : {}) }),
    ...own.afterSubscription,
    disabledReason: nullable({ type: 'string', description: 'Why Gatehouse turned the webhook off (every delivery failed for 5 days); setting active to true clears it' }),
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  };
  return object(properties, Object.keys(properties));
}

/** The answer to a creation: the view and the signing secret, which no other answer shows. */
export function withSecret(view: JsonSchema): JsonSchema {
  return withFields(view, { secret: { type: 'string', description: 'The Standard Webhooks signing secret (whsec_…), shown only here: verify every delivery with it' } });
}

/** The answer of a webhook, in webhookSchema's order, with the route's own fields where its view has them. */
export function webhookAnswer<A extends object, S extends object>(w: Webhook, own: { afterId?: A; afterSubscription?: S }) {
  return {
    id: w.id,
    ...own.afterId,
    subscriberUrl: w.subscriberUrl,
    triggers: w.triggers,
    active: w.active,
    payloadTemplate: w.payloadTemplate,
    ...own.afterSubscription,
    disabledReason: w.disabledReason,
    createdAt: iso(w.createdAt),
    updatedAt: iso(w.updatedAt),
  };
}

/** One delivery of a webhook as its owner reads it (docs/integrating.md#webhooks): the outbox's row. */
export const deliveryView: JsonSchema = object(
  {
    id: { type: 'string', description: 'The webhook-id header of the delivery, the same on every attempt' },
    event: { type: 'string' },
    createdAt: { type: 'string' },
    status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    attempts: { type: 'integer' },
    lastAttemptAt: nullable({ type: 'string' }),
    nextAttemptAt: nullable({ type: 'string' }),
    responseStatus: nullable({ type: 'integer' }),
    response: nullable({ type: 'string', description: 'The first 1 KB of the last answer' }),
    error: nullable({ type: 'string', description: 'Why the last attempt got no answer' }),
    payload: { type: 'string', description: 'The JSON body sent' },
  },
  ['id', 'event', 'createdAt', 'status', 'attempts', 'lastAttemptAt', 'nextAttemptAt', 'responseStatus', 'response', 'error', 'payload'],
);

export const delivery = (d: Delivery) => ({
  id: d.id,
  event: d.event,
  createdAt: iso(d.createdAt),
  status: d.status,
  attempts: d.attempts,
  lastAttemptAt: isoOrNull(d.lastAttemptAt),
  nextAttemptAt: d.status === 'pending' ? isoOrNull(d.nextAttemptAt) : null,
  responseStatus: d.responseStatus,
  response: d.responseBody,
  error: d.error,
  payload: d.payload,
});
