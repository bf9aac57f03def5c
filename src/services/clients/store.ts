// The store of the OAuth-client lifecycle (docs/rules.md#client-states): client rows with their held change and
// version, secrets, the authorization requests behind the legacy warning, the grants listed
// in authorized apps, and the audit trail shown on a client's page. src/storage/stores/
// clients.ts implements it. Every method runs in whatever transaction its store is bound
// to (ServiceStores.transaction); none opens one of its own.
import type { JSONWebKeySet } from 'jose';
import type { ClientKind, ClientState, TokenEndpointAuthMethod } from '../../oauth/storage.ts';
import type { AuditEntry } from '../audit-log.ts';

/** A client as stored, with its live configuration, its held change and its review. */
export interface StoredClient {
  id: string;
  name: string;
  description: string;
  homepageUrl: string;
  logoUrl: string | null;
  ownerId: string;
  kind: ClientKind;
  state: ClientState;
  redirectUris: string[];
  /**
   * null for a legacy client (docs/rules.md#legacy-clients). Stored and returned in the order given: the
   * services pass registry order (sortScopes), which responses and pages show.
   */
  scopes: string[] | null;
  reviewNote: string | null;
  reviewedBy: string | null;
  reviewedAt: number | null;
  /** docs/rules.md#introspection: may introspect any client's tokens. */
  resourceServer: boolean;
  /** docs/rules.md#pushed-authorization: its authorization requests must be pushed (RFC 9126 §6). */
  requirePushedAuthorizationRequests: boolean;
  /** docs/rules.md#client-changes: additions awaiting review; empty when nothing is held. */
  proposedRedirectUris: string[];
  proposedScopes: string[];
  /** RFC 9449 §5.2 (docs/rules.md#dpop): every token request must carry a DPoP proof. */
  dpopBoundAccessTokens: boolean;
  /** docs/rules.md#fapi2: follows the FAPI 2.0 Security Profile. */
  fapi2: boolean;
  /** docs/rules.md#client-authentication: the registered method; null is the kind's default. */
  tokenEndpointAuthMethod: TokenEndpointAuthMethod | null;
  /** docs/rules.md#client-authentication: its public keys (private_key_jwt); null when none. */
  jwks: JSONWebKeySet | null;
  /** OpenID Connect Registration §2 id_token_signed_response_alg; null is the default (oauth/id-token.ts: idTokenAlgorithmOf). */
  idTokenSignedResponseAlg: string | null;
  /** OpenID Connect RP-Initiated Logout §3.1: where logout may return; empty when none. */
  postLogoutRedirectUris: string[];
  /** docs/rules.md#review-versions. */
  version: number;
  createdAt: number;
  updatedAt: number;
}

/** A new client: version starts at 1, no review, no held change, not a resource server; DPoP-bound only when asked. */
export type NewClientRecord = Pick<
  StoredClient,
  'id' | 'name' | 'description' | 'homepageUrl' | 'logoUrl' | 'ownerId' | 'kind' | 'state' | 'redirectUris' | 'scopes' | 'createdAt'
> &
  Partial<Pick<StoredClient, 'requirePushedAuthorizationRequests' | 'idTokenSignedResponseAlg' | 'postLogoutRedirectUris'>> & { dpopBoundAccessTokens?: boolean; fapi2?: boolean; tokenEndpointAuthMethod?: TokenEndpointAuthMethod | null; jwks?: JSONWebKeySet | null };

/** The fields an update may set; a field left undefined is left as it is. */
export type ClientChanges = Partial<
  Pick<
    StoredClient,
    | 'name'
    | 'description'
    | 'homepageUrl'
    | 'logoUrl'
    | 'state'
    | 'redirectUris'
    | 'scopes'
    | 'reviewNote'
    | 'reviewedBy'
    | 'reviewedAt'
    | 'resourceServer'
    | 'requirePushedAuthorizationRequests'
    | 'dpopBoundAccessTokens'
    | 'fapi2'
    | 'tokenEndpointAuthMethod'
    | 'jwks'
    | 'idTokenSignedResponseAlg'
    | 'postLogoutRedirectUris'
    | 'proposedRedirectUris'
    | 'proposedScopes'
    | 'updatedAt'
  >
>;

export interface LockOptions {
  /** Raise the version now: the transaction is sure to change the client (or to fail). */
  raiseVersion?: boolean;
  /** Take the lock only if the client is still at this version (the one the reviewer saw). */
  expectedVersion?: number | undefined;
}

export interface StoredSecret {
  id: string;
  lastFour: string;
  createdAt: number;
  lastUsedAt: number | null;
}

/** One grant of a user as the authorized-apps page names it. */
export interface NamedGrantOfUser {
  id: string;
  clientId: string;
  clientName: string;
  /** docs/rules.md#team-authorization: the team it acts for; null: it acts for the user. */
  team: { id: string; name: string } | null;
  /** docs/integrating.md#enterprise-managed-agents: the organization's identity provider that made it; null: the user consented. */
  grantedBy: GrantingIdentityProvider | null;
  revokedAt: number | null;
}

/** An organization's identity provider that made a grant, and the organization's name. */
export interface GrantingIdentityProvider {
  identityProviderId: string;
  /** Null once the identity provider is removed (its grants are revoked with it). */
  organizationName: string | null;
}

/** One active grant of a user, with the name and homepage of its client. */
export interface GrantOfUser {
  grantId: string;
  clientId: string;
  clientName: string;
  homepageUrl: string;
  /** null for a legacy grant (everything). */
  scopes: string[] | null;
  /** docs/rules.md#team-authorization: the team the grant acts for, by id and name; null: it acts for the user. */
  team: { id: string; name: string } | null;
  /** docs/integrating.md#enterprise-managed-agents: the organization's identity provider that made it; null: the user consented. */
  grantedBy: GrantingIdentityProvider | null;
  createdAt: number;
  /**
   * When a token of the grant was last issued (a code exchange, a refresh, an ID-JAG's
   * exchange): its newest refresh token still stored, or, for a grant that issues access
   * tokens only (an identity provider's), its newest access token; null when retention has
   * deleted them all.
   */
  lastTokenAt: number | null;
}

/** An audit event as listed on a client's page, with its actor when the actor still exists. */
export interface ClientAuditEvent extends AuditEntry {
  actor: { id: string; name: string; email: string; admin: boolean } | null;
}

export interface ClientStore {
  /** Inserts a client. The id is new (random): a duplicate id throws the database's error. */
  insert(client: NewClientRecord): Promise<void>;

  /** The client, or undefined when no client has this id. */
  find(id: string): Promise<StoredClient | undefined>;

  /** Clients matching every given filter, newest first. */
  list(filter: { ownerId?: string; state?: ClientState }): Promise<StoredClient[]>;

  /**
   * Whether an approved client has a redirect URI on `origin`: scheme, host and port as the
   * URL standard writes an origin, the form of a browser's Origin header
   * (https://app.example.com; http://localhost:6274). A URI's origin is compared, so a port
   * written out as its scheme's default, or a host's capitals, make no difference; a redirect
   * URI held for review is not live and does not count. Clients of a metadata document (a URL
   * client id) count only when `documentClients` (docs/rules.md#cimd-policy: off stops them).
   * False for anything that is not such an origin ("null" included).
   */
  hasApprovedRedirectOrigin(origin: string, options: { documentClients: boolean }): Promise<boolean>;

  /**
   * Takes the client's row lock for the rest of the transaction, by an UPDATE that sets
   * `updatedAt` to `now` (a portable stand-in for SELECT ... FOR UPDATE), so that two
   * concurrent changes of one client are serialized. With `expectedVersion` the version is
   * part of that UPDATE's WHERE, so the check and the lock are one statement
   * (docs/rules.md#review-versions). Returns the client as this transaction left it, or undefined when no client has
   * this id or it is at another version (nothing is locked then). Call it inside a
   * transaction: outside one the lock ends with the statement.
   */
  lock(id: string, now: number, options?: LockOptions): Promise<StoredClient | undefined>;

  /**
   * Writes the given fields; with `raiseVersion` also raises the version by one
   * (docs/rules.md#review-versions). Empty proposed lists are stored as no held change. Returns false when no
   * client has this id.
   */
  update(id: string, changes: ClientChanges, options?: { raiseVersion?: boolean }): Promise<boolean>;

  /** docs/rules.md#legacy-clients: how many of the client's authorization requests since `since` carried no scope. */
  countScopelessRequests(clientId: string, since: number): Promise<number>;

  /** The client's active (not removed) secrets, oldest first; empty for an unknown client. */
  listSecrets(clientId: string): Promise<StoredSecret[]>;

  /** Stores a secret by its hash; the id is new (random): a duplicate throws. */
  insertSecret(secret: { id: string; clientId: string; hash: string; lastFour: string; createdAt: number }): Promise<void>;

  /** Marks the secret removed at `at`; a secret already removed or unknown is left as it is. */
  removeSecret(secretId: string, at: number): Promise<void>;

  /** The user's active grants with their client, oldest first. */
  listActiveGrantsOfUser(userId: string): Promise<GrantOfUser[]>;

  /**
   * The user's active grants for the client, newest first, each with the team it acts for
   * (docs/rules.md#team-authorization; null: for the user) and the identity provider that made
   * it (null: the user consented); empty when none.
   */
  listActiveGrantsFor(userId: string, clientId: string): Promise<{ id: string; teamId: string | null; identityProviderId: string | null }[]>;

  /**
   * Revokes the grant and everything issued under it (codes, access and refresh tokens) at
   * `at`; what is already revoked or consumed keeps its time. Run it inside a transaction
   * so that the grant and its tokens end together.
   */
  revokeGrant(grantId: string, at: number): Promise<void>;

  /**
   * The grant with this id when it is the user's (revoked or not), with its client's name and
   * the team it acts for; undefined when no grant of this user has the id.
   */
  findGrantOfUser(userId: string, grantId: string): Promise<NamedGrantOfUser | undefined>;

  /** The client's audit events, newest first, at most `limit`, each with its actor (null when unknown or none). */
  listEvents(clientId: string, limit: number): Promise<ClientAuditEvent[]>;
}

/** docs/rules.md#cimd-policy: an admin's decision about the host of client metadata documents. */
export interface MetadataHostDecision {
  host: string;
  decision: 'trusted' | 'distrusted';
  decidedBy: string | null;
  decidedAt: number;
}

export interface MetadataHostStore {
  /** The decision about a host (lower case, with port if any); undefined when none was made. */
  find(host: string): Promise<MetadataHostDecision | undefined>;
  /** Records the decision, replacing an earlier one about the same host. */
  decide(decision: MetadataHostDecision): Promise<void>;
  /** Every decision, by host. */
  list(): Promise<MetadataHostDecision[]>;
}
