// Enterprise-managed authorization (docs/integrating.md#enterprise-managed-agents): an
// organization's identity provider issues an Identity Assertion JWT Authorization Grant
// (ID-JAG, draft-ietf-oauth-identity-assertion-authz-grant) for one of its people to one
// client, and the client trades it here for an access token under the JWT bearer grant
// (RFC 7523 §2.1). This module owns the port the grant needs (the trusts an issuer has, their
// keys, the links of subjects to accounts) and checks one ID-JAG as the draft's §3 and RFC 7523
// §3 list the checks. Every JOSE operation is jose's.
import { createHash } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { isAcceptableJti, MAX_JTI_LENGTH } from './jti.ts';
import type { GrantRecord, OAuthStore } from './storage.ts';

/** RFC 7523 §2.1: the grant_type of a JWT used as an authorization grant. */
export const JWT_BEARER_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** The draft's §3: the ID-JAG's JOSE header typ (media type without `application/`, RFC 7515 §4.1.9). */
export const ID_JAG_TYP = 'oauth-id-jag+jwt';

/** The MCP Enterprise-Managed Authorization extension's profile name, announced in the metadata. */
export const ID_JAG_GRANT_PROFILE = 'urn:ietf:params:oauth:grant-profile:id-jag';

/** Asymmetric algorithms only: never `none`, never an HMAC whose key would be public. */
export const ID_JAG_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'] as const;

/** RFC 7519 §4.1.4, §4.1.6: how far iat and exp may stray from our clock. */
export const ID_JAG_SKEW_SECONDS = 30;

/** An ID-JAG is for one exchange: its exp may be at most this long after its iat. */
export const MAX_ID_JAG_LIFETIME_SECONDS = 300;

/** An identity provider one organization trusts (`gatehouse orgs idp add`). */
export interface TrustedIdentityProvider {
  id: string;
  organizationId: string;
  /** Compared as written with the ID-JAG's iss (RFC 8414 §2). */
  issuer: string;
  jwksUri: string;
  /** The lower-case e-mail domains it speaks for. */
  domains: string[];
  /** The scopes it may grant, registry order; null: whatever the client and the request allow. */
  scopes: string[] | null;
}

/**
 * Storage contract of the grant (src/storage/stores/identity-assertions.ts implements it),
 * checked on SQLite and PostgreSQL by test/storage/identity-assertion-store.test.ts.
 */
export interface IdentityAssertionStore {
  /** The trusts of every organization in this issuer, oldest first; empty when none. */
  findTrusts(issuer: string): Promise<TrustedIdentityProvider[]>;
  /** The account linked to the issuer's subject; undefined when none is. */
  findLinkedUser(issuer: string, subject: string): Promise<string | undefined>;
  /**
   * The members of the organization whose verified e-mail is `email` (lower case): an e-mail
   * the user proved with a code (a verified e-mail resource), or the sign-in address of an
   * account the organization itself made. docs/integrating.md#enterprise-managed-agents.
   */
  findMembersByVerifiedEmail(organizationId: string, email: string): Promise<string[]>;
  /** Whether the user is a member of the organization, in any role. */
  isMember(organizationId: string, userId: string): Promise<boolean>;
  /**
   * Links the subject to the user unless it is linked already (a concurrent first use); returns
   * the user it is linked to now.
   */
  linkSubject(issuer: string, subject: string, userId: string, at: number): Promise<string>;
  /**
   * Within a transaction: true when the trust still exists, and then holds it so that its
   * removal waits for the transaction and revokes what it wrote. False when it was removed.
   */
  holdTrust(id: string): Promise<boolean>;
  /** The newest active grant this trust made for the user and client with exactly these scopes; undefined when none. */
  findTrustGrant(identityProviderId: string, userId: string, clientId: string, scopes: readonly string[]): Promise<GrantRecord | undefined>;
  /** Stores the grant as made by the trust; a duplicate id is a unique violation. */
  createTrustGrant(grant: GrantRecord, identityProviderId: string): Promise<void>;
  /** The core's store on the same database or transaction. */
  oauth: OAuthStore;
  /** As OAuthStore.transaction: one transaction, joining the caller's. */
  transaction<T>(fn: (tx: IdentityAssertionStore) => Promise<T>): Promise<T>;
}

/** Thrown by a key getter when the identity provider's keys could not be had (fetch failed, not a JWK Set). */
export class IdentityProviderKeysUnavailable extends Error {}

/** The port on OAuthContext: absent, the JWT bearer grant is refused as not enabled. */
export interface IdentityAssertions {
  store: IdentityAssertionStore;
  /**
   * The keys of one trust, for jose: fetched from its jwks_uri through the outbound guard,
   * cached, fetched again for an unknown kid, and never another issuer's.
   */
  keys(trust: TrustedIdentityProvider): JWTVerifyGetKey;
}

/** What a checked ID-JAG says, and the trusts whose keys verified it. */
export interface CheckedIdJag {
  ok: true;
  issuer: string;
  subject: string;
  jti: string;
  /** The `email` claim, lower case; undefined when absent or not a string. */
  email: string | undefined;
  /** The `scope` claim's names; undefined when absent. */
  scopes: string[] | undefined;
  /** The `resource` claim's values; empty when absent. */
  resources: string[];
  trusts: TrustedIdentityProvider[];
  replayKey: string;
  /** Until when the ID-JAG could be accepted, so how long its jti must be kept. */
  acceptableUntil: number;
}

export type IdJagFailure = { ok: false; description: string; unavailable?: boolean };

const fail = (description: string, unavailable = false): IdJagFailure => ({ ok: false, description, ...(unavailable ? { unavailable } : {}) });

export interface IdJagExpectation {
  /** RFC 7523 §3 point 3: Gatehouse's issuer identifier is the audience. */
  issuer: string;
  /** The draft's §3: the client the ID-JAG was issued to must be the authenticated one. */
  clientId: string;
}

/**
 * Checks an ID-JAG: a JWT (§3) of typ oauth-id-jag+jwt, whose iss is an issuer some
 * organization trusts, signed with one of that trust's keys under an allowed algorithm (RFC
 * 7523 §3 point 9), aud Gatehouse's issuer (point 3), client_id the authenticated client, a
 * sub (point 2), iat and exp present and within MAX_ID_JAG_LIFETIME_SECONDS of each other
 * (points 4, 6) and a jti (point 7). The replay check is the caller's, with replayKey.
 */
export async function checkIdJag(assertion: string, expected: IdJagExpectation, assertions: IdentityAssertions, now: number): Promise<CheckedIdJag | IdJagFailure> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  let unverified: JWTPayload;
  try {
    header = decodeProtectedHeader(assertion);
    unverified = decodeJwt(assertion);
  } catch {
    return fail('assertion must be an ID-JAG: a signed JWT (RFC 7523 §3)');
  }
  const typ = typeof header.typ === 'string' ? header.typ.toLowerCase().replace(/^application\//, '') : undefined;
  if (typ !== ID_JAG_TYP) return fail(`the assertion's typ must be "${ID_JAG_TYP}" (an ID-JAG), not ${typ === undefined ? 'absent' : `"${header.typ}"`}`);
  const algorithms: readonly string[] = ID_JAG_ALGORITHMS;
  if (typeof header.alg !== 'string' || !algorithms.includes(header.alg)) {
    return fail(`the ID-JAG's alg must be one of ${ID_JAG_ALGORITHMS.join(', ')} (never none or a shared secret)`);
  }
  const issuer = unverified.iss;
  if (typeof issuer !== 'string' || issuer === '') return fail('the ID-JAG must carry iss, its identity provider\'s issuer identifier');
  const candidates = await assertions.store.findTrusts(issuer);
  if (candidates.length === 0) return fail(`the ID-JAG's issuer ${issuer} is not an identity provider any organization here trusts: its organization's owner registers it first`);

  // Each trust of this issuer verifies with its own keys only; the trusts that verify are the
  // ones the user may be found through.
  let payload: JWTPayload | undefined;
  const trusts: TrustedIdentityProvider[] = [];
  let firstError: IdJagFailure | undefined;
  for (const trust of candidates) {
    try {
      ({ payload } = await jwtVerify(assertion, assertions.keys(trust), {
        algorithms: [...ID_JAG_ALGORITHMS],
        issuer,
        currentDate: new Date(now),
        clockTolerance: ID_JAG_SKEW_SECONDS,
        requiredClaims: ['exp', 'iat', 'jti', 'sub', 'aud'],
      }));
      trusts.push(trust);
    } catch (error) {
      firstError ??= error instanceof IdentityProviderKeysUnavailable ? fail(`the identity provider's keys could not be had: ${error.message}`, true) : fail(`the ID-JAG is not valid: ${describeJoseError(error)}`);
    }
  }
  if (payload === undefined) return firstError!;

  const aud = payload.aud;
  const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
  if (audiences.length !== 1 || audiences[0] !== expected.issuer) return fail(`the ID-JAG's aud must be this authorization server's issuer identifier ${expected.issuer} alone`);
  if (payload.client_id !== expected.clientId) return fail('the ID-JAG was issued to another client: its client_id must be the client_id that authenticated this request');
  const iat = payload.iat!;
  const exp = payload.exp!;
  if (iat * 1000 > now + ID_JAG_SKEW_SECONDS * 1000) return fail('the ID-JAG\'s iat is in the future: check the identity provider\'s clock');
  if (exp - iat > MAX_ID_JAG_LIFETIME_SECONDS) return fail(`the ID-JAG's exp is more than ${MAX_ID_JAG_LIFETIME_SECONDS} seconds after its iat: ask the identity provider for a short-lived one`);
  const { jti, sub } = payload;
  if (!isAcceptableJti(jti)) return fail(`the ID-JAG must carry a jti, a unique string of 1 to ${MAX_JTI_LENGTH} characters`);
  if (typeof sub !== 'string' || sub === '') return fail('the ID-JAG must carry sub, the user\'s subject at its identity provider');
  const resource = payload.resource;
  const resources = typeof resource === 'string' ? [resource] : Array.isArray(resource) && resource.every((r) => typeof r === 'string') ? (resource as string[]) : resource === undefined ? [] : undefined;
  if (resources === undefined) return fail('the ID-JAG\'s resource must be a URI or a list of URIs');
  const scope = payload.scope;
  if (scope !== undefined && typeof scope !== 'string') return fail('the ID-JAG\'s scope must be a string of space-separated scopes');
  // The e-mail is only a way to find a member the first time (docs/integrating.md#enterprise-managed-agents);
  // an IdP that says it is unverified is not heard on it.
  const email = typeof payload.email === 'string' && payload.email_verified !== false ? payload.email.trim().toLowerCase() : undefined;
  return {
    ok: true,
    issuer,
    subject: sub,
    jti,
    email,
    scopes: scope === undefined ? undefined : scope.split(' ').filter((s) => s !== ''),
    resources,
    trusts,
    // Per issuer: two identity providers may choose the same jti.
    replayKey: createHash('sha256').update(`id-jag\n${issuer}\n${jti}`).digest('base64url'),
    acceptableUntil: (exp + ID_JAG_SKEW_SECONDS) * 1000,
  };
}

/** jose's error codes in words that say what to fix; nothing of the assertion or the keys is echoed. */
function describeJoseError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return `it must be signed with one of ${ID_JAG_ALGORITHMS.join(', ')}`;
    case 'ERR_JWKS_NO_MATCHING_KEY':
      return 'none of its identity provider\'s keys (its jwks_uri) matches its alg and kid';
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return 'its signature does not verify with its identity provider\'s keys';
    case 'ERR_JWT_EXPIRED':
      return 'it has expired: ask the identity provider for a new one';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED': {
      const claim = String((error as { claim?: unknown }).claim);
      if (claim === 'exp' || claim === 'iat') return `it must carry ${claim}`;
      if (claim === 'nbf') return 'its nbf is in the future: check the identity provider\'s clock';
      return `it must carry an acceptable ${claim}`;
    }
    default:
      return 'it must be a signed JWT (RFC 7523 §3)';
  }
}
