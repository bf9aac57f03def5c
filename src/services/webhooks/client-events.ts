// An OAuth client's events URL and signing secret (docs/rules.md#client-events): where
// Gatehouse tells the application of revocations, reuse and review decisions. The secret is
// shown once, when it is made, like a client secret; rotating it replaces it at once.
import { hashToken } from '../../oauth/token-format.ts';
import type { ServiceContext } from '../context.ts';
import { conflict, validation } from '../errors.ts';
import { checkOutboundUrl, type OutboundPolicy } from '../outbound-url.ts';
import { newSigningSecret } from './signing.ts';
import type { ClientEventsSettings, Delivery } from './store.ts';

export interface ClientEventsView extends ClientEventsSettings {
  /** The latest deliveries to the events URL, newest first. */
  deliveries: Delivery[];
  /** Which signing secret the page shows the client holding (signingSecretVersion), for its forms to carry. */
  secretVersion: string;
}

export const RECENT_DELIVERIES = 20;

/**
 * docs/rules.md#client-events: names a signing secret without telling anything of it (the start of its
 * SHA-256), or its absence ('none'). A page's forms carry the one they showed, and a rotation
 * or a first secret happens only while it is still the client's: the same form sent twice
 * acts once.
 */
export function signingSecretVersion(secret: string | null): string {
  return secret === null ? 'none' : hashToken(secret).slice(0, 16);
}

export async function clientEventsView(ctx: ServiceContext, clientId: string): Promise<ClientEventsView> {
  const store = ctx.stores.webhookDeliveries;
  return {
    ...(await store.clientEvents(clientId)),
    deliveries: await store.list({ clientId }, RECENT_DELIVERIES, 0),
    secretVersion: signingSecretVersion(await store.clientEventsSecret(clientId)),
  };
}

/** docs/rules.md#client-events: what a rotation that lost to another, or came from a page that showed an older secret, is told. */
const ROTATED_SINCE =
  'the signing secret was rotated since this page was shown (this form may have been sent twice), so it was not rotated again: the new secret was shown once, after that rotation; if nobody copied it, rotate it again';

/**
 * Sets the events URL (an empty value removes it). The URL passes the outbound check, as a
 * webhook's does. The first URL comes with a new signing secret, returned here only, made by
 * a conditional write, so that the same form sent twice makes one. `shownVersion` is the
 * signing secret the page showed (signingSecretVersion): when it showed none and one exists
 * now, the answer says the secret was made since (`madeSince`), by a sending before this one.
 */
export async function setEventsUrl(
  ctx: ServiceContext,
  clientId: string,
  value: string,
  outbound: OutboundPolicy,
  actorId: string | null,
  shownVersion?: string,
): Promise<{ secret?: string; madeSince?: boolean }> {
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
    if (url === null) return {};
    const secret = newSigningSecret();
    if (!(await tx.webhookDeliveries.replaceClientEventsSecret(clientId, null, secret, now))) return { madeSince: shownVersion === signingSecretVersion(null) };
    await tx.audit.append({ type: 'events_secret.created', actorId, clientId }, now);
    return { secret };
  });
}

/**
 * A new signing secret, in force at once for every delivery not yet sent; returned here only.
 * `shownVersion`, from a page's form, is the secret the page showed: the rotation replaces
 * that one only, by a conditional write, so the same form sent twice rotates once and the
 * second is refused (a conflict on `eventsSecret`). The CLI rotates whatever secret is there.
 */
export async function rotateEventsSecret(ctx: ServiceContext, clientId: string, actorId: string | null, shownVersion?: string): Promise<string> {
  const secret = newSigningSecret();
  const now = ctx.clock();
  await ctx.stores.transaction(async (tx) => {
    const current = await tx.webhookDeliveries.clientEventsSecret(clientId);
    if (shownVersion !== undefined && shownVersion !== signingSecretVersion(current)) throw conflict(ROTATED_SINCE, 'eventsSecret');
    if (!(await tx.webhookDeliveries.replaceClientEventsSecret(clientId, current, secret, now))) throw conflict(ROTATED_SINCE, 'eventsSecret');
    await tx.audit.append({ type: 'events_secret.created', actorId, clientId }, now);
  });
  return secret;
}
