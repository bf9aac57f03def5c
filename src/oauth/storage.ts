// Storage contracts of the protocol core. The core owns these interfaces; src/storage
// implements them on Kysely. Times are milliseconds since the epoch. A `scopes` of null
// marks a legacy grant (docs/rules.md#legacy-clients); a scope list is written in registry order and
// storage gives it back in the order it was written.
import type { JSONWebKeySet } from 'jose';

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
  /** An admin flag: may introspect any client's tokens (docs/rules.md#introspection). */
  resourceServer: boolean;
  /** As its developer described it: the consent page shows it with the name. */
  description: string;
  /** The developer's account: the consent page names them. */
  ownerId: string;
  /**
   * docs/rules.md#cimd-policy: set for a client known only by its metadata document whose host nobody
   * trusted (CIMD_POLICY=open): the consent page says it is unverified and names the host.
   */
  unverifiedHost?: string;
  /**
   * RFC 9126 §6 (docs/rules.md#pushed-authorization): its authorization requests must come
   * through the pushed authorization request endpoint.
   */
  requirePushedAuthorizationRequests: boolean;
  /** RFC 9449 §5.2 `dpop_bound_access_tokens`: every token request must carry a DPoP proof. Absent: false. */
  dpopBoundAccessTokens?: boolean;
  /**
   * docs/rules.md#fapi2: the client follows the FAPI 2.0 Security Profile: pushed requests, PKCE
   * S256 and DPoP-bound tokens are required of it whatever its other flags say. Absent: false.
   */
  fapi2?: boolean;
  /**
   * RFC 7591 §2 (docs/rules.md#client-authentication): how the client authenticates; absent or
   * null is its kind's default, a secret when confidential and none when public.
   */
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod | null;
  /** RFC 7591 §2 `jwks`: the public keys its private_key_jwt assertions are signed with; absent or null: none. */
  jwks?: JSONWebKeySet | null;
  /** OpenID Connect Registration §2: the algorithm of its ID tokens; absent or null: the default (id-token.ts: idTokenAlgorithmOf). */
  idTokenSignedResponseAlg?: string | null;
  /** OpenID Connect RP-Initiated Logout §3.1: where logout may return; absent: none. */
  postLogoutRedirectUris?: string[];
}

/** RFC 7591 §2: the token_endpoint_auth_method values Gatehouse supports. */
export const TOKEN_ENDPOINT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'] as const;
export type TokenEndpointAuthMethod = (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];

export interface SecretRecord {
  id: string;
  clientId: string;
  hash: string;
  lastUsedAt: number | null;
}

export interface GrantRecord {
  id: string;
  /** Who approved it; for a team's grant, the owner or admin who did so for the team. */
  userId: string;
  clientId: string;
  scopes: string[] | null;
  /** docs/rules.md#team-authorization: the team the grant acts for; absent or null, it acts for its user. */
  teamId?: string | null;
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
  /** RFC 8707: the resources the authorization covers; null is the default resource only. */
  resources: string[] | null;
  /** RFC 9449 §10: the thumbprint of the key the exchange must prove (`dpop_jkt`); absent or null: none. */
  dpopJkt?: string | null;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
  /** OpenID Connect Core §3.1.2.1: the request's nonce, which its ID token carries; absent or null: none sent. */
  nonce?: string | null;
  /** OpenID Connect Core §2: when the user last logged in (ms), the ID token's auth_time; absent or null: unknown (a code made before). */
  authTime?: number | null;
}

export interface AccessTokenRecord {
  hash: string;
  grantId: string;
  /**
   * The authorization code the token descends from (through its refresh chain too), so a
   * replayed code revokes exactly its tokens when codes share a grant (docs/rules.md#code-replay, docs/rules.md#silent-authorization).
   * Null only for tokens issued before codes were recorded on tokens.
   */
  codeHash: string | null;
  clientId: string;
  userId: string;
  scopes: string[] | null;
  /** RFC 8707: the resources the token may be presented to; null is the default resource only. */
  resources: string[] | null;
  /** RFC 9449 §6: the JWK thumbprint (cnf.jkt) of the key it is bound to; absent or null: a bearer token. */
  dpopJkt?: string | null;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

/** An access token as a resource server sees it: with its client's current state. */
export interface AccessTokenWithClient extends AccessTokenRecord {
  clientState: ClientState;
  /** docs/rules.md#team-authorization: the team its grant acts for; absent when it acts for its user. */
  teamId?: string;
  /**
   * docs/rules.md#enterprise-managed-reach: the organization whose identity provider made its grant;
   * null when that identity provider is no longer there (the token is then refused); absent
   * when the user's own consent made the grant.
   */
  organizationId?: string | null;
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
  /** The grant's resources, kept through rotation (RFC 8707 §2.2); null as on codes. */
  resources: string[] | null;
  /** RFC 9449 §5: a public client's refresh token is bound to its DPoP key; absent or null: unbound. */
  dpopJkt?: string | null;
  parentId: string | null;
  createdAt: number;
  /** Idle expiry: a chain not used for REFRESH_TOKEN_IDLE_TTL_SECONDS ends. */
  expiresAt: number;
  spentAt: number | null;
  /** The successor pair, encrypted under a key derived from this token (docs/rules.md#refresh-rotation). */
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

/**
 * One row of the audit trail (SECURITY.md: logs and audit), declared once for every writer: `Type` is
 * the names the writer may use (the core its own; the services theirs, services/audit-events.ts).
 */
export interface AuditEvent<Type extends string = OAuthAuditEventType> {
  type: Type;
  actorId?: string | null;
  clientId?: string | null;
  userId?: string | null;
  /** Non-secret details (ids, reasons, counts). */
  data?: Record<string, unknown>;
}

// Every contract below is checked on SQLite and PostgreSQL by test/storage/oauth-store.test.ts.
// Common to all of them: a create* with a key (id or hash) that already exists fails with the
// database's unique-violation error and leaves the existing row as it was; reads return
// revoked, spent, consumed and expired rows as they are, for the caller to judge; a revoke*
// keeps the first revocation time of a row already revoked, and of an unknown key is a no-op.

/**
 * What the consent page tells of a client beyond its record (docs/rules.md#consent): who
 * registered it, and whether an admin ever decided on it.
 */
export interface ClientProvenance {
  /** The name of the account that owns the client: the developer the consent page names. */
  developerName: string;
  /** When an admin last decided on the client (an approval, a rejection, a suspension, a decision on a held change); null: never, or not since it was resubmitted. */
  reviewedAt: number | null;
}

export interface ClientLookup {
  /** The client in any state; undefined when no such client exists. */
  findClient(id: string): Promise<ClientRecord | undefined>;
  /**
   * The client in any state with its secrets not removed (in no particular order), in one
   * read: client authentication needs both on every token request. Undefined when no such
   * client exists.
   */
  findClientWithSecrets(id: string): Promise<{ client: ClientRecord; secrets: SecretRecord[] } | undefined>;
  /** Records `at` as the secret's last use; an unknown id is a no-op. */
  markSecretUsed(secretId: string, at: number): Promise<void>;
  /** The client's developer and last review, in one read; undefined when no such client exists. */
  findClientProvenance(id: string): Promise<ClientProvenance | undefined>;
}

export interface GrantStore {
  /** Stores the grant as given; a duplicate id is a unique violation. */
  createGrant(grant: GrantRecord): Promise<void>;
  /** The grant, revoked or not; undefined when no such grant exists. */
  findGrant(id: string): Promise<GrantRecord | undefined>;
  /**
   * Active (not revoked) grants of one user for one client, newest first: one indexed
   * range read of at most the grant limit's rows (docs/rules.md#bounded-growth). The user's
   * consents only: a grant an organization's identity provider made is never one
   * (docs/integrating.md#enterprise-managed-agents).
   */
  listActiveGrants(userId: string, clientId: string): Promise<GrantRecord[]>;
  /**
   * Within a transaction: serializes grant creation for one user until it ends, so that
   * concurrent authorizations cannot overshoot the grant limit (docs/rules.md#bounded-growth). Another
   * transaction locking the same user waits until this one ends. Writes nothing visible.
   */
  lockUserGrants(userId: string): Promise<void>;
  /**
   * Within a transaction: true when the grant is still active, and then holds it so a
   * concurrent revocation waits for the transaction and closes what it wrote. False for a
   * revoked or unknown grant. Writes nothing visible.
   */
  holdActiveGrant(grantId: string): Promise<boolean>;
  /**
   * Revokes the grant and every access and refresh token issued under it (clearing refresh
   * tokens' stored successors), and marks its unredeemed codes consumed at `at`, so they
   * cannot be redeemed. Several writes: call it inside transaction() so they land together.
   * Other grants are untouched; an unknown grant is a no-op.
   */
  revokeGrant(grantId: string, at: number): Promise<void>;
  /**
   * Revokes the access and refresh tokens of the grant whose codeHash is this code (clearing
   * stored successors); the grant and its other codes' tokens stay active. Two writes: call
   * it inside transaction().
   */
  revokeCodeTokens(grantId: string, codeHash: string, at: number): Promise<void>;
}

/**
 * docs/rules.md#team-authorization: the team an authorization request's `team_slug` names, and
 * whether the signed-in user may authorize an application for it: an owner or admin of the
 * team, or of the organization the team belongs to.
 */
export interface TeamAuthority {
  id: string;
  name: string;
  mayAuthorize: boolean;
}

export interface TeamLookup {
  /** The team with this slug as the user stands in it; undefined when no team has the slug. */
  findTeamAuthority(slug: string, userId: string): Promise<TeamAuthority | undefined>;
  /**
   * Within a transaction: the team with this id as the user stands in it, holding the team's
   * row until the transaction ends, so that a concurrent deletion of the team, or change of a
   * role in the team, waits for it (both take the same row first). Undefined, holding nothing,
   * when no such team exists (by then).
   */
  holdTeamAuthority(teamId: string, userId: string): Promise<TeamAuthority | undefined>;
}

export interface CodeStore {
  /** Stores the code unconsumed (consumedAt is ignored); a duplicate hash is a unique violation. */
  createCode(code: CodeRecord): Promise<void>;
  /**
   * Marks the code consumed if, and only if, it was not consumed yet — atomically, so that
   * of concurrent redemptions exactly one gets the record (ARCHITECTURE.md#single-use-is-atomic).
   * Returns undefined when no such code exists or it was already consumed (codes of a revoked
   * grant are consumed by revokeGrant). Returns the record with consumedAt = `at`. Does not
   * judge expiry: an expired code is consumed and returned, for the caller to refuse. On
   * PostgreSQL a consumption racing another transaction's waits for it, then gets undefined.
   */
  consumeCode(hash: string, at: number): Promise<CodeRecord | undefined>;
  /** The code, consumed or not, expired or not; undefined when no such code exists. */
  findCode(hash: string): Promise<CodeRecord | undefined>;
}

/**
 * A pushed authorization request (RFC 9126 §2): the parameters a client sent to the PAR
 * endpoint, kept under the SHA-256 of the request_uri's random part, never the reference
 * itself, which is a bearer secret (docs/rules.md#credentials-at-rest).
 */
export interface PushedRequestRecord {
  hash: string;
  clientId: string;
  /** The validated authorization parameters, one string each (authorize/request.ts: authorizationParameters). */
  parameters: Record<string, string>;
  /** RFC 8707 resources, the one parameter that repeats; null when none was sent. */
  resources: string[] | null;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
}

export interface PushedRequestStore {
  /** Stores the request unconsumed (consumedAt is ignored); a duplicate hash is a unique violation. */
  createPushedRequest(request: PushedRequestRecord): Promise<void>;
  /** The request, consumed or expired as it is; undefined when no such request exists. */
  findPushedRequest(hash: string): Promise<PushedRequestRecord | undefined>;
  /**
   * Marks the request consumed if, and only if, it was not consumed yet and it expires after
   * `at` — atomically, so that of concurrent uses exactly one gets true
   * (ARCHITECTURE.md#single-use-is-atomic). False, writing nothing, for an unknown, consumed
   * or expired request.
   */
  consumePushedRequest(hash: string, at: number): Promise<boolean>;
}

export interface TokenStore {
  /** Stores the token as given; a duplicate hash is a unique violation. */
  createAccessToken(token: AccessTokenRecord): Promise<void>;
  /**
   * The token with its client's state as it is now, in one read; revoked and expired tokens
   * are returned as they are. Undefined when no such token exists.
   */
  findAccessToken(hash: string): Promise<AccessTokenWithClient | undefined>;
  /** Revokes the token; an already revoked token keeps its first time; unknown is a no-op. */
  revokeAccessToken(hash: string, at: number): Promise<void>;
  /** Stores the token as given; a duplicate id or a duplicate hash is a unique violation. */
  createRefreshToken(token: RefreshTokenRecord): Promise<void>;
  /**
   * Stores a newly minted pair and the audit event of its issue, all or nothing: a duplicate
   * hash or id is a unique violation and stores none of the three. One statement on
   * PostgreSQL, where a round trip each was a large part of a token request's cost.
   */
  createTokenPair(access: AccessTokenRecord, refresh: RefreshTokenRecord, issued: AuditEvent, at: number): Promise<void>;
  /** The token, spent, revoked or expired as it is; undefined when no such token exists. */
  findRefreshToken(hash: string): Promise<RefreshTokenRecord | undefined>;
  /**
   * Spends the token if it is unspent, storing the encrypted successor in the same write.
   * Atomic: of concurrent spends exactly one returns true; on PostgreSQL the losers wait
   * for the winner's transaction and then see its successor. False, writing nothing, for a
   * spent, revoked or unknown token. Does not judge expiry: the caller refuses an expired
   * token before spending it.
   */
  spendRefreshToken(id: string, at: number, successorBox: string): Promise<boolean>;
  /**
   * A rotation in one atomic write, needing no transaction of the caller's: spends the token
   * `id` if it is unspent, unrevoked and unexpired at `at`, storing its encrypted successor,
   * and with it stores the successor pair and the audit event of the rotation. Of concurrent
   * rotations of one token exactly one returns true; false, writing nothing, for a spent,
   * revoked, expired or unknown token. One statement on PostgreSQL (the spend and the three
   * rows in one WITH), so a refresh makes no BEGIN and COMMIT round trips of its own.
   */
  rotateRefreshToken(id: string, at: number, successorBox: string, access: AccessTokenRecord, refresh: RefreshTokenRecord, rotated: AuditEvent): Promise<boolean>;
  /**
   * A refresh token that is not rotated (docs/rules.md#fapi2) stays alive while it is used: moves
   * its idle expiry to `expiresAt` if it is unspent and unrevoked. False, writing nothing, for a
   * spent, revoked or unknown token.
   */
  keepRefreshToken(id: string, expiresAt: number): Promise<boolean>;
}

/** The audit trail: the one port through which the core and the services append to it. */
export interface AuditLog<Type extends string = OAuthAuditEventType> {
  /**
   * Appends one event (absent actor, client, user and data are stored as null). Called on a
   * transaction's store, it commits or rolls back with the transaction's other writes.
   */
  append(event: AuditEvent<Type>, at: number): Promise<void>;
}

export interface AuthorizationRequestStore {
  /** Appends one row per authorization request; userId null when nobody was signed in. */
  recordAuthorizationRequest(clientId: string, userId: string | null, hadScope: boolean, at: number): Promise<void>;
}

/** Application notifications the protocol core causes (docs/rules.md#client-events). */
export type ClientNotification = 'grant.revoked_reuse';

/**
 * Notifications to a client's events URL (docs/integrating.md#webhooks), declared once for every writer
 * as AuditLog is: `Event` is the names the writer may use (the core its own; the webhook
 * services theirs, services/webhooks/store.ts).
 */
export interface NotificationStore<Event extends string = ClientNotification> {
  /**
   * Writes the notification to the outbox as one message to the client's events URL, due
   * at once, whose `data` is `{ clientId, ...data }`; nothing for a client without an events
   * URL or a signing secret. Called on a transaction's store, it lands only if the
   * transaction commits.
   */
  notifyClient(clientId: string, event: Event, data: Record<string, unknown>, at: number): Promise<void>;
}

/** What the identity scopes tell of a user (OpenID Connect Core §5.4; id-token.ts: identityClaims). */
export interface IdentityRecord {
  name: string;
  /** The account's sign-in address. */
  email: string;
  /** Whether a code sent to that address came back (a verified email of /v2/verified-resources). */
  emailVerified: boolean;
}

export interface IdentityLookup {
  /** The user's identity claims; undefined when no such user exists. */
  findIdentity(userId: string): Promise<IdentityRecord | undefined>;
}

export interface OAuthStore extends ClientLookup, GrantStore, TeamLookup, CodeStore, PushedRequestStore, TokenStore, AuthorizationRequestStore, NotificationStore, IdentityLookup {
  /** The audit trail (bound to the transaction, on a transaction's store). */
  audit: AuditLog;
  /**
   * Runs fn in one database transaction; the store it receives is bound to it and returns
   * what fn returns. When fn throws, every write made through that store rolls back and the
   * error is rethrown. Called on a transaction's store, it joins that transaction (no
   * savepoint): the inner writes commit or roll back with the outer transaction.
   */
  transaction<T>(fn: (tx: OAuthStore) => Promise<T>): Promise<T>;
}
