// docs/rules.md#retention: deletes what has ended, in small batches, each its own short statement,
// so that a large backlog never holds a lock or the event loop for long.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ServiceContext } from '../context.ts';
import { REGISTRATION_OWNER_EMAIL } from '../clients/dynamic-registration.ts';
import { cutoffs, successorCutoff, unusedOpenRegistrationCutoff, type RetentionPolicy } from './policy.ts';

/** Rows per statement: small enough that a batch takes milliseconds. */
export const PRUNE_BATCH_SIZE = 500;

export interface PruneCounts {
  authorizationCodes: number;
  accessTokens: number;
  refreshTokens: number;
  /** docs/rules.md#pushed-authorization: request_uri references past their expiry. */
  pushedAuthorizationRequests: number;
  sessions: number;
  authorizationRequests: number;
  auditEvents: number;
  /** DPoP proofs past the time they could be accepted (docs/rules.md#dpop). */
  dpopProofs: number;
  /** Expired team invite links and lapsed sign-in address changes. */
  inviteLinks: number;
  /** Ended team memberships older than any live invite link (docs/rules.md#invite-links). */
  teamDepartures: number;
  emailChangeRequests: number;
  /** Connect-page requests past their ten minutes, used or not. */
  connectionRequests: number;
  /** Slot holds past their few minutes (docs/integrating.md#slot-reservations). */
  slotReservations: number;
  /** Clients registered under DCR_POLICY=open a day ago or more with which no authorization was completed. */
  unusedOpenRegistrations: number;
  /** Successor pairs of spent refresh tokens forgotten after the replay window. */
  successorsForgotten: number;
}

export interface PruneOptions {
  batchSize?: number;
  /** Stop a kind after this many batches (an instance leaves the rest for its next run). */
  maxBatches?: number;
}

/** Repeats a batch until one comes back short; yields to other work between batches. */
async function drain(batch: (limit: number) => Promise<number>, options: PruneOptions): Promise<number> {
  const size = options.batchSize ?? PRUNE_BATCH_SIZE;
  const maxBatches = options.maxBatches ?? Number.POSITIVE_INFINITY;
  let total = 0;
  for (let n = 0; n < maxBatches; n++) {
    const deleted = await batch(size);
    total += deleted;
    if (deleted < size) break;
    await nextTurn();
  }
  return total;
}

export async function pruneEnded(ctx: ServiceContext, policy: RetentionPolicy, options: PruneOptions = {}): Promise<PruneCounts> {
  const store = ctx.stores.retention;
  const now = ctx.clock();
  const before = cutoffs(policy, now);
  const rows = (kind: keyof typeof before) => drain((limit) => store.deleteBatch(kind, before[kind], limit), options);
  return {
    authorizationCodes: await rows('authorizationCodes'),
    accessTokens: await rows('accessTokens'),
    refreshTokens: (await rows('revokedRefreshTokens')) + (await rows('expiredRefreshTokens')),
    pushedAuthorizationRequests: await rows('pushedAuthorizationRequests'),
    sessions: await rows('sessions'),
    authorizationRequests: await rows('authorizationRequests'),
    auditEvents: await rows('auditEvents'),
    dpopProofs: await rows('dpopProofs'),
    inviteLinks: await rows('inviteLinks'),
    teamDepartures: await rows('teamDepartures'),
    emailChangeRequests: await rows('emailChangeRequests'),
    connectionRequests: await rows('connectionRequests'),
    slotReservations: await rows('slotReservations'),
    unusedOpenRegistrations: await drain((limit) => store.deleteUnusedOpenRegistrationsBatch(REGISTRATION_OWNER_EMAIL, unusedOpenRegistrationCutoff(now), limit), options),
    successorsForgotten: await drain((limit) => store.forgetSuccessorsBatch(successorCutoff(policy, now), limit), options),
  };
}

export function totalPruned(counts: PruneCounts): number {
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}
