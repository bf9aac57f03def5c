// The contracts of the accounts and teams stores (services/accounts/store.ts,
// services/teams/store.ts) on both backends: what a duplicate answers, and that it leaves the
// caller's transaction usable; what a missing, expired or already-taken row answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceStores } from '../../src/services/stores.ts';
import { createServiceStores } from '../../src/storage/stores/index.ts';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';
import { userRecord } from './seed.ts';


describe.each(backends)('account and team stores on $name', ({ name, available }) => {
  let database: TestDatabase;
  let stores: ServiceStores;

  beforeAll(async () => {
    if (!available) return;
    database = await createTestDatabase(name);
    stores = createServiceStores(database.handle.db);
  });
  afterAll(async () => database?.drop());

  it.skipIf(!available)('UserStore: a taken email answers false, and the transaction it ran in still commits', async () => {
    const first = userRecord({ isAdmin: true });
    expect(await stores.users.insert(first)).toBe(true);
    const second = userRecord();
    await stores.transaction(async (tx) => {
      expect(await tx.users.insert(userRecord({ email: first.email }))).toBe(false);
      expect(await tx.users.insert(second)).toBe(true);
    });
    expect(await stores.users.findByEmail(first.email)).toEqual(first);
    expect(await stores.users.findById(second.id)).toEqual(second);
    expect(await stores.users.findById('no-such-user')).toBeUndefined();
    expect(await stores.users.updateProfile('no-such-user', { name: 'x' }, 2)).toBeUndefined();
    expect(await stores.users.updateProfile(second.id, { name: 'Renamed', timeFormat: 12 }, 2)).toMatchObject({ name: 'Renamed', timeFormat: 12, updatedAt: 2 });
  });

  it.skipIf(!available)('SessionStore: a live session finds its user; an expired or deleted one is undefined', async () => {
    const owner = userRecord();
    await stores.users.insert(owner);
    await stores.sessions.insert({ idHash: `h-${owner.id}`, userId: owner.id, createdAt: 10, expiresAt: 100 });
    expect(await stores.sessions.findLive(`h-${owner.id}`, 99)).toEqual({ user: owner, createdAt: 10 });
    expect(await stores.sessions.findLive(`h-${owner.id}`, 100)).toBeUndefined();
    await stores.sessions.delete(`h-${owner.id}`);
    await stores.sessions.delete(`h-${owner.id}`);
    expect(await stores.sessions.findLive(`h-${owner.id}`, 50)).toBeUndefined();
  });

  it.skipIf(!available)('TeamStore and InvitationStore: duplicates answer false; an invitation is taken once', async () => {
    const owner = userRecord();
    await stores.users.insert(owner);
    const team = { id: `t-${owner.id}`, organizationId: null, name: 'T', slug: `t-${owner.id}`.toLowerCase(), bio: '', timeZone: 'UTC', brandColor: '#292929', createdAt: 1, updatedAt: 1 };
    expect(await stores.teams.insertTeam(team)).toBe(true);
    expect(await stores.teams.insertTeam({ ...team, id: `${team.id}-2` })).toBe(false);
    const membership = { id: `m-${owner.id}`, userId: owner.id, teamId: team.id, organizationId: null, role: 'owner' as const, createdAt: 1, updatedAt: 1 };
    await stores.transaction(async (tx) => {
      expect(await tx.teams.insertMembership(membership)).toBe(true);
      expect(await tx.teams.insertMembership({ ...membership, id: `${membership.id}-2` })).toBe(false);
    });
    expect(await stores.teams.countOwners({ teamId: team.id })).toBe(1);
    const invitation = { id: `i-${owner.id}`, teamId: team.id, organizationId: null, email: 'invitee@example.com', userId: null, role: 'member' as const, invitedBy: owner.id, createdAt: 1, updatedAt: 1 };
    expect(await stores.invitations.insert(invitation)).toBe(true);
    expect(await stores.invitations.insert({ ...invitation, id: `${invitation.id}-2` })).toBe(false);
    const invitee = { id: 'someone', email: 'invitee@example.com' };
    expect(await stores.invitations.listFor(invitee)).toEqual([{ ...invitation, targetName: 'T', teamOrgName: null, inviterName: 'Store Test' }]);
    expect(await stores.invitations.take(invitation.id, { id: 'other', email: 'other@example.com' })).toBeUndefined();
    expect(await stores.invitations.take(invitation.id, invitee)).toEqual(invitation);
    expect(await stores.invitations.take(invitation.id, invitee)).toBeUndefined();
  });
});
