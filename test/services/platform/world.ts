// The platform's services as their unit tests drive them: a PlatformContext over SQLite
// :memory: through the real adapters, as app.ts builds it for the server, with a clock the
// test moves. People and teams are made through the stores and the authorization server's
// services, never raw SQL, so a renamed column breaks the storage contract suite and not
// these tests. The `it` below gives every test a world of its own (a migration on :memory:
// takes milliseconds), so no test sees another's rows.
import { test } from 'vitest';
import type { OAuthStore } from '../../../src/oauth/storage.ts';
import type { EventTypeOwner } from '../../../src/platform/event-types/store.ts';
import type { PlatformContext } from '../../../src/platform/stores.ts';
import { createClient, type CreatedClient, type NewClient } from '../../../src/services/clients/registration.ts';
import type { Role } from '../../../src/services/teams/store.ts';
import { addMember, createOrganization, createTeam } from '../../../src/services/teams/teams.ts';
import { openDatabase } from '../../../src/storage/database.ts';
import { migrateToLatest } from '../../../src/storage/migrator.ts';
import { createServiceContext } from '../../../src/storage/stores/index.ts';
import { createOAuthStore } from '../../../src/storage/stores/oauth.ts';
import { userRecord } from '../../storage/seed.ts';
import { slotStart } from '../../helpers/slot-starts.ts';

/** When every world's clock starts (November 2023): far from 0, so an unset time shows. */
export const T0 = 1_700_000_000_000;

/**
 * 09:00 UTC on the first Monday at least a day after the world's clock: the start of a working
 * day of every user the world makes (UTC, Cal.com's default week), so `workday(world) + k hours`
 * for k from 0 to 7 is a slot a booking may take (docs/rules.md#booking-availability).
 */
export const workday = (world: PlatformWorld): number => slotStart(world.now(), 0);

export interface PlatformWorld {
  /** What a platform service takes: both wings' stores and the clock. */
  ctx: PlatformContext;
  /** The protocol core's store over the same database: what the token endpoint reads of a client, the authorization requests it records. */
  oauth: OAuthStore;
  now(): number;
  /** Moves the clock forward by `ms`. */
  advance(ms: number): void;
  /** A new user with a numbered id, as `users create` makes one; returns the id. */
  user(over?: { email?: string; name?: string; timeZone?: string }): Promise<string>;
  /** A new organization owned by `ownerId`; returns its id. */
  organization(ownerId: string, name?: string): Promise<string>;
  /** A new team owned by `ownerId` (inside an organization if given); returns its id. */
  team(ownerId: string, options?: { name?: string; organizationId?: string }): Promise<string>;
  /** An event type of a user or a team, written through its store as the event-type routes keep one; returns its id. */
  eventType(owner: EventTypeOwner): Promise<string>;
  /** Makes `userId` an accepted member of the team or organization with `role`. */
  join(target: { teamId: string } | { organizationId: string }, userId: string, role?: Role): Promise<void>;
  /** A new OAuth client of `ownerId` through the developer's service (pending, confidential, PROFILE_READ unless `over` says otherwise). */
  client(ownerId: string, over?: Partial<NewClient>): Promise<CreatedClient>;
  close(): Promise<void>;
}

export async function openPlatformWorld(): Promise<PlatformWorld> {
  const handle = openDatabase('sqlite::memory:');
  await migrateToLatest(handle);
  let now = T0;
  // The cheaper of the two password-hash costs: the services that make accounts with a
  // password (dynamic registration's built-in owner) hash one (test/helpers/password-hashing.ts).
  const ctx = createServiceContext(handle.db, () => now, { passwordHashing: 'owasp' });
  let teams = 0;
  return {
    ctx,
    oauth: createOAuthStore(handle.db),
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
    user: async (over = {}) => {
      const id = await ctx.stores.ids.next('users');
      await ctx.stores.users.insert(userRecord({ id, username: `user-${id}`, email: `user-${id}@example.com`, ...over }));
      return id;
    },
    organization: async (ownerId, name = 'Acme') => (await createOrganization(ctx, { name, ownerId })).id,
    team: async (ownerId, options = {}) => {
      teams += 1;
      const team = await createTeam(ctx, { name: options.name ?? `Team ${teams}`, slug: `team-${teams}-${now}`, ownerId, ...(options.organizationId ? { organizationId: options.organizationId } : {}) });
      return team.id;
    },
    eventType: async (owner) => {
      const id = await ctx.stores.ids.next('event_types');
      const team = 'teamId' in owner;
      await ctx.stores.api.eventTypes.insert({
        id,
        ownerId: team ? null : owner.userId,
        teamId: team ? owner.teamId : null,
        title: 'Intro call',
        slug: `intro-${id}`,
        description: '',
        lengthMinutes: 30,
        locations: [],
        bookingFields: [],
        hidden: false,
        requiresConfirmation: false,
        minimumBookingNotice: 0,
        schedulingType: team ? 'collective' : null,
        createdAt: now,
        updatedAt: now,
      });
      return id;
    },
    join: async (target, userId, role = 'member') => {
      await addMember(ctx, target, userId, role);
    },
    client: (ownerId, over = {}) =>
      createClient(ctx, { ownerId, name: 'Calendar Sync', kind: 'confidential', redirectUris: ['https://app.example.com/callback'], scopes: ['PROFILE_READ'], ...over }),
    close: () => handle.close(),
  };
}

/** `it` with a fresh world in its context: `it('…', async ({ world }) => …)`. */
export const it = test.extend<{ world: PlatformWorld }>({
  // Vitest reads a fixture's dependencies from its first parameter's pattern: this one has none.
  world: async ({}, use) => {
    const world = await openPlatformWorld();
    await use(world);
    await world.close();
  },
});
