// The team routes' service (src/platform/teams/service.ts), called in process: a team is made
// with its owner's membership, renamed with the checks its creation takes, listed per member
// and per organization, and deleted only by an owner. What only HTTP shows (the guard's roles,
// a team's token seeing its one team) is tested in test/platform/teams*.test.ts.
import { describe, expect } from 'vitest';
import { createOwnTeam, deleteTeam, findTeam, listTeamsOfOrganization, listTeamsOfUser, updateTeam } from '../../../src/platform/teams/service.ts';
import { addMembership } from '../../../src/platform/memberships/service.ts';
import { it } from './world.ts';

describe('teams', () => {
  it('a new team is made with its owner as owner, at the clock, in the organization given', async ({ world }) => {
    const owner = await world.user();
    const organizationId = await world.organization(owner);
    const made = await createOwnTeam(world.ctx, owner, organizationId, { name: ' Support ', slug: 'support', timeZone: 'Europe/Berlin' }, 'client-1');
    expect(made).toMatchObject({ name: 'Support', slug: 'support', timeZone: 'Europe/Berlin', organizationId, createdAt: world.now() });
    expect(await world.ctx.stores.teams.findMembershipOfUser({ teamId: made.id }, owner)).toMatchObject({ role: 'owner' });
    expect(await findTeam(world.ctx, made.id)).toEqual(made);
    await expect(createOwnTeam(world.ctx, owner, null, { name: 'Other', slug: 'support' }, null)).rejects.toMatchObject({ kind: 'conflict' });
  });

  it('docs/rules.md#audit-events: a new team is audited as team.created by its owner, through the application, in its organization; a refused one writes none', async ({ world }) => {
    const owner = await world.user();
    const organizationId = await world.organization(owner);
    const own = await createOwnTeam(world.ctx, owner, null, { name: 'Side project', slug: 'side' }, 'client-1');
    const inOrg = await createOwnTeam(world.ctx, owner, organizationId, { name: 'Org team', slug: 'org-team' }, 'client-1');
    await expect(createOwnTeam(world.ctx, owner, organizationId, { name: 'Again', slug: 'org-team' }, 'client-1')).rejects.toMatchObject({ kind: 'conflict' });
    const events = (await world.ctx.stores.auditLog.list({ userId: owner, limit: 100 })).filter((e) => e.type === 'team.created').reverse();
    expect(events).toEqual([
      { id: expect.any(Number), type: 'team.created', actorId: owner, clientId: 'client-1', userId: owner, data: { teamId: own.id, organizationId: null }, createdAt: world.now() },
      { id: expect.any(Number), type: 'team.created', actorId: owner, clientId: 'client-1', userId: owner, data: { teamId: inOrg.id, organizationId }, createdAt: world.now() },
    ]);
  });

  it('a rename is checked as a creation is, a taken slug is a conflict naming the slug, and nothing is written', async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner, { name: 'Sales' });
    const other = await createOwnTeam(world.ctx, owner, null, { name: 'Ops', slug: 'ops' }, null);
    await expect(updateTeam(world.ctx, teamId, { name: 'Sales\u001b[2J' })).rejects.toMatchObject({ kind: 'validation' });
    await expect(updateTeam(world.ctx, teamId, { name: 'Sales\u202e' })).rejects.toMatchObject({ kind: 'validation' });
    await expect(updateTeam(world.ctx, teamId, { slug: other.slug })).rejects.toMatchObject({ kind: 'conflict', message: 'slug: a team with slug "ops" already exists' });
    expect((await findTeam(world.ctx, teamId)).name).toBe('Sales');
    world.advance(60_000);
    const renamed = await updateTeam(world.ctx, teamId, { name: ' Sales EMEA ', bio: 'Deals', brandColor: '#112233' });
    expect(renamed).toMatchObject({ name: 'Sales EMEA', bio: 'Deals', brandColor: '#112233', updatedAt: world.now() });
    expect(await findTeam(world.ctx, teamId)).toEqual(renamed);
  });

  it("a user's teams are those they belong to, an organization's filter keeps its own; an organization lists its teams", async ({ world }) => {
    const owner = await world.user();
    const organizationId = await world.organization(owner);
    const inOrg = await world.team(owner, { organizationId });
    const outside = await world.team(owner);
    const stranger = await world.team(await world.user());
    expect((await listTeamsOfUser(world.ctx, owner, {}, 100, 0)).map((t) => t.id)).toEqual([inOrg, outside]);
    expect((await listTeamsOfUser(world.ctx, owner, { organizationId }, 100, 0)).map((t) => t.id)).toEqual([inOrg]);
    expect((await listTeamsOfUser(world.ctx, owner, {}, 1, 1)).map((t) => t.id)).toEqual([outside]);
    expect((await listTeamsOfOrganization(world.ctx, organizationId, 100, 0)).map((t) => t.id)).toEqual([inOrg]);
    expect((await listTeamsOfUser(world.ctx, owner, {}, 100, 0)).map((t) => t.id)).not.toContain(stranger);
    // docs/rules.md#membership-invitations: an invitation is not a membership until accepted.
    const invitee = await world.user({ email: 'invitee@example.com' });
    await addMembership(world.ctx, { kind: 'team', target: { teamId: inOrg }, callerIsOwner: true }, { role: 'admin', email: 'invitee@example.com' }, owner);
    expect(await listTeamsOfUser(world.ctx, invitee, {}, 100, 0)).toEqual([]);
    expect(await listTeamsOfUser(world.ctx, invitee, { organizationId }, 100, 0)).toEqual([]);
  });

  it('only an owner deletes a team; the answer is the team as it was, and then it is 404', async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    await expect(deleteTeam(world.ctx, teamId, false, owner)).rejects.toMatchObject({ kind: 'forbidden', message: 'only an owner of the team, or an admin of its organization, may delete it' });
    const before = await findTeam(world.ctx, teamId);
    expect(await deleteTeam(world.ctx, teamId, true, owner)).toEqual(before);
    await expect(findTeam(world.ctx, teamId)).rejects.toMatchObject({ kind: 'not_found', message: 'no such team' });
    await expect(deleteTeam(world.ctx, teamId, true, owner)).rejects.toMatchObject({ kind: 'not_found' });
  });
});
