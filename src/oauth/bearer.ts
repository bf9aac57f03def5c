// Access-token validation for resource servers (RFC 6750 §2.1, §3.1; docs/rules.md#api-envelope),
// and the sender constraint of DPoP-bound tokens (RFC 9449 §7; docs/rules.md#dpop).
import { documentClientRefusal } from './client-metadata.ts';
import { checkProof, singleProofHeader, spendProof, type DpopNonces, type DpopProofStore } from './dpop.ts';
import { isBoundTo, resourcesOf, type ProtectedResources } from './resources.ts';
import type { AccessTokenWithClient } from './storage.ts';
import { isWellFormed } from './token-format.ts';

export interface AccessPrincipal {
  userId: string;
  clientId: string;
  grantId: string;
  /** null for a legacy grant: exempt from scope checks (docs/rules.md#scope-checks). */
  scopes: string[] | null;
  expiresAt: number;
  /** docs/rules.md#team-authorization: the team the token acts for; absent when it acts for its user. */
  teamId?: string;
  /**
   * docs/rules.md#enterprise-managed-reach: the organization whose identity provider granted the
   * token, the only organization it reaches; absent when the user's own consent granted it.
   */
  organizationId?: string;
}

/** The resource a request was sent to (RFC 8707, docs/rules.md#resource-indicators): tokens bound elsewhere fail. */
export interface Audience {
  resources: ProtectedResources;
  /** The resource's identifier, one of resources.known. */
  resource: string;
  /** docs/integrating.md#connect-an-ai-agent-mcp: whether URL clients are served (CIMD_POLICY is not off). */
  documentsServed: boolean;
  /** RFC 9449 §7: where proofs are spent once, and the nonces a proof may carry. Absent: no proof is accepted. */
  dpop?: { proofs: DpopProofStore; nonces: DpopNonces };
}

/** RFC 6750 §2.1 or RFC 9449 §7.1: how the token was presented. */
export type TokenScheme = 'Bearer' | 'DPoP';

export type BearerResult =
  | { ok: true; principal: AccessPrincipal }
  /** `missing`: no credentials at all, so no error code (RFC 6750 §3.1). */
  | { ok: false; reason: 'missing' | 'invalid_token'; description: string };

const BEARER = /^(Bearer|DPoP) +([^ ]+) *$/i;

/** Reads the Authorization header; pure, so a malformed token never reaches storage. */
export function parseBearer(authorization: string | undefined): { ok: true; token: string; scheme: TokenScheme } | Extract<BearerResult, { ok: false }> {
  if (authorization === undefined || authorization === '') {
    return { ok: false, reason: 'missing', description: 'an access token is required: send Authorization: Bearer <token>' };
  }
  const match = BEARER.exec(authorization);
  if (match === null) {
    return { ok: false, reason: 'invalid_token', description: 'the Authorization header must be "Bearer <access token>" (or "DPoP <access token>" for a DPoP-bound token)' };
  }
  const scheme: TokenScheme = match[1]!.toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer';
  const token = match[2]!;
  // docs/rules.md#token-formats: a malformed token is rejected before any storage read.
  if (!isWellFormed('accessToken', token)) {
    return { ok: false, reason: 'invalid_token', description: 'the access token is malformed' };
  }
  return { ok: true, token, scheme };
}

/** The request a DPoP proof must describe (RFC 9449 §4.3 points 8, 9), and the proof it carried. */
export interface PresentedProof {
  /** The DPoP header(s) as HTTP read them. */
  header: string | string[] | undefined;
  method: string;
  /** Our base URL and the request's path, without the query. */
  url: string;
}

/** Why a token's presentation is refused (RFC 9449 §7.1): the DPoP challenge's error, and a nonce to use. */
export interface SenderRefusal {
  error: 'invalid_token' | 'invalid_dpop_proof' | 'use_dpop_nonce';
  description: string;
  nonce?: string;
}

/**
 * RFC 9449 §7.1, §7.2: a DPoP-bound token is accepted only under the DPoP scheme, with a
 * proof of its key that hashes it in `ath`, for this very request, used once (spent here:
 * call it once per request); a bearer token only as Bearer, as it always was. A nonce the
 * proof carries must be fresh; none is required (§9 leaves it to the resource server).
 */
export async function checkSender(
  audience: Pick<Audience, 'dpop'>,
  now: number,
  presented: { scheme: TokenScheme; token: string },
  boundTo: string | null | undefined,
  proof: PresentedProof,
): Promise<SenderRefusal | undefined> {
  if (presented.scheme === 'Bearer') {
    if (boundTo == null) return undefined;
    return { error: 'invalid_token', description: 'the access token is bound to a DPoP key: send it as "Authorization: DPoP <token>" with a DPoP proof' };
  }
  if (boundTo == null) return { error: 'invalid_token', description: 'the access token is not DPoP-bound: send it as "Authorization: Bearer <token>"' };
  const header = singleProofHeader(proof.header);
  if (header === undefined) return { error: 'invalid_dpop_proof', description: 'a DPoP-bound token needs a DPoP proof: add the DPoP header' };
  if (typeof header !== 'string') return { error: header.error, description: header.description };
  if (audience.dpop === undefined) return { error: 'invalid_dpop_proof', description: 'this resource accepts no DPoP proof' };
  const { nonces, proofs } = audience.dpop;
  const checked = await checkProof(header, { method: proof.method, url: proof.url, accessToken: presented.token, nonceRequired: false }, now, nonces);
  if (!checked.ok) return { error: checked.error, description: checked.description, ...(checked.error === 'use_dpop_nonce' ? { nonce: nonces.issue(now) } : {}) };
  if (checked.jkt !== boundTo) return { error: 'invalid_dpop_proof', description: 'the DPoP proof is not signed with the key the access token is bound to' };
  const replayed = await spendProof(proofs, checked);
  return replayed && { error: replayed.error, description: replayed.description };
}

/** Judges a stored token: unknown, revoked, expired, or its client no longer approved. */
export function checkAccessRecord(clock: () => number, record: AccessTokenWithClient | undefined, audience: Audience): BearerResult {
  if (record === undefined) return { ok: false, reason: 'invalid_token', description: 'the access token is not valid' };
  if (record.revokedAt !== null) return { ok: false, reason: 'invalid_token', description: 'the access token has been revoked' };
  if (record.expiresAt <= clock()) {
    return { ok: false, reason: 'invalid_token', description: 'the access token has expired: refresh it' };
  }
  // docs/rules.md#client-states: a suspended client's tokens stop working at once.
  if (record.clientState !== 'approved') {
    return { ok: false, reason: 'invalid_token', description: `the application is ${record.clientState}` };
  }
  // docs/rules.md#enterprise-managed-reach: without its identity provider, a token would lose the organization that bounds it.
  if (record.organizationId === null) {
    return { ok: false, reason: 'invalid_token', description: 'the identity provider that granted this access token is no longer trusted' };
  }
  const off = documentClientRefusal(audience.documentsServed, record.clientId);
  if (off !== undefined) return { ok: false, reason: 'invalid_token', description: `the access token's application is no longer accepted: ${off}` };
  // docs/rules.md#resource-indicators: a token works only at the resources it was issued for (RFC 8707 §2).
  if (!isBoundTo(audience.resources, record.resources, audience.resource)) {
    const boundTo = resourcesOf(audience.resources, record.resources).join(', ');
    return { ok: false, reason: 'invalid_token', description: `the access token was issued for ${boundTo}, not for ${audience.resource}` };
  }
  return {
    ok: true,
    principal: {
      userId: record.userId,
      clientId: record.clientId,
      grantId: record.grantId,
      scopes: record.scopes,
      expiresAt: record.expiresAt,
      ...(record.teamId === undefined ? {} : { teamId: record.teamId }),
      ...(record.organizationId === undefined ? {} : { organizationId: record.organizationId }),
    },
  };
}
