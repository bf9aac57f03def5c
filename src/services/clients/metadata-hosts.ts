// An admin's trust decisions about client metadata document hosts (docs/rules.md#cimd-policy): trusting a
// host approves its pending clients (and any it publishes later); distrusting one refuses
// its clients from then on, suspending the approved ones so their tokens stop at once.
import type { ServiceContext } from '../context.ts';
import { registrationOwner } from './dynamic-registration.ts';
import { checkHost, documentHost } from './host-names.ts';
import { reviewClient } from './review.ts';
import type { MetadataHostDecision } from './store.ts';

/**
 * The host is compared as documentHost parses it, not matched as a prefix in SQL: a client
 * id is its document's URL as published, so `https://Agent.Example.com.:8443/a` is a client
 * of agent.example.com (docs/integrating.md#connect-an-ai-agent-mcp: every port and spelling), which no portable LIKE on the
 * id recognises.
 */
async function clientsOfHost(ctx: ServiceContext, owner: string, host: string) {
  const clients = await ctx.stores.clients.list({ ownerId: owner });
  return clients.filter((c) => /^https?:\/\//.test(c.id) && documentHost(c.id) === host);
}

/**
 * Records the decision and applies it to the host's clients, in one transaction. Trusting
 * approves the clients that wait for review; a client an admin rejected stays rejected
 * (docs/rules.md#client-states: only a resubmission reopens it). Distrusting rejects the waiting ones and
 * suspends the approved ones.
 */
export async function decideHost(ctx: ServiceContext, value: string, decision: MetadataHostDecision['decision'], actorId: string | null): Promise<{ host: string; changedClients: string[] }> {
  const host = checkHost(value);
  // Outside the transaction: it may create the built-in owner account on first use.
  const owner = await registrationOwner(ctx);
  return ctx.stores.transaction(async (tx) => {
    const inTx: ServiceContext = { ...ctx, stores: tx };
    await tx.metadataHosts.decide({ host, decision, decidedBy: actorId, decidedAt: ctx.clock() });
    const changed: string[] = [];
    for (const c of await clientsOfHost(inTx, owner, host)) {
      const step = decision === 'trusted' ? (c.state === 'pending' ? 'approve' : null) : c.state === 'pending' ? 'reject' : c.state === 'approved' ? 'suspend' : null;
      if (step === null) continue;
      await reviewClient(inTx, c.id, step, actorId, decision === 'distrusted' ? `a platform admin distrusted ${host}` : undefined);
      changed.push(c.id);
    }
    return { host, changedClients: changed };
  });
}

export const listHostDecisions = (ctx: ServiceContext) => ctx.stores.metadataHosts.list();
