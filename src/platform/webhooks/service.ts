// The rules of webhooks (docs/rules.md#webhooks) and every store call they make, one set for
// every owner: a user, an organization, and an event type of a user or a team (which hears of
// that event type's bookings only). A subscriber URL passes the outbound-address check
// whenever it is set (and again at every delivery, src/services/webhooks); the signing secret
// is Gatehouse's making, shown once; a webhook or delivery of another owner is as absent as a
// missing one.
import { newSigningSecret, type Delivery, type Webhook, type WebhookChanges, type WebhookOwner } from '../authorization-server.ts';
import type { PlatformDeps } from '../deps.ts';
import { findEventType, type EventTypeOwner } from '../event-types/service.ts';
import { checkOutbound, invalid, notFound } from '../input.ts';
import type { PlatformContext } from '../stores.ts';

export type { Delivery, Webhook } from '../authorization-server.ts';

/**
 * Whose webhooks a call reaches: a user's, an organization's, or those of an event type, which
 * the caller reaches as its owner does (a user, or the path's team; event-types/service.ts).
 */
export type WebhookScope = { userId: string } | { organizationId: string } | { eventTypeId: string; owner: EventTypeOwner };

/** What a webhook's create and change take. */
export interface WebhookInput {
  subscriberUrl: string;
  triggers: string[];
  active?: boolean;
  payloadTemplate?: string | null;
  /** Refused: the platform lets a caller choose the secret, Gatehouse does not. */
  secret?: string;
}

/** The outbound policy (docs/operating.md: OUTBOUND_ALLOW_PRIVATE) a subscriber URL is checked with. */
export type Outbound = Pick<PlatformDeps, 'outbound'>;

/**
 * The platform lets a caller choose the secret; Gatehouse signs every delivery the Standard
 * Webhooks way with a whsec_ secret of its own making (docs/integrating.md#webhooks), so a
 * chosen one is refused rather than dropped: a subscriber checking with it would reject
 * every delivery.
 */
function refuseChosenSecret(input: { secret?: string }): void {
  if (input.secret !== undefined) throw invalid('secret', 'Gatehouse makes the signing secret (whsec_…) and returns it in the creation answer; leave secret out');
}

/** docs/rules.md#webhooks: a subscriber on a private address is refused when registered, created or moved. */
async function changesOf(input: Partial<WebhookInput>, now: number, { outbound }: Outbound): Promise<WebhookChanges> {
  return {
    ...(input.subscriberUrl !== undefined ? { subscriberUrl: (await checkOutbound(input.subscriberUrl, 'subscriberUrl', outbound)).toString() } : {}),
    ...(input.triggers !== undefined ? { triggers: input.triggers } : {}),
    ...(input.active !== undefined ? { active: input.active } : {}),
    ...(input.payloadTemplate !== undefined ? { payloadTemplate: input.payloadTemplate } : {}),
    updatedAt: now,
  };
}

/** The owner the stores know; an event type the caller cannot reach is 404, as on its own routes. */
async function ownerOf(ctx: PlatformContext, scope: WebhookScope): Promise<WebhookOwner> {
  if (!('eventTypeId' in scope)) return scope;
  return { eventTypeId: (await findEventType(ctx, scope.owner, scope.eventTypeId)).id };
}

async function findOwned(ctx: PlatformContext, owner: WebhookOwner, id: string): Promise<Webhook> {
  const found = await ctx.stores.webhooks.find(owner, id);
  if (found === undefined) throw notFound('webhook');
  return found;
}

/** A webhook of the scope, or 404: another owner's (another event type's) is as absent as a missing one. */
export async function findWebhook(ctx: PlatformContext, scope: WebhookScope, id: string): Promise<Webhook> {
  return findOwned(ctx, await ownerOf(ctx, scope), id);
}

/** The scope's webhooks, oldest first. */
export async function listWebhooks(ctx: PlatformContext, scope: WebhookScope, limit: number, offset: number): Promise<Webhook[]> {
  return ctx.stores.webhooks.list(await ownerOf(ctx, scope), limit, offset);
}

/**
 * A new webhook of the scope, stored with a signing secret of Gatehouse's making, which the
 * creation answer shows once. The subscriber is checked before an id is taken, so a refused
 * request leaves the series as it was.
 */
export async function createWebhook(ctx: PlatformContext, outbound: Outbound, scope: WebhookScope, input: WebhookInput): Promise<{ created: Webhook; secret: string }> {
  refuseChosenSecret(input);
  const owner = await ownerOf(ctx, scope);
  const now = ctx.clock();
  const given = await changesOf(input, now, outbound);
  const created: Webhook = {
    id: await ctx.stores.ids.next('webhooks'),
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
  await ctx.stores.webhooks.insert(created, secret);
  return { created, secret };
}

/** Changes a webhook of the scope; turning it on again clears why Gatehouse turned it off. */
export async function updateWebhook(ctx: PlatformContext, outbound: Outbound, scope: WebhookScope, id: string, input: Partial<WebhookInput>): Promise<Webhook> {
  refuseChosenSecret(input);
  const owner = await ownerOf(ctx, scope);
  await findOwned(ctx, owner, id);
  const saved = await ctx.stores.webhooks.update(owner, id, await changesOf(input, ctx.clock(), outbound));
  if (saved === undefined) throw notFound('webhook');
  return saved;
}

/** Deletes a webhook of the scope; answers what it was. */
export async function deleteWebhook(ctx: PlatformContext, scope: WebhookScope, id: string): Promise<Webhook> {
  const owner = await ownerOf(ctx, scope);
  const found = await findOwned(ctx, owner, id);
  if (!(await ctx.stores.webhooks.delete(owner, found.id))) throw notFound('webhook');
  return found;
}

/** Deletes every webhook of the scope; answers how many there were. */
export async function deleteWebhooks(ctx: PlatformContext, scope: WebhookScope): Promise<number> {
  return ctx.stores.webhooks.deleteAll(await ownerOf(ctx, scope));
}

/** What was sent to a webhook of the scope, newest first (docs/integrating.md#webhooks). */
export async function listDeliveries(ctx: PlatformContext, scope: WebhookScope, webhookId: string, limit: number, offset: number): Promise<Delivery[]> {
  const { id } = await findWebhook(ctx, scope, webhookId);
  return ctx.stores.webhookDeliveries.list({ webhookId: id }, limit, offset);
}

/** Sends a delivery of a webhook of the scope again, as a new message with the same body; answers the copy. */
export async function redeliver(ctx: PlatformContext, scope: WebhookScope, webhookId: string, deliveryId: string): Promise<Delivery> {
  const { id } = await findWebhook(ctx, scope, webhookId);
  const destination = { webhookId: id };
  const copy = await ctx.stores.webhookDeliveries.redeliver(destination, deliveryId, ctx.clock());
  if (copy === undefined) throw notFound('delivery');
  return (await ctx.stores.webhookDeliveries.find(destination, copy))!;
}
