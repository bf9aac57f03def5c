// An OAuth client's events URL and signing secret (docs/rules.md#client-events): where
// Gatehouse tells the application of revocations, reuse and review decisions. The secret is
// shown once, when it is made, like a client secret; rotating it replaces it at once.
import type { ServiceContext } from '../context.ts';
import { validation } from '../errors.ts';
import { checkOutboundUrl, type OutboundPolicy } from '../outbound-url.ts';
import { newSigningSecret } from './signing.ts';
import type { ClientEventsSettings, Delivery } from './store.ts';

export interface ClientEventsView extends ClientEventsSettings {
  /** The latest deliveries to the events URL, newest first. */
  deliveries: Delivery[];
}

export const RECENT_DELIVERIES = 20;

export async function clientEventsView(ctx: ServiceContext, clientId: string): Promise<ClientEventsView> {
  const store = ctx.stores.webhookDeliveries;
  return { ...(await store.clientEvents(clientId)), deliveries: await store.list({ clientId }, RECENT_DELIVERIES, 0) };
}

/**
 * Sets the events URL (an empty value removes it). The URL passes the outbound check, as a
 * webhook's does. The first URL comes with a new signing secret, returned here only.
 */
export async function setEventsUrl(ctx: ServiceContext, clientId: string, value: string, outbound: OutboundPolicy, actorId: string | null): Promise<{ secret?: string }> {
  const trimmed = value.trim();
  let url: string | null = null;
  if (trimmed !== '') {
    if (trimmed.length > 2048) throw validation('the events URL must be at most 2048 characters long', 'eventsUrl');
    const check = await checkOutboundUrl(trimmed, outbound);
    if (!check.ok) throw validation(`the events URL ${check.problem}`, 'eventsUrl');
    url = check.url.toString();
  }
  const now = ctx.clock();
  return ctx.stores.transaction(async (tx) => {
    const before = await tx.webhookDeliveries.clientEvents(clientId);
    await tx.webhookDeliveries.setClientEventsUrl(clientId, url, now);
    if (before.eventsUrl !== url) await tx.audit.append({ type: 'events_url.changed', actorId, clientId, data: { from: before.eventsUrl ?? '', to: url ?? '' } }, now);
    if (url === null || before.hasSecret) return {};
    const secret = newSigningSecret();
    await tx.webhookDeliveries.setClientEventsSecret(clientId, secret, now);
    await tx.audit.append({ type: 'events_secret.created', actorId, clientId }, now);
    return { secret };
  });
}

/** A new signing secret, in force at once for every delivery not yet sent; returned here only. */
export async function rotateEventsSecret(ctx: ServiceContext, clientId: string, actorId: string | null): Promise<string> {
  const secret = newSigningSecret();
  const now = ctx.clock();
  await ctx.stores.transaction(async (tx) => {
    await tx.webhookDeliveries.setClientEventsSecret(clientId, secret, now);
    await tx.audit.append({ type: 'events_secret.created', actorId, clientId }, now);
  });
  return secret;
}
