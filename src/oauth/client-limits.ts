// Rate limits around client authentication (docs/operating.md), as ports the core owns:
// the HTTP layer counts (per client, per caller's address, in memory or Redis) and answers
// with figures; the core decides what is a failure, refuses with RFC 6749 §5.2
// `temporarily_unavailable`, and hands the figures back in its answer for the HTTP layer to
// turn into headers.
import type { ClientCredentials } from './client-auth.ts';
import type { ClientRecord } from './storage.ts';

/** A client's request limit as one request left it: X-RateLimit-Limit, -Remaining and -Reset. */
export interface RequestCount {
  limit: number;
  remaining: number;
  /** Seconds until the window ends and the count starts again. */
  resetSeconds: number;
}

/** Refused by a limit: nothing may be tried for `retryAfter` seconds (Retry-After, RFC 9110 §10.2.3). */
export interface Refused {
  allowed: false;
  retryAfter: number;
}

/** A secret check the limit lets through. Its outcome is told with `settle`, once: a failure is counted. */
export interface SecretCheck {
  allowed: true;
  settle(failed: boolean): Promise<void>;
}

/**
 * Failed client authentications per client (as authentication read it) and caller. A check
 * is reserved before the secret is compared, so a burst of guesses gets no more checks than
 * the limit; past it every check is refused, the right secret's too.
 */
export interface FailedAuthenticationLimit {
  reserve(credentials: ClientCredentials): Promise<SecretCheck | Refused>;
}

/**
 * Requests of a client that authenticated, at the token endpoint: counted only once the
 * client has proven who it is, so nobody else can spend its limit. `count` is null when the
 * limit is off or its counters could not be reached.
 */
export interface ClientRequestLimit {
  count(client: ClientRecord): Promise<{ allowed: true; count: RequestCount | null } | (Refused & { limit: number })>;
}

/** No limit on failed authentications: every check goes ahead, and none is counted. */
export const unlimitedAuthentications: FailedAuthenticationLimit = {
  reserve: async () => ({ allowed: true, settle: async () => undefined }),
};

/** No limit on a client's requests: counted nowhere, no figures to tell. */
export const unlimitedRequests: ClientRequestLimit = {
  count: async () => ({ allowed: true, count: null }),
};
