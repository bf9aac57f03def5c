// Organizations, teams and their members (src/services/teams/teams.ts), called in process over
// SQLite :memory: through the real adapters: what a creation writes, the roles, and that a
// team or an organization never loses its last owner (docs/rules.md#membership-rules). What
// the API adds (scopes, the path's member check, the envelope) is tested in test/platform.
import { describe, expect } from 'vitest';
import {
  addMember,
  checkRole,
  checkSlug,
  checkTeamFields,
  createOrganization,
  createTeam,
  isAdmin,
  keepingAnOwner,
  kindOf,
  leave,
  LIST_LIMIT_MAX,
  listMembers,
  listMembershipsOfUser,
  listOrganizations,
  listTeams,
  removeMemberByEmail,
  ROLES,
  targetName,
  targetOf,
} from '../../src/services/teams/teams.ts';
import { it, type PlatformWorld } from './platform/world.ts';

/** The roles of a target's members, by user id. */
async function roles(world: PlatformWorld, target: { teamId: string } | { organizationId: string }): Promise<Record<string, string>> {
  return Object.fromEntries((await world.ctx.stores.teams.listMembers(target, 100)).map((m) => [m.userId, m.role]));
}

describe('creating organizations and teams (docs/rules.md#data)', () => {
  it('an organization is written with its owner as an accepted owner, which becomes the owner\'s organization (docs/rules.md#profile)', async ({ world }) => {
    const owner = await world.user();
    const org = await createOrganization(world.ctx, { name: '  Acme Corp ', ownerId: owner });
    expect(org).toMatchObject({ name: 'Acme Corp', slug: expect.stringMatching(/^acme-corp-[a-z0-9]+$/), createdAt: world.now() });
    expect(await world.ctx.stores.teams.findOrganization(org.id)).toEqual(org);
    expect(await roles(world, { organizationId: org.id })).toEqual({ [owner]: 'owner' });
    expect((await world.ctx.stores.users.findById(owner))?.organizationId).toBe(org.id);

    // The first organization stays the user's: a second one does not replace it.
    const second = await createOrganization(world.ctx, { name: 'Beta', ownerId: owner });
    expect((await world.ctx.stores.users.findById(owner))?.organizationId).toBe(org.id);
    expect(second.slug).not.toBe(org.slug);
  });

  it('a team is written with its owner, its defaults, and its organization when given', async ({ world }) => {
    const owner = await world.user();
    const org = await world.organization(owner);
    const team = await createTeam(world.ctx, { name: 'Sales', ownerId: owner, organizationId: org });
    expect(team).toMatchObject({ name: 'Sales', organizationId: org, bio: '', timeZone: 'UTC', brandColor: '#292929', slug: expect.stringMatching(/^sales-/) });
    expect(await world.ctx.stores.teams.findTeam(team.id)).toEqual(team);
    expect(await roles(world, { teamId: team.id })).toEqual({ [owner]: 'owner' });
    const other = await createTeam(world.ctx, { name: 'Sales', ownerId: owner });
    expect(other.slug).not.toBe(team.slug);
    expect(other.organizationId).toBeNull();
  });

  it('a taken slug is a conflict and writes neither the team nor its owner\'s membership', async ({ world }) => {
    const owner = await world.user();
    await createTeam(world.ctx, { name: 'Sales', ownerId: owner, slug: 'sales' });
    const before = await listMembershipsOfUser(world.ctx, owner);
    await expect(createTeam(world.ctx, { name: 'Other Sales', ownerId: owner, slug: 'sales' })).rejects.toMatchObject({ kind: 'conflict', field: 'slug', message: 'a team with slug "sales" already exists' });
    expect(await listMembershipsOfUser(world.ctx, owner)).toEqual(before);
    expect((await listTeams(world.ctx, {}, 10)).map((t) => t.name)).toEqual(['Sales']);
  });

  it('names, slugs, bios, time zones and colors are checked, naming the field; an unknown owner or organization is not found', async ({ world }) => {
    const owner = await world.user();
    const refused: [Parameters<typeof createTeam>[1], string][] = [
      [{ name: ' ', ownerId: owner }, 'name'],
      [{ name: 'x'.repeat(101), ownerId: owner }, 'name'],
      [{ name: 'Sales', ownerId: owner, slug: 'Sales' }, 'slug'],
      [{ name: 'Sales', ownerId: owner, slug: 'sales--east' }, 'slug'],
      [{ name: 'Sales', ownerId: owner, bio: 'x'.repeat(1001) }, 'bio'],
      [{ name: 'Sales', ownerId: owner, timeZone: 'Mars/Olympus' }, 'timeZone'],
      [{ name: 'Sales', ownerId: owner, brandColor: 'red' }, 'brandColor'],
    ];
    for (const [input, field] of refused) await expect(createTeam(world.ctx, input)).rejects.toMatchObject({ kind: 'validation', field });
    await expect(createTeam(world.ctx, { name: 'Sales\u0007', ownerId: owner })).rejects.toMatchObject({ kind: 'validation' });
    await expect(createTeam(world.ctx, { name: 'Sales', ownerId: '999999' })).rejects.toMatchObject({ kind: 'not_found', message: 'no user 999999' });
    await expect(createTeam(world.ctx, { name: 'Sales', ownerId: owner, organizationId: '999999' })).rejects.toMatchObject({ kind: 'not_found', message: 'no organization 999999' });
    await expect(createOrganization(world.ctx, { name: '', ownerId: owner })).rejects.toMatchObject({ kind: 'validation', field: 'name' });
    await expect(createOrganization(world.ctx, { name: 'Acme', ownerId: '999999' })).rejects.toMatchObject({ kind: 'not_found' });
    expect(await listTeams(world.ctx, {}, 10)).toEqual([]);
    expect(await listOrganizations(world.ctx, 10)).toEqual([]);

    expect(checkSlug('sales-east-2')).toBe('sales-east-2');
    expect(() => checkTeamFields({ bio: 'Hello', timeZone: 'Europe/Berlin', brandColor: '#1a2B3c' })).not.toThrow();
  });
});

describe('roles (docs/rules.md#membership-rules)', () => {
  it('a role is member, admin or owner; admins and owners may change a team', () => {
    expect(ROLES).toEqual(['member', 'admin', 'owner']);
    for (const role of ROLES) expect(checkRole(role)).toBe(role);
    expect(() => checkRole('Owner')).toThrow(expect.objectContaining({ kind: 'validation', field: 'role', message: 'role must be member, admin or owner, not "Owner"' }));
    expect([isAdmin('owner'), isAdmin('admin'), isAdmin('member'), isAdmin(null), isAdmin(undefined)]).toEqual([true, true, false, false, false]);
  });

  it('how a target is named, and what a membership is of', () => {
    expect([kindOf({ teamId: '7' }), kindOf({ organizationId: '8' })]).toEqual(['team', 'organization']);
    expect([targetName({ teamId: '7' }), targetName({ organizationId: '8' })]).toEqual(['team 7', 'organization 8']);
    expect(targetOf({ teamId: '7', organizationId: null })).toEqual({ teamId: '7' });
    expect(targetOf({ teamId: null, organizationId: '8' })).toEqual({ organizationId: '8' });
  });
});

describe("an operator's members (docs/rules.md#membership-invitations: gatehouse members add|remove)", () => {
  it('adding makes an accepted member at once, audited under the operator; seeding audits nothing', async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    const ada = await world.user();
    const grace = await world.user();
    world.advance(1000);
    const added = await addMember(world.ctx, { teamId }, ada, 'admin', 'cli');
    expect(added).toMatchObject({ userId: ada, teamId, organizationId: null, role: 'admin', createdAt: world.now() });
    expect(await world.ctx.stores.teams.findMembershipOfUser({ teamId }, ada)).toEqual(added);
    await addMember(world.ctx, { teamId }, grace, 'member');
    expect((await world.ctx.stores.auditLog.list({ userId: ada })).map((e) => [e.type, e.actorId, e.data])).toEqual([['membership.added', 'cli', { teamId, role: 'admin' }]]);
    expect(await world.ctx.stores.auditLog.list({ userId: grace })).toEqual([]);
  });

  it('adding someone twice is a conflict; an unknown user, team or organization is not found; a bad role is refused', async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    const ada = await world.user();
    await addMember(world.ctx, { teamId }, ada, 'member');
    await expect(addMember(world.ctx, { teamId }, ada, 'admin')).rejects.toMatchObject({ kind: 'conflict', field: 'user', message: 'that user is already a member of this team' });
    expect((await roles(world, { teamId }))[ada]).toBe('member');
    await expect(addMember(world.ctx, { teamId }, '999999', 'member')).rejects.toMatchObject({ kind: 'not_found', message: 'no user 999999' });
    await expect(addMember(world.ctx, { teamId: '999999' }, ada, 'member')).rejects.toMatchObject({ kind: 'not_found', message: 'no team 999999' });
    await expect(addMember(world.ctx, { organizationId: '999999' }, ada, 'member')).rejects.toMatchObject({ kind: 'not_found', message: 'no organization 999999' });
    await expect(addMember(world.ctx, { teamId }, ada, 'boss')).rejects.toMatchObject({ kind: 'validation', field: 'role' });
  });

  it('removing by address (in any case) takes the member away, audited; an organization\'s member stops reporting it as theirs', async ({ world }) => {
    const owner = await world.user();
    const organizationId = await world.organization(owner);
    const ada = await world.user({ email: 'ada@example.com' });
    await world.join({ organizationId }, ada, 'admin');
    expect((await world.ctx.stores.users.findById(ada))?.organizationId).toBe(organizationId);
    const removed = await removeMemberByEmail(world.ctx, { organizationId }, '  ADA@Example.com ', 'cli');
    expect(removed).toMatchObject({ userId: ada, role: 'admin' });
    expect(await world.ctx.stores.teams.findMembershipOfUser({ organizationId }, ada)).toBeUndefined();
    expect((await world.ctx.stores.users.findById(ada))?.organizationId).toBeNull();
    expect((await world.ctx.stores.auditLog.list({ userId: ada }))[0]).toMatchObject({ type: 'membership.removed', actorId: 'cli', data: { organizationId, role: 'admin' } });
  });

  it('removing names a member: an empty address is refused, a stranger or an unknown target is not found', async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    await world.user({ email: 'stranger@example.com' });
    await expect(removeMemberByEmail(world.ctx, { teamId }, ' ', 'cli')).rejects.toMatchObject({ kind: 'validation', field: 'email' });
    await expect(removeMemberByEmail(world.ctx, { teamId }, 'stranger@example.com', 'cli')).rejects.toMatchObject({ kind: 'not_found', message: `stranger@example.com is not a member of team ${teamId}` });
    await expect(removeMemberByEmail(world.ctx, { teamId: '999999' }, 'stranger@example.com', 'cli')).rejects.toMatchObject({ kind: 'not_found', message: 'no team 999999' });
  });
});

describe('a team or an organization keeps an owner (docs/rules.md#membership-rules)', () => {
  it('its last owner cannot be removed by an operator; once another is owner, they can', async ({ world }) => {
    const owner = await world.user({ email: 'owner@example.com' });
    const teamId = await world.team(owner);
    await expect(removeMemberByEmail(world.ctx, { teamId }, 'owner@example.com', 'cli')).rejects.toMatchObject({
      kind: 'conflict',
      message: `owner@example.com is the last owner of team ${teamId}: make another member an owner before removing them`,
    });
    expect(await roles(world, { teamId })).toEqual({ [owner]: 'owner' });
    const next = await world.user();
    await world.join({ teamId }, next, 'owner');
    await removeMemberByEmail(world.ctx, { teamId }, 'owner@example.com', 'cli');
    expect(await roles(world, { teamId })).toEqual({ [next]: 'owner' });
  });

  it('a member may always leave; the last owner may not, until another member is owner', async ({ world }) => {
    const owner = await world.user();
    const organizationId = await world.organization(owner);
    const ada = await world.user();
    await world.join({ organizationId }, ada, 'admin');
    const adas = await world.ctx.stores.teams.findMembershipOfUser({ organizationId }, ada);
    expect((await leave(world.ctx, ada, adas!.id)).userId).toBe(ada);
    expect(await roles(world, { organizationId })).toEqual({ [owner]: 'owner' });
    expect((await world.ctx.stores.users.findById(ada))?.organizationId).toBeNull();

    const owners = await world.ctx.stores.teams.findMembershipOfUser({ organizationId }, owner);
    await expect(leave(world.ctx, owner, owners!.id)).rejects.toMatchObject({ kind: 'conflict', message: 'you are the last owner of this organization: make another member an owner before you leave' });
    expect(await roles(world, { organizationId })).toEqual({ [owner]: 'owner' });
    const grace = await world.user();
    await world.join({ organizationId }, grace, 'owner');
    await leave(world.ctx, owner, owners!.id);
    expect(await roles(world, { organizationId })).toEqual({ [grace]: 'owner' });
  });

  it("only the member leaves by their membership: another's, or one already left, is not found", async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    const ada = await world.user();
    await world.join({ teamId }, ada);
    const adas = (await world.ctx.stores.teams.findMembershipOfUser({ teamId }, ada))!;
    await expect(leave(world.ctx, owner, adas.id)).rejects.toMatchObject({ kind: 'not_found', message: expect.stringContaining('you are not a member there') });
    expect((await roles(world, { teamId }))[ada]).toBe('member');
    await leave(world.ctx, ada, adas.id);
    await expect(leave(world.ctx, ada, adas.id)).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('the last owner cannot be demoted: the change runs only while another owner remains', async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    const owners = (await world.ctx.stores.teams.findMembershipOfUser({ teamId }, owner))!;
    const demote = (id: string) => keepingAnOwner(world.ctx, { teamId }, true, 'the team needs an owner', (tx) => tx.teams.setMembershipRole(id, 'admin', world.now()));
    await expect(demote(owners.id)).rejects.toMatchObject({ kind: 'conflict', message: 'the team needs an owner' });
    expect(await roles(world, { teamId })).toEqual({ [owner]: 'owner' });

    // A change that takes no owner away runs whatever the count.
    const ada = await world.user();
    await world.join({ teamId }, ada);
    const adas = (await world.ctx.stores.teams.findMembershipOfUser({ teamId }, ada))!;
    await keepingAnOwner(world.ctx, { teamId }, false, 'unused', (tx) => tx.teams.setMembershipRole(adas.id, 'owner', world.now()));
    await demote(owners.id);
    expect(await roles(world, { teamId })).toEqual({ [owner]: 'admin', [ada]: 'owner' });
    expect((await listMembershipsOfUser(world.ctx, ada)).find((m) => m.teamId === teamId)?.owners).toBe(1);
  });
});

describe("an operator's lists (gatehouse orgs|teams|members list)", () => {
  it('organizations and teams are listed oldest first with their counts; a team list may be one organization\'s', async ({ world }) => {
    const owner = await world.user();
    const acme = await world.organization(owner, 'Acme');
    world.advance(1000);
    const beta = await world.organization(owner, 'Beta');
    const sales = await world.team(owner, { name: 'Sales', organizationId: acme });
    world.advance(1000);
    await world.team(owner, { name: 'Loose' });
    await world.join({ teamId: sales }, await world.user());
    expect((await listOrganizations(world.ctx, 10)).map((o) => [o.name, o.members, o.teams])).toEqual([
      ['Acme', 1, 1],
      ['Beta', 1, 0],
    ]);
    expect((await listTeams(world.ctx, {}, 10)).map((t) => [t.name, t.organizationName, t.members])).toEqual([
      ['Sales', 'Acme', 2],
      ['Loose', null, 1],
    ]);
    expect((await listTeams(world.ctx, { organizationId: beta }, 10))).toEqual([]);
    expect((await listTeams(world.ctx, {}, 1)).map((t) => t.name)).toEqual(['Sales']);
    await expect(listTeams(world.ctx, { organizationId: '999999' }, 10)).rejects.toMatchObject({ kind: 'not_found', message: 'no organization 999999' });
  });

  it("a target's members are listed oldest first with their address; an unknown target is not found", async ({ world }) => {
    const owner = await world.user({ email: 'owner@example.com' });
    const teamId = await world.team(owner);
    world.advance(1000);
    await world.join({ teamId }, await world.user({ email: 'ada@example.com' }), 'admin');
    expect((await listMembers(world.ctx, { teamId }, 10)).map((m) => [m.email, m.role])).toEqual([
      ['owner@example.com', 'owner'],
      ['ada@example.com', 'admin'],
    ]);
    await expect(listMembers(world.ctx, { teamId: '999999' }, 10)).rejects.toMatchObject({ kind: 'not_found' });
  });

  it(`a list's limit is a whole number from 1 to ${LIST_LIMIT_MAX}`, async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    for (const limit of [0, -1, 1.5, LIST_LIMIT_MAX + 1, Number.NaN]) {
      // listOrganizations is not async: its refusal is thrown, not returned as a rejection.
      expect(() => listOrganizations(world.ctx, limit)).toThrow(expect.objectContaining({ kind: 'validation', field: 'limit' }));
      await expect(listTeams(world.ctx, {}, limit)).rejects.toMatchObject({ kind: 'validation', field: 'limit' });
      await expect(listMembers(world.ctx, { teamId }, limit)).rejects.toMatchObject({ kind: 'validation', field: 'limit' });
    }
    expect(await listMembers(world.ctx, { teamId }, LIST_LIMIT_MAX)).toHaveLength(1);
  });

  it("a user's memberships name what they are of and how many owners it has", async ({ world }) => {
    const owner = await world.user();
    const org = await world.organization(owner, 'Acme');
    const teamId = await world.team(owner, { name: 'Sales', organizationId: org });
    const ada = await world.user();
    await world.join({ teamId }, ada, 'owner');
    const listed = await listMembershipsOfUser(world.ctx, owner);
    expect(listed.map((m) => [m.targetName, m.teamOrgName, m.role, m.owners])).toEqual([
      ['Acme', null, 'owner', 1],
      ['Sales', 'Acme', 'owner', 2],
    ]);
  });
});
