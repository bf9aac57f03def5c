// An admin's decisions on a client (docs/rules.md#client-states, docs/rules.md#client-changes, docs/rules.md#review-versions, docs/rules.md#introspection): on the client itself,
// on the changes it holds for review, and the resource-server mark.
import { formatScopes, sortScopes } from '../../oauth/scopes.ts';
import { MAX_REDIRECT_URIS } from '../../oauth/redirect-uri.ts';
import type { ClientState } from '../../oauth/storage.ts';
import type { ServiceContext } from '../context.ts';
import { conflict, notFound, validation } from '../errors.ts';
import type { ApplicationNotification } from '../webhooks/store.ts';
import { claimClient } from './version.ts';
import { requireClient, type ClientView } from './view.ts';

export type ReviewDecision = 'approve' | 'reject' | 'suspend';

// docs/rules.md#client-states: which decision applies in which state.
const allowedFrom: Record<ReviewDecision, ClientState[]> = {
  approve: ['pending', 'suspended'],
  reject: ['pending'],
  suspend: ['approved'],
};
const resulting: Record<ReviewDecision, ClientState> = { approve: 'approved', reject: 'rejected', suspend: 'suspended' };
const eventOf = { approve: 'client.approved', reject: 'client.rejected', suspend: 'client.suspended' } as const;
/** Review decisions the application is told of at its events URL (docs/rules.md#client-events). */
const notified: Partial<Record<ReviewDecision, ApplicationNotification>> = { approve: 'client.approved', suspend: 'client.suspended' };

export interface DecisionOptions {
  /** docs/rules.md#review-versions: the version the reviewer saw; a decision on an older one is refused. */
  expectedVersion?: number | undefined;
}

/** A reviewer's reason: trimmed, at most 1000 characters. */
function checkReason(reason: string | undefined): string {
  const note = (reason ?? '').trim();
  if (note.length > 1000) throw validation('reason must be at most 1000 characters', 'reason');
  return note;
}

export async function reviewClient(
  ctx: ServiceContext,
  id: string,
  decision: ReviewDecision,
  reviewerId: string | null,
  reason?: string,
  options: DecisionOptions = {},
): Promise<ClientView> {
  const now = ctx.clock();
  await ctx.stores.transaction(async (tx) => {
    // The row stays locked until the decision is written, so neither a concurrent review
    // nor a developer's edit can come between the checks below and the write.
    const client = await claimClient(tx, id, now, { raiseVersion: true, expectedVersion: options.expectedVersion });
    // The state first: a decision that cannot be taken is not helped by a reason.
    if (!allowedFrom[decision].includes(client.state)) {
      throw conflict(`cannot ${decision} a client that is ${client.state} (allowed from: ${allowedFrom[decision].join(', ')})`);
    }
    if (decision === 'reject' && (reason?.trim() ?? '') === '') throw validation('a rejection needs a reason for the developer', 'reason');
    const note = checkReason(reason);
    await tx.clients.update(id, { state: resulting[decision], reviewNote: note === '' ? null : note, reviewedBy: reviewerId, reviewedAt: now });
    await tx.audit.append({ type: eventOf[decision], actorId: reviewerId, clientId: id, data: note ? { reason: note } : {} }, now);
    // docs/rules.md#client-events: the application hears of its suspension and of its approval (again).
    const notice = notified[decision];
    if (notice !== undefined) await tx.webhookDeliveries.notifyClient(id, notice, { state: resulting[decision], reason: note === '' ? null : note }, now);
  });
  return requireClient(ctx, id);
}

/**
 * docs/rules.md#introspection: an admin marks a client as a resource server of the platform, which lets it
 * introspect any client's tokens (RFC 7662), or takes the mark away.
 */
export async function setResourceServer(ctx: ServiceContext, id: string, on: boolean, adminId: string | null): Promise<void> {
  const now = ctx.clock();
  await ctx.stores.transaction(async (tx) => {
    const client = await tx.clients.lock(id, now);
    if (client === undefined) throw notFound(`no client with id ${id}`);
    // docs/rules.md#introspection: introspection needs client authentication, which a public client cannot do.
    if (on && client.kind === 'public') {
      throw conflict(`client ${id} is public: it cannot authenticate, so it cannot introspect tokens; only a confidential client can be a resource server`);
    }
    // The mark changes what the client may do, so a reviewer's open page is no longer current.
    await tx.clients.update(id, { resourceServer: on, updatedAt: now }, { raiseVersion: true });
    await tx.audit.append({ type: 'client.resource_server_changed', actorId: adminId, clientId: id, data: { resourceServer: on } }, now);
  });
}

/**
 * docs/rules.md#client-changes: an admin accepts the held additions; they join the live configuration.
 * docs/rules.md#review-versions: with `expectedVersion`, only the held change the admin saw.
 */
export async function approveHeldChanges(ctx: ServiceContext, clientId: string, reviewerId: string | null, options: DecisionOptions = {}): Promise<ClientView> {
  const now = ctx.clock();
  await ctx.stores.transaction(async (tx) => {
    const live = await claimClient(tx, clientId, now, { raiseVersion: true, expectedVersion: options.expectedVersion });
    const { proposedRedirectUris: uris, proposedScopes: scopes } = live;
    if (uris.length === 0 && scopes.length === 0) throw conflict('this client has no changes awaiting review');
    const mergedUris = [...live.redirectUris, ...uris.filter((u) => !live.redirectUris.includes(u))];
    if (mergedUris.length > MAX_REDIRECT_URIS) throw conflict(`approving would give the client more than ${MAX_REDIRECT_URIS} redirect URIs`);
    const mergedScopes = live.scopes === null ? null : sortScopes([...live.scopes, ...scopes]);
    await tx.clients.update(clientId, {
      redirectUris: mergedUris,
      scopes: mergedScopes,
      proposedRedirectUris: [],
      proposedScopes: [],
      reviewNote: null,
      reviewedBy: reviewerId,
      reviewedAt: now,
    });
    await tx.audit.append({ type: 'client.approved', actorId: reviewerId, clientId, data: { changes: { redirectUris: uris, scopes } } }, now);
    if (scopes.length > 0) {
      await tx.audit.append({ type: 'client.scopes_changed', actorId: reviewerId, clientId, data: { from: formatScopes(live.scopes), to: formatScopes(mergedScopes) } }, now);
    }
  });
  return requireClient(ctx, clientId);
}

/**
 * docs/rules.md#client-states, docs/rules.md#client-changes: an admin declines the held additions, with a reason the developer
 * sees; the client keeps its approved configuration. See docs/rules.md#review-versions, as above.
 */
export async function rejectHeldChanges(
  ctx: ServiceContext,
  clientId: string,
  reviewerId: string | null,
  reason: string | undefined,
  options: DecisionOptions = {},
): Promise<ClientView> {
  const now = ctx.clock();
  await ctx.stores.transaction(async (tx) => {
    const client = await claimClient(tx, clientId, now, { raiseVersion: true, expectedVersion: options.expectedVersion });
    const { proposedRedirectUris: uris, proposedScopes: scopes } = client;
    // As for a decision on the client: what cannot be declined is said before the reason.
    if (uris.length === 0 && scopes.length === 0) throw conflict('this client has no changes awaiting review');
    if ((reason ?? '').trim() === '') throw validation('declining changes needs a reason for the developer', 'reason');
    const note = checkReason(reason);
    await tx.clients.update(clientId, { proposedRedirectUris: [], proposedScopes: [], reviewNote: note, reviewedBy: reviewerId, reviewedAt: now });
    await tx.audit.append({ type: 'client.rejected', actorId: reviewerId, clientId, data: { changes: { redirectUris: uris, scopes }, reason: note } }, now);
  });
  return requireClient(ctx, clientId);
}
