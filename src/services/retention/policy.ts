// docs/rules.md#retention: how long each kind of row is kept after it has ended.
import { INVITE_LINK_TTL_MS } from '../teams/invite-links.ts';
import type { PrunableRows } from './store.ts';

/** docs/rules.md#retention: authorization requests older than this are deleted. */
export const AUTHORIZATION_REQUEST_RETENTION_DAYS = 30;

export interface RetentionPolicy {
  /**
   * docs/rules.md#refresh-rotation's replay window, in seconds. Codes and tokens are kept this long past
   * their end, so that a late replay is still recognised as one (and answered as one)
   * rather than as an unknown credential.
   */
  replayWindowSeconds: number;
  /** AUDIT_RETENTION_DAYS (docs/rules.md#retention). */
  auditRetentionDays: number;
}

const DAY = 24 * 3600 * 1000;

/**
 * docs/rules.md#retention: a client registered under DCR_POLICY=open with which nobody completed an
 * authorization within this is deleted. An agent registers just before it sends its user to
 * consent; one that has not got there in a day was abandoned, and a hosted platform makes
 * many of them.
 */
export const UNUSED_OPEN_REGISTRATION_MS = DAY;

/** docs/rules.md#retention: open registrations made before this, and never used, may go. */
export function unusedOpenRegistrationCutoff(now: number): number {
  return now - UNUSED_OPEN_REGISTRATION_MS;
}

/** For each kind of row, the time before which it may go. */
export function cutoffs(policy: RetentionPolicy, now: number): Record<PrunableRows, number> {
  const pastReplay = now - policy.replayWindowSeconds * 1000;
  return {
    authorizationCodes: pastReplay,
    accessTokens: pastReplay,
    expiredRefreshTokens: pastReplay,
    revokedRefreshTokens: pastReplay,
    pushedAuthorizationRequests: now,
    sessions: now,
    authorizationRequests: now - AUTHORIZATION_REQUEST_RETENTION_DAYS * DAY,
    auditEvents: now - policy.auditRetentionDays * DAY,
    // A proof's row is kept until its iat leaves the accepted skew: a replay after that is refused for its iat.
    dpopProofs: now,
    inviteLinks: now,
    // A departure bars links made before it, and none of those outlives INVITE_LINK_TTL_MS.
    teamDepartures: now - INVITE_LINK_TTL_MS,
    emailChangeRequests: now,
    connectionRequests: now,
    slotReservations: now,
  };
}

/** docs/rules.md#refresh-rotation: a spent token's successor pair is kept for the window only. */
export function successorCutoff(policy: RetentionPolicy, now: number): number {
  return now - policy.replayWindowSeconds * 1000;
}
