// The contracts of the accounts and teams stores (services/accounts/store.ts,
// services/teams/store.ts) on both backends: what a duplicate answers, and that it leaves the
// caller's transaction usable; what a missing, expired or already-taken row answers.
import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { userRecord, useServiceStores } from './seed.ts';

describe.each(backends)('account and team stores on $name', ({ name, available }) => {
  const suite = useServiceStores(name, available);

  it.skipIf(!available)('UserStore: a taken email answers false, and the transaction it ran in still commits', async () => {
    const first = userRecord({ isAdmin: true });
    expect(await suite.stores.users.insert(first)).toBe(true);
    const second = userRecord();
    await suite.stores.transaction(async (tx) => {
      expect(await tx.users.insert(userRecord({ email: first.email }))).toBe(false);
      expect(await tx.users.insert(second)).toBe(true);
    });
    expect(await suite.stores.users.findByEmail(first.email)).toEqual(first);
    expect(await suite.stores.users.findById(second.id)).toEqual(second);
    expect(await suite.stores.users.findById('no-such-user')).toBeUndefined();
    expect(await suite.stores.users.updateProfile('no-such-user', { name: 'x' }, 2)).toBeUndefined();
    expect(await suite.stores.users.updateProfile(second.id, { name: 'Renamed', timeFormat: 12 }, 2)).toMatchObject({ name: 'Renamed', timeFormat: 12, updatedAt: 2 });
  });

  it.skipIf(!available)("UserStore.setEmail: another account's address answers false inside a transaction that still commits; the user's own change lands", async () => {
    const [a, b] = [userRecord(), userRecord()];
    for (const u of [a, b]) expect(await suite.stores.users.insert(u)).toBe(true);
    const moved = `moved-${a.id}@example.com`;
    await suite.stores.transaction(async (tx) => {
      expect(await tx.users.setEmail(a.id, b.email, 5)).toBe(false);
      expect(await tx.users.setEmail(a.id, moved, 5)).toBe(true);
    });
    expect(await suite.stores.users.findById(a.id)).toMatchObject({ email: moved, updatedAt: 5 });
    expect(await suite.stores.users.findById(b.id)).toEqual(b);
    expect(await suite.stores.users.setEmail('no-such-user', 'x@example.com', 5)).toBe(false);
  });

  it.skipIf(!available)('UserStore email changes: one per user, a newer one replaces it, deleting answers whether there was one; they go with the account', async () => {
    const u = userRecord();
    await suite.stores.users.insert(u);
    const first = { userId: u.id, email: 'first@example.com', clientId: null, requestedAt: 1, expiresAt: 100 };
    await suite.stores.users.putEmailChange(first);
    expect(await suite.stores.users.findEmailChange(u.id)).toEqual({ ...first, clientName: null });
    const second = { ...first, email: 'second@example.com', requestedAt: 2, expiresAt: 200 };
    await suite.stores.users.putEmailChange(second);
    expect(await suite.stores.users.findEmailChange(u.id)).toEqual({ ...second, clientName: null });
    expect(await suite.stores.users.deleteEmailChange(u.id)).toBe(true);
    expect(await suite.stores.users.deleteEmailChange(u.id)).toBe(false);
    expect(await suite.stores.users.findEmailChange(u.id)).toBeUndefined();
    await suite.stores.users.putEmailChange(first);
    expect(await suite.stores.users.deleteUnlessClientsOrGrants(u.id)).toBe(true);
    expect(await suite.stores.users.findEmailChange(u.id)).toBeUndefined();
  });

  it.skipIf(!available)('NoticeStore: a notice is taken once, only by its session, only before it expires; the session ending drops it', async () => {
    const owner = userRecord();
    await suite.stores.users.insert(owner);
    const [mine, other] = [`n-${owner.id}-a`, `n-${owner.id}-b`];
    await suite.stores.sessions.insert({ idHash: mine, userId: owner.id, createdAt: 10, expiresAt: 10_000 });
    await suite.stores.sessions.insert({ idHash: other, userId: owner.id, createdAt: 10, expiresAt: 10_000 });
    await suite.stores.notices.insert({ id: `${mine}-1`, sessionHash: mine, sealed: 'sealed-1', createdAt: 10, expiresAt: 100 });
    expect(await suite.stores.notices.take(`${mine}-1`, other, 20)).toBeUndefined();
    expect(await suite.stores.notices.take(`${mine}-1`, mine, 20)).toBe('sealed-1');
    expect(await suite.stores.notices.take(`${mine}-1`, mine, 20)).toBeUndefined();
    // Two concurrent takes: exactly one gets the text.
    await suite.stores.notices.insert({ id: `${mine}-2`, sessionHash: mine, sealed: 'sealed-2', createdAt: 10, expiresAt: 100 });
    const raced = await Promise.all([suite.stores.notices.take(`${mine}-2`, mine, 20), suite.stores.notices.take(`${mine}-2`, mine, 20)]);
    expect(raced.filter((r) => r === 'sealed-2')).toHaveLength(1);
    // Expired: not returned; and the next insert of the session clears it away.
    await suite.stores.notices.insert({ id: `${mine}-3`, sessionHash: mine, sealed: 'sealed-3', createdAt: 10, expiresAt: 100 });
    expect(await suite.stores.notices.take(`${mine}-3`, mine, 100)).toBeUndefined();
    await suite.stores.notices.insert({ id: `${mine}-4`, sessionHash: mine, sealed: 'sealed-4', createdAt: 10, expiresAt: 100 });
    await suite.stores.notices.insert({ id: `${mine}-5`, sessionHash: mine, sealed: 'sealed-5', createdAt: 200, expiresAt: 300 });
    expect(await suite.stores.notices.take(`${mine}-4`, mine, 50)).toBeUndefined();
    // A notice of no session is refused; ending the session drops its notices.
    await expect(suite.stores.notices.insert({ id: 'orphan', sessionHash: 'no-such-session', sealed: 'x', createdAt: 1, expiresAt: 2 })).rejects.toThrow();
    await suite.stores.sessions.delete(mine);
    expect(await suite.stores.notices.take(`${mine}-5`, mine, 250)).toBeUndefined();
  });

  it.skipIf(!available)('SessionStore: a live session finds its user; an expired or deleted one is undefined', async () => {
    const owner = userRecord();
    await suite.stores.users.insert(owner);
    await suite.stores.sessions.insert({ idHash: `h-${owner.id}`, userId: owner.id, createdAt: 10, expiresAt: 100 });
    expect(await suite.stores.sessions.findLive(`h-${owner.id}`, 99)).toEqual({ user: owner, createdAt: 10 });
    expect(await suite.stores.sessions.findLive(`h-${owner.id}`, 100)).toBeUndefined();
    await suite.stores.sessions.delete(`h-${owner.id}`);
    await suite.stores.sessions.delete(`h-${owner.id}`);
    expect(await suite.stores.sessions.findLive(`h-${owner.id}`, 50)).toBeUndefined();
  });

  it.skipIf(!available)('TeamStore and InvitationStore: duplicates answer false; an invitation is taken once', async () => {
    const owner = userRecord();
    await suite.stores.users.insert(owner);
    const team = { id: `t-${owner.id}`, organizationId: null, name: 'T', slug: `t-${owner.id}`.toLowerCase(), bio: '', timeZone: 'UTC', brandColor: '#292929', createdAt: 1, updatedAt: 1 };
    expect(await suite.stores.teams.insertTeam(team)).toBe(true);
    expect(await suite.stores.teams.insertTeam({ ...team, id: `${team.id}-2` })).toBe(false);
    const membership = { id: `m-${owner.id}`, userId: owner.id, teamId: team.id, organizationId: null, role: 'owner' as const, createdAt: 1, updatedAt: 1 };
    await suite.stores.transaction(async (tx) => {
      expect(await tx.teams.insertMembership(membership)).toBe(true);
      expect(await tx.teams.insertMembership({ ...membership, id: `${membership.id}-2` })).toBe(false);
    });
    expect(await suite.stores.teams.countOwners({ teamId: team.id })).toBe(1);
    const invitation = { id: `i-${owner.id}`, teamId: team.id, organizationId: null, email: 'invitee@example.com', userId: null, role: 'member' as const, invitedBy: owner.id, createdAt: 1, updatedAt: 1 };
    expect(await suite.stores.invitations.insert(invitation)).toBe(true);
    expect(await suite.stores.invitations.insert({ ...invitation, id: `${invitation.id}-2` })).toBe(false);
    const invitee = { id: 'someone', email: 'invitee@example.com' };
    expect(await suite.stores.invitations.listFor(invitee)).toEqual([{ ...invitation, targetName: 'T', teamOrgName: null, inviterName: 'Store Test' }]);
    expect(await suite.stores.invitations.take(invitation.id, { id: 'other', email: 'other@example.com' })).toBeUndefined();
    expect(await suite.stores.invitations.take(invitation.id, invitee)).toEqual(invitation);
    expect(await suite.stores.invitations.take(invitation.id, invitee)).toBeUndefined();
  });

  it.skipIf(!available)('TeamStore lists: organizations, teams (all or one organization\'s) and members, oldest first then by id, with counts, at most the limit', async () => {
    const owner = userRecord();
    const other = userRecord();
    await suite.stores.users.insert(owner);
    await suite.stores.users.insert(other);
    const tag = owner.id.toLowerCase();
    // Two organizations created at the same instant: the id decides their order.
    const [orgA, orgB] = [`oa-${tag}`, `ob-${tag}`];
    for (const id of [orgB, orgA]) await suite.stores.teams.insertOrganization({ id, name: `Org ${id}`, slug: id, createdAt: 5, updatedAt: 5 });
    const team = (id: string, organizationId: string | null, createdAt: number) => ({ id, organizationId, name: `Team ${id}`, slug: id, bio: '', timeZone: 'UTC', brandColor: '#292929', createdAt, updatedAt: createdAt });
    const [inA, alone] = [team(`ta-${tag}`, orgA, 7), team(`tz-${tag}`, null, 6)];
    for (const t of [inA, alone]) expect(await suite.stores.teams.insertTeam(t)).toBe(true);
    const member = (id: string, userId: string, target: { teamId: string } | { organizationId: string }, role: 'member' | 'owner', createdAt: number) => ({
      id,
      userId,
      teamId: 'teamId' in target ? target.teamId : null,
      organizationId: 'organizationId' in target ? target.organizationId : null,
      role,
      createdAt,
      updatedAt: createdAt,
    });
    const later = member(`m2-${tag}`, other.id, { teamId: inA.id }, 'member', 9);
    const first = member(`m1-${tag}`, owner.id, { teamId: inA.id }, 'owner', 8);
    for (const m of [later, first, member(`m3-${tag}`, owner.id, { organizationId: orgA }, 'owner', 8)]) expect(await suite.stores.teams.insertMembership(m)).toBe(true);

    const orgs = (await suite.stores.teams.listOrganizations(1000)).filter((o) => o.id.endsWith(tag));
    expect(orgs).toEqual([
      { id: orgA, name: `Org ${orgA}`, slug: orgA, createdAt: 5, updatedAt: 5, members: 1, teams: 1 },
      { id: orgB, name: `Org ${orgB}`, slug: orgB, createdAt: 5, updatedAt: 5, members: 0, teams: 0 },
    ]);
    const teams = (await suite.stores.teams.listTeams({}, 1000)).filter((t) => t.id.endsWith(tag));
    expect(teams).toEqual([
      { ...alone, organizationName: null, members: 0 },
      { ...inA, organizationName: `Org ${orgA}`, members: 2 },
    ]);
    expect(await suite.stores.teams.listTeams({ organizationId: orgA }, 10)).toEqual([{ ...inA, organizationName: `Org ${orgA}`, members: 2 }]);
    expect(await suite.stores.teams.listTeams({ organizationId: orgB }, 10)).toEqual([]);
    expect(await suite.stores.teams.listTeams({ organizationId: 'no-such-org' }, 10)).toEqual([]);
    expect(await suite.stores.teams.listTeams({ organizationId: orgA }, 1)).toHaveLength(1);

    expect(await suite.stores.teams.listMembers({ teamId: inA.id }, 10)).toEqual([
      { ...first, email: owner.email, name: owner.name },
      { ...later, email: other.email, name: other.name },
    ]);
    expect(await suite.stores.teams.listMembers({ teamId: inA.id }, 1)).toEqual([{ ...first, email: owner.email, name: owner.name }]);
    expect((await suite.stores.teams.listMembers({ organizationId: orgA }, 10)).map((m) => m.id)).toEqual([`m3-${tag}`]);
    expect(await suite.stores.teams.listMembers({ teamId: alone.id }, 10)).toEqual([]);
    expect(await suite.stores.teams.listMembers({ organizationId: 'no-such-org' }, 10)).toEqual([]);
    // An invitation is no member.
    await suite.stores.invitations.insert({ id: `i-${tag}`, teamId: alone.id, organizationId: null, email: 'someone@example.com', userId: null, role: 'member', invitedBy: owner.id, createdAt: 10, updatedAt: 10 });
    expect(await suite.stores.teams.listMembers({ teamId: alone.id }, 10)).toEqual([]);
  });

  it.skipIf(!available)('TeamStore.findTeams and listMembersOfTeams: several teams in one read each, each team as findTeam and listMembers answer it', async () => {
    const [owner, other, third] = [userRecord(), userRecord(), userRecord()];
    for (const u of [owner, other, third]) await suite.stores.users.insert(u);
    const tag = owner.id.toLowerCase();
    const team = (id: string, createdAt: number) => ({ id, organizationId: null, name: `Team ${id}`, slug: id, bio: '', timeZone: 'UTC', brandColor: '#292929', createdAt, updatedAt: createdAt });
    const [a, b, empty] = [team(`tma-${tag}`, 3), team(`tmb-${tag}`, 4), team(`tme-${tag}`, 5)];
    for (const t of [a, b, empty]) expect(await suite.stores.teams.insertTeam(t)).toBe(true);
    const member = (id: string, userId: string, teamId: string, createdAt: number) => ({ id, userId, teamId, organizationId: null, role: 'member' as const, createdAt, updatedAt: createdAt });
    // Inserted out of order: the lists are oldest first, then by id, per team.
    for (const m of [member(`m3-${tag}`, third.id, a.id, 9), member(`m2-${tag}`, other.id, a.id, 8), member(`m1-${tag}`, owner.id, a.id, 8), member(`m4-${tag}`, owner.id, b.id, 1)]) {
      expect(await suite.stores.teams.insertMembership(m)).toBe(true);
    }
    await suite.stores.invitations.insert({ id: `i-${tag}`, teamId: empty.id, organizationId: null, email: 'someone@example.com', userId: null, role: 'member', invitedBy: owner.id, createdAt: 10, updatedAt: 10 });

    const found = await suite.stores.teams.findTeams([b.id, a.id, 'no-such-team', a.id]);
    expect(found.sort((x, y) => x.id.localeCompare(y.id))).toEqual([a, b]);
    expect(await suite.stores.teams.findTeams([])).toEqual([]);

    const ids = [a.id, b.id, empty.id, 'no-such-team'];
    for (const limit of [1, 2, 10]) {
      const members = await suite.stores.teams.listMembersOfTeams(ids, limit);
      expect([...members.keys()]).toEqual(ids);
      for (const id of ids) {
        const one = id === 'no-such-team' ? [] : await suite.stores.teams.listMembers({ teamId: id }, limit);
        expect(members.get(id)).toEqual(one);
      }
    }
    expect((await suite.stores.teams.listMembersOfTeams(ids, 10)).get(a.id)!.map((m) => m.id)).toEqual([`m1-${tag}`, `m2-${tag}`, `m3-${tag}`]);
    expect((await suite.stores.teams.listMembersOfTeams([], 10)).size).toBe(0);
  });
});
