// Access-token validation for resource servers (RFC 6750 §2.1, §3.1; docs/rules.md#api-envelope).
import { documentClientRefusal } from './client-metadata.ts';
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
}

/** The resource a request was sent to (RFC 8707, docs/rules.md#resource-indicators): tokens bound elsewhere fail. */
export interface Audience {
  resources: ProtectedResources;
  /** The resource's identifier, one of resources.known. */
  resource: string;
  /** docs/integrating.md#connect-an-ai-agent-mcp: whether URL clients are served (CIMD_POLICY is not off). */
  documentsServed: boolean;
}

export type BearerResult =
  | { ok: true; principal: AccessPrincipal }
  /** `missing`: no credentials at all, so no error code (RFC 6750 §3.1). */
  | { ok: false; reason: 'missing' | 'invalid_token'; description: string };

const BEARER = /^Bearer +([^ ]+) *$/i;

/** Reads the Authorization header; pure, so a malformed token never reaches storage. */
export function parseBearer(authorization: string | undefined): { ok: true; token: string } | Extract<BearerResult, { ok: false }> {
  if (authorization === undefined || authorization === '') {
    return { ok: false, reason: 'missing', description: 'an access token is required: send Authorization: Bearer <token>' };
  }
  const match = BEARER.exec(authorization);
  if (match === null) {
    return { ok: false, reason: 'invalid_token', description: 'the Authorization header must be "Bearer <access token>"' };
  }
  const token = match[1]!;
  // docs/rules.md#token-formats: a malformed token is rejected before any storage read.
  if (!isWellFormed('accessToken', token)) {
    return { ok: false, reason: 'invalid_token', description: 'the access token is malformed' };
  }
  return { ok: true, token };
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
    },
  };
}
