// SPEC §2 item 24: how long each kind of row is kept after it has ended.
import type { PrunableRows } from './store.ts';

/** SPEC §2 item 24: authorization requests older than this are deleted. */
export const AUTHORIZATION_REQUEST_RETENTION_DAYS = 30;

export interface RetentionPolicy {
  /**
   * SPEC §2 item 9's replay window, in seconds. Codes and tokens are kept this long past
   * their end, so that a late replay is still recognised as one (and answered as one)
   * rather than as an unknown credential.
   */
  replayWindowSeconds: number;
  /** SPEC §4 AUDIT_RETENTION_DAYS. */
  auditRetentionDays: number;
}

const DAY = 24 * 3600 * 1000;

/** For each kind of row, the time before which it may go. */
export function cutoffs(policy: RetentionPolicy, now: number): Record<PrunableRows, number> {
  const pastReplay = now - policy.replayWindowSeconds * 1000;
  return {
    authorizationCodes: pastReplay,
    accessTokens: pastReplay,
    expiredRefreshTokens: pastReplay,
    revokedRefreshTokens: pastReplay,
    sessions: now,
    authorizationRequests: now - AUTHORIZATION_REQUEST_RETENTION_DAYS * DAY,
    auditEvents: now - policy.auditRetentionDays * DAY,
  };
}

/** SPEC §2 item 9: a spent token's successor pair is kept for the window only. */
export function successorCutoff(policy: RetentionPolicy, now: number): number {
  return now - policy.replayWindowSeconds * 1000;
}
