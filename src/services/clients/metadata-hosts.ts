// An admin's trust decisions about client metadata document hosts (SPEC §10.3): trusting a
// host approves its pending clients (and any it publishes later); distrusting one refuses
// its clients from then on, suspending the approved ones so their tokens stop at once.
import type { ServiceContext } from '../context.ts';
import { validation } from '../errors.ts';
import { registrationOwner } from './dynamic-registration.ts';
import { documentHost } from './metadata-documents.ts';
import { reviewClient } from './review.ts';
import type { MetadataHostDecision } from './store.ts';

/** A host as decisions name it: lower case, an optional port, nothing else. */
export function checkHost(value: string): string {
  const host = value.trim().toLowerCase();
  let parsed: URL;
  try {
    parsed = new URL(`https://${host}/`);
  } catch {
    throw validation(`"${value}" is not a host name: give it as agent.example.com`, 'host');
  }
  if (parsed.host !== host) throw validation(`"${value}" is not a host name: give it as agent.example.com, without a scheme or path`, 'host');
  // The URL parser takes "-" or a 300-character name; DNS does not (RFC 1035 §2.3.4).
  const name = parsed.hostname;
  const isAddress = name.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(name);
  if (!isAddress && (name.length > 253 || !name.split('.').every((label) => /^(?!-)[a-z0-9-]{1,63}(?<!-)$/.test(label)))) {
    throw validation(`"${value.slice(0, 100)}" is not a host name: give it as agent.example.com (labels of letters, digits and inner hyphens, at most 253 characters)`, 'host');
  }
  return host;
}

/**
 * The host is compared as documentHost parses it, not matched as a prefix in SQL: a client
 * id is its document's URL as published, so `https://Agent.Example.com:443/a` is a client of
 * agent.example.com, which no portable LIKE on the id recognises.
 */
async function clientsOfHost(ctx: ServiceContext, owner: string, host: string) {
  const clients = await ctx.stores.clients.list({ ownerId: owner });
  return clients.filter((c) => /^https?:\/\//.test(c.id) && documentHost(c.id) === host);
}

/**
 * Records the decision and applies it to the host's clients, in one transaction. Trusting
 * approves the clients that wait for review; a client an admin rejected stays rejected (SPEC
 * §2 item 1: only a resubmission reopens it). Distrusting rejects the waiting ones and
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
