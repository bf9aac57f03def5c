// The protocol core on an in-process database, for unit tests that call it directly: SQLite
// `:memory:` through the real adapters, migrated as in production, at a fixed time. Users and clients are made through the stores and the services the application
// uses (never raw SQL), so the data is what production would hold.
import type { ClientMetadataDocuments } from '../../src/oauth/client-metadata.ts';
import type { OAuthContext } from '../../src/oauth/context.ts';
import type { ClientKind } from '../../src/oauth/storage.ts';
import type { ServiceContext } from '../../src/services/context.ts';
import { registerDynamicClient, selfRegisteredClients } from '../../src/services/clients/dynamic-registration.ts';
import { createMetadataDocuments } from '../../src/services/clients/metadata-documents.ts';
import type { FetchedDocument } from '../../src/services/clients/metadata-fetch.ts';
import { createClient, importLegacyClient } from '../../src/services/clients/registration.ts';
import { reviewClient } from '../../src/services/clients/review.ts';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrator.ts';
import { createServiceContext } from '../../src/storage/stores/index.ts';
import { T0, userRecord } from '../storage/seed.ts';
import { createOAuthStore } from '../storage/stores.ts';

export const ISSUER = 'https://gatehouse.test';
export const REDIRECT_URI = 'https://app.example.com/callback';

export interface Core {
  /** The core's context, as app.ts composes it. */
  ctx: OAuthContext;
  /** The application services over the same database, to arrange what the core reads. */
  services: ServiceContext;
  /** Client metadata documents the fixture's document host serves, by URL (README, Connect an AI agent (MCP)). */
  documents: Map<string, Record<string, unknown>>;
  close(): Promise<void>;
}

/** A public address for every host name: the outbound guard's judgement is not under test. */
const publicAddress = async () => ['93.184.216.34'];

export async function createCore(): Promise<Core> {
  const handle: DatabaseHandle = openDatabase('sqlite::memory:');
  await migrateToLatest(handle);
  const clock = () => T0;
  const services = createServiceContext(handle.db, clock);
  const documents = new Map<string, Record<string, unknown>>();
  const fetch = async (url: URL): Promise<FetchedDocument> => {
    const doc = documents.get(url.href);
    return doc === undefined ? { status: 404, headers: {}, body: '' } : { status: 200, headers: {}, body: JSON.stringify(doc) };
  };
  const clientMetadata: ClientMetadataDocuments = createMetadataDocuments(
    services,
    { policy: 'open', scopes: ['PROFILE_READ'], outbound: { allowPrivate: false, resolve: publicAddress } },
    fetch,
  );
  const ctx: OAuthContext = {
    store: createOAuthStore(handle.db),
    clock,
    issuer: ISSUER,
    // The defaults (README, For application developers): codes 60 s, access tokens 30 minutes.
    ttl: { authCode: 60, accessToken: 1800, refreshIdle: 90 * 24 * 3600, refreshReuseWindow: 30 },
    resources: { default: `${ISSUER}/v2`, known: [`${ISSUER}/v2`, `${ISSUER}/mcp`] },
    clientMetadata,
    isSelfRegistered: selfRegisteredClients(services),
  };
  return {
    ctx,
    services,
    documents,
    close: () => handle.close(),
  };
}

/** A user account; returns its id. */
export async function addUser(core: Core): Promise<string> {
  const user = userRecord();
  await core.services.stores.users.insert(user);
  return user.id;
}

export interface ClientOptions {
  kind?: ClientKind;
  scopes?: string[];
  /** Approved by an admin unless said otherwise; pending is how a developer's client starts. */
  state?: 'approved' | 'pending' | 'suspended';
}

/** A developer's client, registered and reviewed as the developer pages and the admin do; returns its id. */
export async function addClient(core: Core, options: ClientOptions = {}): Promise<string> {
  const developer = await addUser(core);
  const { client } = await createClient(core.services, {
    ownerId: developer,
    name: 'Calendar Sync',
    kind: options.kind ?? 'confidential',
    redirectUris: [REDIRECT_URI],
    scopes: options.scopes ?? ['PROFILE_READ', 'BOOKING_READ'],
  });
  const state = options.state ?? 'approved';
  if (state !== 'pending') await reviewClient(core.services, client.clientId, 'approve', null);
  if (state === 'suspended') await reviewClient(core.services, client.clientId, 'suspend', null);
  return client.clientId;
}

/** A client from before scopes (SPEC §2 item 14), imported approved; returns its id. */
export async function addLegacyClient(core: Core): Promise<string> {
  const developer = await addUser(core);
  const { client } = await importLegacyClient(core.services, { ownerId: developer, name: 'Old Sync', kind: 'confidential', redirectUris: [REDIRECT_URI] });
  return client.clientId;
}

/** A public client that registered itself (RFC 7591) under DCR_POLICY=open; returns its id. */
export async function addSelfRegisteredClient(core: Core, redirectUri: string): Promise<string> {
  const registered = await registerDynamicClient(
    core.services,
    { policy: 'open', scopes: ['PROFILE_READ'] },
    { client_name: 'Calendar Helper', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' },
  );
  return registered.client.clientId;
}
