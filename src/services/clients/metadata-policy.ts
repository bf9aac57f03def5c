// docs/integrating.md#connect-an-ai-agent-mcp: CIMD_POLICY applies to every URL client at each use, not only
// to new ones. Under review, a client approved only because the policy was open awaits
// review again; an admin's approval, and a trusted host's, stand.
//
// "Approved only because the policy was open" is read from the client itself: a URL client
// is approved without anyone's decision only when its document was first used under open or
// its host was trusted then. Every decision on it since (an admin's approval, the approval a
// trust decision makes, a suspension, a decision on a held change) records reviewedAt; a
// resubmission makes it pending. So: approved, never reviewed, and its host not trusted now.
// (Under off nothing is written: the core refuses URL clients at each use instead, see
// oauth/client-metadata.ts documentClientRefusal, so they work again once documents are on.)
import { isDocumentClientId } from '../../oauth/client-metadata.ts';
import type { ServiceContext } from '../context.ts';
import { findUserByEmail } from '../accounts/users.ts';
import { REGISTRATION_OWNER_EMAIL } from './dynamic-registration.ts';
import { documentHost } from './host-names.ts';
import type { StoredClient } from './store.ts';

const REOPENED_BECAUSE = 'approved only because CIMD_POLICY was open; CIMD_POLICY is now review';

/** Whether the client waits for review again under CIMD_POLICY=review (see above). */
export function approvedOnlyByOpenPolicy(client: StoredClient, hostTrusted: boolean): boolean {
  return client.state === 'approved' && client.reviewedAt === null && isDocumentClientId(client.id) && !hostTrusted;
}

/**
 * Makes these clients pending again, in one transaction, each under its row lock and only if
 * it still qualifies (a concurrent admin's decision wins), with a new version (SECURITY.md:
 * reviews bind to what was reviewed) and an audit event that says why. Its tokens stop at once, as a pending client's do.
 */
async function reopen(ctx: ServiceContext, clients: StoredClient[], trustedHosts: ReadonlySet<string>): Promise<string[]> {
  const now = ctx.clock();
  return ctx.stores.transaction(async (tx) => {
    const reopened: string[] = [];
    for (const { id } of clients) {
      const live = await tx.clients.lock(id, now);
      if (live === undefined || !approvedOnlyByOpenPolicy(live, isDocumentClientId(id) && trustedHosts.has(documentHost(id)))) continue;
      await tx.clients.update(id, { state: 'pending' }, { raiseVersion: true });
      await tx.audit.append({ type: 'client.review_reopened', clientId: id, data: { reason: REOPENED_BECAUSE } }, now);
      reopened.push(id);
    }
    return reopened;
  });
}

/** At a use of one URL client under review: whether it had to wait for review again. */
export async function reopenIfOnlyOpenApproved(ctx: ServiceContext, client: StoredClient, hostTrusted: boolean): Promise<boolean> {
  if (!approvedOnlyByOpenPolicy(client, hostTrusted)) return false;
  return (await reopen(ctx, [client], new Set(hostTrusted ? [documentHost(client.id)] : []))).length > 0;
}

/**
 * When an instance starts under review: every URL client approved only because the policy
 * was open waits for review again, so the admin queue lists it and its tokens and refresh
 * tokens stop now, not at its next authorization request. Returns the ids.
 */
export async function reopenOpenApprovals(ctx: ServiceContext): Promise<string[]> {
  // The built-in owner holds every URL client; without it there are none.
  const owner = await findUserByEmail(ctx, REGISTRATION_OWNER_EMAIL);
  if (owner === undefined) return [];
  const trusted = new Set((await ctx.stores.metadataHosts.list()).filter((d) => d.decision === 'trusted').map((d) => d.host));
  const hostTrusted = (c: StoredClient) => isDocumentClientId(c.id) && trusted.has(documentHost(c.id));
  const candidates = (await ctx.stores.clients.list({ ownerId: owner.id, state: 'approved' })).filter((c) => approvedOnlyByOpenPolicy(c, hostTrusted(c)));
  return candidates.length === 0 ? [] : reopen(ctx, candidates, trusted);
}
