// The consent page as the core decides it (docs/rules.md#consent): the request, the user,
// and what the page tells of the application beyond its record, read through the core's
// port (storage.ts: findClientProvenance), so the page renders and decides nothing.
import { isDocumentClientId } from '../client-metadata.ts';
import type { OAuthContext } from '../context.ts';
import type { ClientRecord } from '../storage.ts';
import { isSelfRegistered } from './error-answers.ts';
import type { AuthorizationRequest } from './request.ts';

/** The consent page, for this user and this request. */
export interface ShowConsent {
  kind: 'consent';
  request: AuthorizationRequest;
  userId: string;
  /** The name of the account that registered the application; undefined when the client was deleted meanwhile. */
  developer: string | undefined;
  /**
   * Whether an admin, or a host an admin trusts, let the application in; false for one that
   * registered itself under an open policy: the page must then call it unverified.
   */
  reviewed: boolean;
}

/** The last step of a request nothing else answered: ask the user (decision.ts). */
export async function askConsent(ctx: OAuthContext, request: AuthorizationRequest, userId: string): Promise<ShowConsent> {
  // The client's record as validation read it (reading it again could only disagree with
  // what was checked); only what the record does not hold is read.
  const provenance = await ctx.store.findClientProvenance(request.client.id);
  const reviewed = await wasReviewed(ctx, request.client, provenance?.reviewedAt ?? null);
  return { kind: 'consent', request, userId, developer: provenance?.developerName, reviewed };
}

/**
 * docs/integrating.md#connect-an-ai-agent-mcp: an application that registered itself and was
 * let in by an open policy was reviewed by nobody, and the page must not say otherwise. A
 * document client is unverified unless an admin approved it or trusts its host
 * (docs/rules.md#cimd-policy: its record then names no unverified host); a registered one
 * unless an admin decided on it.
 */
async function wasReviewed(ctx: OAuthContext, client: ClientRecord, reviewedAt: number | null): Promise<boolean> {
  if (!(await isSelfRegistered(ctx, client))) return true;
  return isDocumentClientId(client.id) ? client.unverifiedHost === undefined : reviewedAt !== null;
}
