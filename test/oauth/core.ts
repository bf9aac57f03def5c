// The protocol core as its unit tests drive it: the OAuthContext built over SQLite :memory:
// through the real adapters (src/storage/stores/oauth.ts, and the services' stores beside it), as
// app.ts: createContext builds it for the server (less its metrics), with a clock the test moves.
// Rows are seeded through the stores or the services, never raw SQL, so a column rename breaks
// the storage contract suite and not these tests. The `it` below gives every test a database of
// its own (a migration on :memory: takes milliseconds), so no test sees another's rows.
import { expect, test } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { protectedResources, TOKEN_PATH } from '../../src/http/oauth/paths.ts';
import { DpopNonces } from '../../src/oauth/dpop.ts';
import { KeySealer, SigningKeys } from '../../src/oauth/signing-keys.ts';
import { createSigningKeyStore } from '../../src/storage/stores/signing-keys.ts';
import { createDpopProofStore } from '../../src/storage/stores/dpop-proofs.ts';
import type { ClientMetadataDocuments } from '../../src/oauth/client-metadata.ts';
import type { OAuthContext } from '../../src/oauth/context.ts';
import { OAuthError, type OAuthErrorCode } from '../../src/oauth/errors.ts';
import type { ClientKind, ClientRecord, ClientState, GrantRecord } from '../../src/oauth/storage.ts';
import { handleTokenRequest } from '../../src/oauth/token-endpoint.ts';
import { generateToken, hashToken, randomId, timeOrderedId } from '../../src/oauth/token-format.ts';
import type { TokenResponse } from '../../src/oauth/token-response.ts';
import { registerDynamicClient, selfRegisteredClients } from '../../src/services/clients/dynamic-registration.ts';
import { createMetadataDocuments } from '../../src/services/clients/metadata-documents.ts';
import type { FetchedDocument } from '../../src/services/clients/metadata-fetch.ts';
import type { ServiceContext } from '../../src/services/context.ts';
import type { ServiceStores } from '../../src/services/stores.ts';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrator.ts';
import { createServiceContext } from '../../src/storage/stores/index.ts';
import { testServiceOptions } from '../helpers/password-hashing.ts';
import { createOAuthStore } from '../../src/storage/stores/oauth.ts';
import { createIdentityAssertionStore } from '../../src/storage/stores/identity-assertions.ts';
import { createIdentityProviderKeys, type FetchKeys } from '../../src/services/identity-providers/keys.ts';
import { userRecord } from '../storage/seed.ts';

/** When every test's clock starts (November 2023): far from 0, so an unset time shows. */
export const T0 = 1_700_000_000_000;

export const REDIRECT_URI = 'https://app.example.com/callback';

/** The settings of a server started with no environment: the TTLs and resources tests assert. */
const defaults = loadConfig({});

/** The issuer (RFC 8414; `iss`, RFC 9207) of a server started with no environment. */
export const ISSUER = defaults.issuer;

export interface SeededClient {
  id: string;
  /** As the core reads it (ClientStore.findClient). */
  record: ClientRecord;
  /** The plain-text secret of a confidential client; undefined for a public one. */
  secret: string | undefined;
  redirectUri: string;
}

export interface ClientOptions {
  kind?: ClientKind;
  state?: ClientState;
  /** Enabled scopes; null for a legacy client. */
  scopes?: string[] | null;
  redirectUris?: string[];
  /** docs/integrating.md: may introspect any client's tokens. */
  resourceServer?: boolean;
  /** A client id of its own choosing, e.g. a metadata-document URL. */
  id?: string;
}

export interface CodeOptions {
  redirectUri?: string;
  /** RFC 7636: the S256 challenge the authorization request carried. */
  codeChallenge?: string | null;
  /** RFC 8707: the resources the authorization covers; null is the default resource. */
  resources?: string[] | null;
  /** The scopes the code carries; the grant's by default. */
  scopes?: string[] | null;
  /** OpenID Connect Core §3.1.2.1: the request's nonce; none by default. */
  nonce?: string | null;
  /** When the user last logged in; the code's creation by default. */
  authTime?: number;
}

export interface CoreOptions {
  /**
   * docs/integrating.md#connect-an-ai-agent-mcp: URL client ids resolved from the documents in
   * `Core.documents`, as under CIMD_POLICY=open. Without, they are refused, as under
   * CIMD_POLICY=off; the seeded clients have issued ids, which that never concerns.
   */
  metadataDocuments?: boolean;
  /**
   * docs/integrating.md#enterprise-managed-agents: the JWT bearer grant enabled, the identity
   * providers' key sets fetched through this function instead of the network (each host a
   * public address for the outbound guard), as app.ts wires it.
   */
  identityProviderKeys?: FetchKeys;
}

export interface Core {
  ctx: OAuthContext;
  /** The application services over the same database and clock, as app.ts hands them to the pages. */
  services: ServiceContext;
  /** `services.stores`: to seed users and clients, and to read the audit trail and the outbox. */
  stores: ServiceStores;
  /** The database itself, for the few reads no port gives (test/helpers/rows.ts: what is at rest). */
  db: DatabaseHandle['db'];
  /** The client metadata documents served, by URL, when the core was opened with `metadataDocuments`. */
  documents: Map<string, Record<string, unknown>>;
  clock: { now(): number; advance(seconds: number): void };
  user(): Promise<string>;
  client(options?: ClientOptions): Promise<SeededClient>;
  /**
   * SECURITY.md: a public client that registered itself (RFC 7591) under DCR_POLICY=open,
   * owned by nobody who signed in, as dynamic client registration makes it.
   */
  selfRegisteredClient(redirectUri: string): Promise<SeededClient>;
  /** Adds an active secret to the client; returns its plain text. */
  secret(clientId: string): Promise<string>;
  /** A consent the user gave the client, as approveAuthorization records it. */
  grant(client: SeededClient, userId: string, scopes?: string[] | null): Promise<GrantRecord>;
  /** A code issued under the grant, as the authorization endpoint issues it; returns its plain text. */
  code(client: SeededClient, grant: GrantRecord, options?: CodeOptions): Promise<string>;
  close(): Promise<void>;
}

/** A public address for every host name: the outbound guard's judgement is not under test here. */
const publicAddress = async () => ['93.184.216.34'];

export async function openCore(options: CoreOptions = {}): Promise<Core> {
  const handle = openDatabase('sqlite::memory:');
  await migrateToLatest(handle);
  let now = T0;
  const clock = () => now;
  const services = createServiceContext(handle.db, clock, testServiceOptions);
  const { stores } = services;
  const documents = new Map<string, Record<string, unknown>>();
  const ctx: OAuthContext = {
    store: createOAuthStore(handle.db),
    clock,
    issuer: ISSUER,
    // A copy: a test may shorten a TTL of its own core.
    ttl: { ...defaults.ttl },
    resources: protectedResources(defaults.baseUrl),
    dpop: { proofs: createDpopProofStore(handle.db), nonces: new DpopNonces('core tests'), tokenEndpoint: `${defaults.baseUrl}${TOKEN_PATH}` },
    isSelfRegistered: selfRegisteredClients(services),
    // docs/operating.md#signing-keys: keys made at their first use (a test that signs nothing makes none).
    signingKeys: new SigningKeys(createSigningKeyStore(handle.db), new KeySealer('core tests signing keys secret'), clock, {
      refreshSeconds: defaults.signingKeys.refreshSeconds,
      idTokenTtlSeconds: defaults.ttl.accessToken,
    }),
  };
  if (options.metadataDocuments) ctx.clientMetadata = servedDocuments(services, documents);
  if (options.identityProviderKeys) {
    ctx.identityAssertions = { store: createIdentityAssertionStore(handle.db), keys: createIdentityProviderKeys({ allowPrivate: false, resolve: publicAddress }, clock, options.identityProviderKeys) };
  }

  const core: Core = {
    ctx,
    services,
    stores,
    db: handle.db,
    documents,
    clock: {
      now: clock,
      advance: (seconds) => {
        now += seconds * 1000;
      },
    },
    async user() {
      const user = userRecord({ name: 'Ada', createdAt: now, updatedAt: now });
      expect(await stores.users.insert(user)).toBe(true);
      return user.id;
    },
    async client(options = {}) {
      const id = options.id ?? randomId();
      const kind = options.kind ?? 'confidential';
      const redirectUris = options.redirectUris ?? [REDIRECT_URI];
      await stores.clients.insert({
        id,
        name: 'Calendar Sync',
        description: '',
        homepageUrl: 'https://app.example.com',
        logoUrl: null,
        ownerId: await core.user(),
        kind,
        state: options.state ?? 'approved',
        redirectUris,
        scopes: options.scopes === undefined ? ['BOOKING_READ', 'PROFILE_READ'] : options.scopes,
        createdAt: now,
      });
      if (options.resourceServer) await stores.clients.update(id, { resourceServer: true });
      const secret = kind === 'confidential' ? await core.secret(id) : undefined;
      return seeded(id, secret, redirectUris[0]!);
    },
    async selfRegisteredClient(redirectUri) {
      const registered = await registerDynamicClient(
        services,
        { policy: 'open', scopes: ['PROFILE_READ'] },
        { client_name: 'Calendar Helper', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' },
      );
      return seeded(registered.client.clientId, undefined, redirectUri);
    },
    async secret(clientId) {
      const secret = generateToken('clientSecret');
      await stores.clients.insertSecret({ id: randomId(), clientId, hash: hashToken(secret), lastFour: secret.slice(-4), createdAt: now });
      return secret;
    },
    async grant(client, userId, scopes = ['PROFILE_READ']) {
      const grant: GrantRecord = { id: timeOrderedId(now), userId, clientId: client.id, scopes, createdAt: now, revokedAt: null };
      await ctx.store.createGrant(grant);
      return grant;
    },
    async code(client, grant, options = {}) {
      const code = generateToken('authorizationCode');
      await ctx.store.createCode({
        hash: hashToken(code),
        clientId: client.id,
        userId: grant.userId,
        grantId: grant.id,
        redirectUri: options.redirectUri ?? client.redirectUri,
        scopes: options.scopes === undefined ? grant.scopes : options.scopes,
        codeChallenge: options.codeChallenge ?? null,
        resources: options.resources ?? null,
        createdAt: now,
        expiresAt: now + ctx.ttl.authCode * 1000,
        consumedAt: null,
        nonce: options.nonce ?? null,
        authTime: options.authTime ?? now,
      });
      return code;
    },
    close: () => handle.close(),
  };

  /** The client as the core reads it (ClientStore.findClient). */
  async function seeded(id: string, secret: string | undefined, redirectUri: string): Promise<SeededClient> {
    const record = await ctx.store.findClient(id);
    expect(record, id).toBeDefined();
    return { id, record: record!, secret, redirectUri };
  }
  return core;
}

/** The metadata documents of CIMD_POLICY=open, fetched from the map instead of the network. */
function servedDocuments(services: ServiceContext, documents: Map<string, Record<string, unknown>>): ClientMetadataDocuments {
  const fetch = async (url: URL): Promise<FetchedDocument> => {
    const doc = documents.get(url.href);
    return doc === undefined ? { status: 404, headers: {}, body: '' } : { status: 200, headers: {}, body: JSON.stringify(doc) };
  };
  return createMetadataDocuments(services, { policy: 'open', scopes: ['PROFILE_READ'], outbound: { allowPrivate: false, resolve: publicAddress } }, fetch);
}

/** `it` with a fresh core in its context: `it('…', async ({ core }) => …)`. */
export const it = test.extend<{ core: Core }>({
  // Vitest reads a fixture's dependencies from its first parameter's pattern: this one has none.
  core: async ({}, use) => {
    const core = await openCore();
    await use(core);
    await core.close();
  },
});

/** The client's credentials as client_secret_post sends them (client_id alone for a public client). */
export function credentials(client: SeededClient): Record<string, string> {
  return client.secret === undefined ? { client_id: client.id } : { client_id: client.id, client_secret: client.secret };
}

/** RFC 6749 §2.3.1: the Authorization header of client_secret_basic, each part form-encoded. */
export function basic(clientId: string, secret: string): string {
  const encode = (part: string) => encodeURIComponent(part).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(secret)}`).toString('base64')}`;
}

/**
 * A token request with client_secret_post: what the HTTP layer hands the core for a form body,
 * of a grant that answers a pair (the code and refresh grants); fails without a refresh token.
 */
export async function tokenRequest(core: Core, client: SeededClient, params: Record<string, string | string[]>): Promise<TokenResponse> {
  const { body } = await handleTokenRequest(core.ctx, { body: { ...credentials(client), ...params }, authorization: undefined });
  if (!('refresh_token' in body)) return expect.fail(`expected a refresh token in ${JSON.stringify(body)}`);
  return body;
}

/** RFC 6749 §4.1.3: redeems the code at the client's registered redirect URI. */
export function exchange(core: Core, client: SeededClient, code: string, extra: Record<string, string | string[]> = {}): Promise<TokenResponse> {
  return tokenRequest(core, client, { grant_type: 'authorization_code', code, redirect_uri: client.redirectUri, ...extra });
}

/** RFC 6749 §6. */
export function refresh(core: Core, client: SeededClient, refreshToken: string, extra: Record<string, string | string[]> = {}): Promise<TokenResponse> {
  return tokenRequest(core, client, { grant_type: 'refresh_token', refresh_token: refreshToken, ...extra });
}

/** A user's consent to a new approved client, redeemed: the pair and what it came from. */
export async function issued(core: Core, options: ClientOptions & { grantScopes?: string[] | null } = {}) {
  const client = await core.client(options);
  const userId = await core.user();
  const grant = await core.grant(client, userId, options.grantScopes === undefined ? ['PROFILE_READ'] : options.grantScopes);
  const code = await core.code(client, grant);
  const tokens = await exchange(core, client, code);
  return { client, userId, grant, code, tokens };
}

/** The OAuthError the call failed with, asserting its RFC 6749 §5.2 code and what its description says. */
export async function rejection(call: Promise<unknown>, code: OAuthErrorCode, description?: RegExp): Promise<OAuthError> {
  const error = await call.then(
    (value) => expect.fail(`expected ${code}, got ${JSON.stringify(value)}`),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OAuthError);
  const oauthError = error as OAuthError;
  expect(oauthError.code, oauthError.description).toBe(code);
  if (description !== undefined) expect(oauthError.description).toMatch(description);
  return oauthError;
}

/** The types of the audit events recorded for the client, oldest first. */
export async function auditTypes(core: Core, clientId: string): Promise<string[]> {
  return (await core.stores.auditLog.list({ clientId })).map((e) => e.type).reverse();
}
