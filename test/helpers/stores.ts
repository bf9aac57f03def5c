// What a test reads back goes through the stores' ports (ARCHITECTURE.md, Tests), as the
// services and the core read it, so that renaming a column breaks only the storage contract
// suite. What no port can show is in ./rows.ts, with the reason.
import type { AuditEntry } from '../../src/services/audit-log.ts';
import type { GrantRecord, OAuthStore } from '../../src/oauth/storage.ts';
import { hashToken } from '../../src/oauth/token-format.ts';
import type { PlatformContext } from '../../src/platform/stores.ts';
import type { DatabaseHandle } from '../../src/storage/database.ts';
import { createServiceContext } from '../../src/storage/stores/index.ts';
import { createOAuthStore } from '../../src/storage/stores/oauth.ts';
import { SESSION_COOKIE } from '../../src/web/session.ts';
import { testPasswordHashing } from './password-hashing.ts';

/** Both wings' stores over one database: a TestServer has them, and so does storesOver(db). */
export interface Stores {
  oauth: OAuthStore;
  services: PlatformContext;
}

/** The protocol core's store, wired as the composition root wires it (app.ts). */
export function coreStore(db: DatabaseHandle['db']): OAuthStore {
  return createOAuthStore(db);
}

/** The stores over a database that no TestServer serves (a `gatehouse serve` child's, say). */
export function storesOver(db: DatabaseHandle['db'], clock: () => number = Date.now): Stores {
  return { oauth: coreStore(db), services: createServiceContext(db, clock, { passwordHashing: testPasswordHashing.PASSWORD_HASHING }) };
}

/**
 * The audit trail as `gatehouse audit` reads it, oldest first, optionally only some types.
 * Every event the filter matches: the reader's limit is set past anything a test writes.
 */
export async function auditEvents(
  on: Stores,
  filter: { clientId?: string; userId?: string; type?: string | readonly string[] } = {},
): Promise<AuditEntry[]> {
  const { type, ...where } = filter;
  const types = type === undefined ? undefined : typeof type === 'string' ? [type] : type;
  const newestFirst = await on.services.stores.auditLog.list({ ...where, limit: 1_000_000 });
  return newestFirst.filter((e) => types === undefined || types.includes(e.type)).reverse();
}

/** The stored record of an access token the test holds; undefined when none is stored. */
export const accessTokenOf = (on: Stores, token: string) => on.oauth.findAccessToken(hashToken(token));
/** The stored record of a refresh token the test holds; undefined when none is stored. */
export const refreshTokenOf = (on: Stores, token: string) => on.oauth.findRefreshToken(hashToken(token));
/** The stored record of an authorization code the test holds; undefined when none is stored. */
export const codeOf = (on: Stores, code: string) => on.oauth.findCode(hashToken(code));

/**
 * Every grant of the user for the client, revoked ones too, oldest first: those the store
 * lists as active, and every one ever created, found by the grant.created event that
 * approveAuthorization writes in the grant's own transaction.
 */
export async function grantsOf(on: Stores, userId: string, clientId: string): Promise<GrantRecord[]> {
  const created = await auditEvents(on, { userId, clientId, type: 'grant.created' });
  const ids = new Set([...(await on.oauth.listActiveGrants(userId, clientId)).map((g) => g.id), ...created.map((e) => String(e.data?.grantId))]);
  const grants = await Promise.all([...ids].map((id) => on.oauth.findGrant(id)));
  return grants.filter((g): g is GrantRecord => g !== undefined).sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
}

/** The session token in a Cookie header (a Browser's cookieHeader()); undefined when there is none. */
export function sessionToken(cookieHeader: string): string | undefined {
  const pair = cookieHeader.split('; ').find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  return pair === undefined ? undefined : decodeURIComponent(pair.slice(SESSION_COOKIE.length + 1));
}

/** The live session that a Cookie header names, found as the pages find it: by its token's hash. */
export async function sessionOf(on: Stores, cookieHeader: string, now: number) {
  const token = sessionToken(cookieHeader);
  return token === undefined ? undefined : on.services.stores.sessions.findLive(hashToken(token), now);
}
