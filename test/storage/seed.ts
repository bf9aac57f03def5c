// Rows the storage contract suites need before a store can be exercised (users and clients
// that grants and tokens reference), written straight to the test database, and the
// records the suites create through the store under test.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import type { PlatformStores } from '../../src/platform/stores.ts';
import { createServiceStores } from '../../src/storage/stores/index.ts';
import { createTestDatabase, type Backend, type TestDatabase } from '../helpers/backends.ts';
import type {
  AccessTokenRecord,
  ClientRecord,
  CodeRecord,
  GrantRecord,
  RefreshTokenRecord,
} from '../../src/oauth/storage.ts';
import type { Database } from '../../src/storage/schema.ts';
import type { User } from '../../src/services/accounts/store.ts';
import type { Booking } from '../../src/platform/bookings/store.ts';

export const T0 = 1_700_000_000_000;

/** One migrated database for the suite, the stores of both wings, and its drop after the suite. */
export function useServiceStores(name: Backend['name'], available: boolean): { database: TestDatabase; stores: PlatformStores } {
  const suite = {} as { database: TestDatabase; stores: PlatformStores };
  beforeAll(async () => {
    if (!available) return;
    suite.database = await createTestDatabase(name);
    suite.stores = createServiceStores(suite.database.handle.db);
  });
  afterAll(async () => suite.database?.drop());
  return suite;
}

export function uniqueId(prefix: string): string {
  return `${prefix}-${randomUUID()}`;
}

/** An organization with a unique id and slug; returns its id. */
export async function seedOrganization(db: Kysely<Database>): Promise<string> {
  const id = uniqueId('org');
  await db.insertInto('organizations').values({ id, name: 'Org', slug: id.toLowerCase(), created_at: T0, updated_at: T0 }).execute();
  return id;
}

export async function seedUser(db: Kysely<Database>): Promise<string> {
  const id = uniqueId('user');
  await db
    .insertInto('users')
    .values({
      id,
      email: `${id}@example.com`,
      name: 'Ada',
      username: id,
      password_hash: 'x',
      is_admin: 0,
      time_zone: 'UTC',
      week_start: 'Monday',
      time_format: 24,
      default_schedule_id: null,
      organization_id: null,
      created_at: T0,
      updated_at: T0,
    })
    .execute();
  return id;
}

export async function seedClient(
  db: Kysely<Database>,
  ownerId: string,
  options: Partial<Pick<ClientRecord, 'kind' | 'state' | 'redirectUris' | 'scopes' | 'resourceServer'>> = {},
): Promise<string> {
  const id = uniqueId('client');
  await db
    .insertInto('oauth_clients')
    .values({
      id,
      name: 'Calendar Sync',
      description: '',
      homepage_url: 'https://app.example.com',
      logo_url: null,
      owner_id: ownerId,
      kind: options.kind ?? 'confidential',
      redirect_uris: JSON.stringify(options.redirectUris ?? ['https://app.example.com/callback']),
      scopes: options.scopes === undefined ? 'PROFILE_READ' : options.scopes === null ? null : options.scopes.join(' '),
      state: options.state ?? 'approved',
      review_note: null,
      reviewed_by: null,
      reviewed_at: null,
      is_resource_server: options.resourceServer ? 1 : 0,
      proposed_redirect_uris: null,
      proposed_scopes: null,
      created_at: T0,
      updated_at: T0,
    })
    .execute();
  return id;
}

export async function seedSecret(db: Kysely<Database>, clientId: string, removedAt: number | null = null): Promise<string> {
  const id = uniqueId('secret');
  await db
    .insertInto('client_secrets')
    .values({ id, client_id: clientId, secret_hash: uniqueId('hash'), last_four: 'abcd', created_at: T0, last_used_at: null, removed_at: removedAt })
    .execute();
  return id;
}

export function grantRecord(userId: string, clientId: string, overrides: Partial<GrantRecord> = {}): GrantRecord {
  return { id: uniqueId('grant'), userId, clientId, scopes: ['PROFILE_READ'], createdAt: T0, revokedAt: null, ...overrides };
}

export function codeRecord(grant: GrantRecord, overrides: Partial<CodeRecord> = {}): CodeRecord {
  return {
    hash: uniqueId('code'),
    clientId: grant.clientId,
    userId: grant.userId,
    grantId: grant.id,
    redirectUri: 'https://app.example.com/callback',
    scopes: grant.scopes,
    codeChallenge: null,
    resources: null,
    nonce: null,
    authTime: null,
    createdAt: T0,
    expiresAt: T0 + 60_000,
    consumedAt: null,
    ...overrides,
  };
}

export function accessTokenRecord(grant: GrantRecord, overrides: Partial<AccessTokenRecord> = {}): AccessTokenRecord {
  return {
    hash: uniqueId('access'),
    grantId: grant.id,
    codeHash: null,
    clientId: grant.clientId,
    userId: grant.userId,
    scopes: grant.scopes,
    resources: null,
    createdAt: T0,
    expiresAt: T0 + 1_800_000,
    revokedAt: null,
    ...overrides,
  };
}

export function refreshTokenRecord(grant: GrantRecord, overrides: Partial<RefreshTokenRecord> = {}): RefreshTokenRecord {
  return {
    id: uniqueId('refresh'),
    hash: uniqueId('refresh-hash'),
    grantId: grant.id,
    codeHash: null,
    clientId: grant.clientId,
    userId: grant.userId,
    scopes: grant.scopes,
    resources: null,
    parentId: null,
    createdAt: T0,
    expiresAt: T0 + 86_400_000,
    spentAt: null,
    successorBox: null,
    revokedAt: null,
    ...overrides,
  };
}

/** A user record as the UserStore takes it, unique by id, e-mail and username. */
export function userRecord(over: Partial<User> = {}): User {
  const id = uniqueId('u');
  return {
    id,
    email: `${id}@example.com`.toLowerCase(),
    name: 'Store Test',
    username: id,
    passwordHash: 'not-a-hash',
    isAdmin: false,
    timeZone: 'UTC',
    weekStart: 'Monday',
    timeFormat: 24,
    defaultScheduleId: null,
    organizationId: null,
    createdAt: T0,
    updatedAt: T0,
    createdByOrganizationId: null,
    ...over,
  };
}

/** An hour-long accepted booking hosted by hostId, as the BookingStore takes it. */
export function bookingRecord(hostId: string, over: Partial<Booking> = {}): Booking {
  return {
    id: uniqueId('bn'),
    uid: uniqueId('b'),
    eventTypeId: null,
    hostId,
    teamId: null,
    title: 'Meeting',
    description: '',
    start: T0,
    end: T0 + 3_600_000,
    status: 'accepted',
    attendee: { name: 'Bo', email: 'bo@example.com', timeZone: 'UTC' },
    guests: [],
    location: '',
    cancellationReason: null,
    declineReason: null,
    rescheduledFrom: null,
    rescheduledTo: null,
    manageTokenHash: null,
    absentHost: false,
    responses: {},
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}
