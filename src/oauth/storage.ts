// Storage contracts of the protocol core. The core owns these interfaces; src/storage
// implements them on Kysely. Times are milliseconds since the epoch. A `scopes` of null
// marks a legacy grant (SPEC §2 item 14); a scope list is written in registry order and
// storage gives it back in the order it was written.

export type ClientKind = 'confidential' | 'public';
export type ClientState = 'pending' | 'approved' | 'rejected' | 'suspended';

export interface ClientRecord {
  id: string;
  name: string;
  homepageUrl: string;
  kind: ClientKind;
  state: ClientState;
  redirectUris: string[];
  /** Enabled scopes; null for a legacy client. */
  scopes: string[] | null;
  /** An admin flag: may introspect any client's tokens (SPEC §6). */
  resourceServer: boolean;
}

export interface SecretRecord {
  id: string;
  clientId: string;
  hash: string;
  lastUsedAt: number | null;
}

export interface GrantRecord {
  id: string;
  userId: string;
  clientId: string;
  scopes: string[] | null;
  createdAt: number;
  revokedAt: number | null;
}

export interface CodeRecord {
  hash: string;
  clientId: string;
  userId: string;
  grantId: string;
  redirectUri: string;
  scopes: string[] | null;
  codeChallenge: string | null;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
}

export interface AccessTokenRecord {
  hash: string;
  grantId: string;
  /**
   * The authorization code the token descends from (through its refresh chain too), so a
   * replayed code revokes exactly its tokens when codes share a grant (SPEC §2 items 8, 25).
   * Null only for tokens issued before codes were recorded on tokens.
   */
  codeHash: string | null;
  clientId: string;
  userId: string;
  scopes: string[] | null;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

/** An access token as a resource server sees it: with its client's current state. */
export interface AccessTokenWithClient extends AccessTokenRecord {
  clientState: ClientState;
}

export interface RefreshTokenRecord {
  id: string;
  hash: string;
  grantId: string;
  /** As AccessTokenRecord.codeHash: a rotation keeps its parent's code. */
  codeHash: string | null;
  clientId: string;
  userId: string;
  scopes: string[] | null;
  parentId: string | null;
  createdAt: number;
  /** Idle expiry: a chain not used for REFRESH_TOKEN_IDLE_TTL_SECONDS ends. */
  expiresAt: number;
  spentAt: number | null;
  /** The successor pair, encrypted under a key derived from this token (SPEC §2 item 9). */
  successorBox: string | null;
  revokedAt: number | null;
}

/**
 * The audit events the protocol core writes. The application's other events (client
 * lifecycle, secrets, logins) are named in src/services/audit-events.ts.
 */
export type OAuthAuditEventType =
  | 'grant.created'
  | 'grant.revoked'
  | 'token.issued'
  | 'token.refreshed'
  | 'token.revoked'
  | 'code.replayed'
  | 'refresh_token.reused';

export interface AuditEvent {
  type: OAuthAuditEventType;
  actorId?: string | null;
  clientId?: string | null;
  userId?: string | null;
  /** Non-secret details (ids, reasons, counts). */
  data?: Record<string, unknown>;
}

export interface ClientStore {
  findClient(id: string): Promise<ClientRecord | undefined>;
  listActiveSecrets(clientId: string): Promise<SecretRecord[]>;
  markSecretUsed(secretId: string, at: number): Promise<void>;
}

export interface GrantStore {
  createGrant(grant: GrantRecord): Promise<void>;
  findGrant(id: string): Promise<GrantRecord | undefined>;
  /**
   * Active (not revoked) grants of one user for one client, newest first: one indexed
   * range read of at most the grant limit's rows (SPEC §2 item 24).
   */
  listActiveGrants(userId: string, clientId: string): Promise<GrantRecord[]>;
  /**
   * Within a transaction: serializes grant creation for one user until it ends, so that
   * concurrent authorizations cannot overshoot the grant limit (SPEC §2 item 24).
   */
  lockUserGrants(userId: string): Promise<void>;
  /**
   * Within a transaction: true when the grant is still active, and then holds it so a
   * concurrent revocation waits for the transaction and closes what it wrote.
   */
  holdActiveGrant(grantId: string): Promise<boolean>;
  /** Revokes the grant and every code, access and refresh token issued under it. */
  revokeGrant(grantId: string, at: number): Promise<void>;
  /** Revokes the access and refresh tokens that descend from one code of the grant. */
  revokeCodeTokens(grantId: string, codeHash: string, at: number): Promise<void>;
}

export interface CodeStore {
  createCode(code: CodeRecord): Promise<void>;
  /**
   * Marks the code consumed if, and only if, it was not consumed yet — atomically, so that
   * of concurrent redemptions exactly one gets the record (STYLE practice 6).
   * Returns undefined when no such code exists or it was already consumed.
   */
  consumeCode(hash: string, at: number): Promise<CodeRecord | undefined>;
  findCode(hash: string): Promise<CodeRecord | undefined>;
}

export interface TokenStore {
  createAccessToken(token: AccessTokenRecord): Promise<void>;
  findAccessToken(hash: string): Promise<AccessTokenWithClient | undefined>;
  revokeAccessToken(hash: string, at: number): Promise<void>;
  createRefreshToken(token: RefreshTokenRecord): Promise<void>;
  findRefreshToken(hash: string): Promise<RefreshTokenRecord | undefined>;
  /**
   * Spends the token if it is unspent, storing the encrypted successor in the same write.
   * Atomic: of concurrent spends exactly one returns true; on PostgreSQL the losers wait
   * for the winner's transaction and then see its successor.
   */
  spendRefreshToken(id: string, at: number, successorBox: string): Promise<boolean>;
}

export interface AuditStore {
  audit(event: AuditEvent, at: number): Promise<void>;
  recordAuthorizationRequest(clientId: string, userId: string | null, hadScope: boolean, at: number): Promise<void>;
}

export interface OAuthStore extends ClientStore, GrantStore, CodeStore, TokenStore, AuditStore {
  /** Runs fn in one database transaction; the store it receives is bound to it. */
  transaction<T>(fn: (tx: OAuthStore) => Promise<T>): Promise<T>;
}
