// The retention store (docs/rules.md#retention): deletes what has ended, one small batch at a time.

/** Rows that end, each found by one indexed time column (migration 007). */
export type PrunableRows =
  /** Authorization codes by expiry. */
  | 'authorizationCodes'
  /** Access tokens by expiry (a revoked one expires within the access-token lifetime). */
  | 'accessTokens'
  /** Refresh tokens by expiry: the chain went unused for the idle lifetime. */
  | 'expiredRefreshTokens'
  /** Refresh tokens by revocation time. */
  | 'revokedRefreshTokens'
  /** Pushed authorization requests (RFC 9126) by expiry: used or not, a reference is over then. */
  | 'pushedAuthorizationRequests'
  /** Login sessions by expiry. */
  | 'sessions'
  /** Authorization requests (the legacy-migration warning's evidence) by creation time. */
  | 'authorizationRequests'
  /** Audit events by creation time. */
  | 'auditEvents'
  /** DPoP proofs seen (RFC 9449 §11.1), once no instance could accept them again (migration 014). */
  | 'dpopProofs'
  /** Team invite links by expiry (docs/rules.md#invite-links): nobody can join through them after it. */
  | 'inviteLinks'
  /** Ended team memberships by when they ended (docs/rules.md#invite-links), once no link made before is alive. */
  | 'teamDepartures'
  /** Sign-in address changes nobody confirmed before they lapsed (docs/rules.md#profile). */
  | 'emailChangeRequests'
  /** Connect-page requests by expiry, used or not (docs/rules.md#connect-pages). */
  | 'connectionRequests'
  /** Slot holds by expiry (docs/integrating.md#slot-reservations): an expired one holds nothing. */
  | 'slotReservations';

export interface RetentionStore {
  /**
   * Deletes at most `limit` rows of the kind whose time column is before `before`; returns
   * how many it deleted. One short statement, so no lock is held for long. Several
   * instances may call it at once: a row another caller is deleting is skipped, not waited
   * for, and no row is deleted twice.
   */
  deleteBatch(rows: PrunableRows, before: number, limit: number): Promise<number>;
  /**
   * docs/rules.md#refresh-rotation: forgets the kept successor pair of at most `limit` refresh tokens spent
   * before `spentBefore`; returns how many. The spent token itself stays (reuse detection).
   */
  forgetSuccessorsBatch(spentBefore: number, limit: number): Promise<number>;
  /**
   * docs/rules.md#retention: deletes at most `limit` clients registered under DCR_POLICY=open
   * before `registeredBefore` for which no grant was ever made; returns how many. Which
   * clients those are is told in docs/rules.md#retention: owned by `ownerEmail`'s account,
   * approved without anyone reviewing them, public, with no secret, and not named by a URL
   * (a metadata-document client). One statement, with the same concurrency as deleteBatch.
   */
  deleteUnusedOpenRegistrationsBatch(ownerEmail: string, registeredBefore: number, limit: number): Promise<number>;
}
