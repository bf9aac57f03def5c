// The out-of-office service's rules (src/platform/out-of-office/service.ts, docs/rules.md#out-of-office),
// called in process: who may cover, the order of the times, no overlap, whose entries a caller
// reaches, and the order and pages of a list. What only HTTP shows (the view, Cal.com's query,
// concurrent requests) is in test/platform/schedules-and-out-of-office.test.ts; the scopes and membership rules of
// every route in test/platform/platform-access.test.ts and team-access.test.ts.
import { describe, expect } from 'vitest';
import { changeEntry, createEntry, deleteEntry, findEntry, listEntries, listOrganizationEntries } from '../../../src/platform/out-of-office/service.ts';
import { memberOfPath } from '../../../src/platform/path-member.ts';
import { it, type PlatformWorld } from './world.ts';

const JAN = (day: number) => `2030-01-${String(day).padStart(2, '0')}T00:00:00.000Z`;

/** Two users who share a team, so that either may cover for the other. */
async function colleagues(world: PlatformWorld): Promise<[string, string]> {
  const alice = await world.user();
  const bob = await world.user();
  await world.join({ teamId: await world.team(alice) }, bob);
  return [alice, bob];
}

describe('out of office', () => {
  it('an entry is written with its times, its reason and who covers', async ({ world }) => {
    const [alice, bob] = await colleagues(world);
    const entry = await createEntry(world.ctx, alice, { start: JAN(1), end: JAN(8), toUserId: bob, reason: 'vacation', notes: 'Skiing' });
    expect(entry).toMatchObject({ userId: alice, toUserId: bob, start: Date.parse(JAN(1)), end: Date.parse(JAN(8)), reason: 'vacation', notes: 'Skiing', createdAt: world.now() });
    expect(await findEntry(world.ctx, alice, entry.id)).toEqual(entry);
  });

  it('the end must come after the start, on create and on a change of either', async ({ world }) => {
    const alice = await world.user();
    for (const end of [JAN(1), JAN(8)]) await expect(createEntry(world.ctx, alice, { start: JAN(8), end })).rejects.toMatchObject({ kind: 'validation', message: 'end: must be later than start' });
    await expect(createEntry(world.ctx, alice, { start: 'tomorrow', end: JAN(8) })).rejects.toMatchObject({ kind: 'validation', message: 'start: must be a date-time such as 2030-01-31T09:00:00Z' });
    const entry = await createEntry(world.ctx, alice, { start: JAN(1), end: JAN(8) });
    await expect(changeEntry(world.ctx, entry, { start: JAN(9) })).rejects.toMatchObject({ message: 'start: must be earlier than end' });
    await expect(changeEntry(world.ctx, entry, { end: JAN(1) })).rejects.toMatchObject({ message: 'end: must be later than start' });
    expect(await findEntry(world.ctx, alice, entry.id)).toEqual(entry);
    expect(await listEntries(world.ctx, alice, {}, 10, 0)).toEqual([entry]);
  });

  it('one cannot cover for oneself, nor be covered by someone one shares no team or organization with', async ({ world }) => {
    const alice = await world.user();
    const stranger = await world.user();
    await expect(createEntry(world.ctx, alice, { start: JAN(1), end: JAN(2), toUserId: alice })).rejects.toMatchObject({ message: 'toUserId: must be someone other than the user who is out of office' });
    await expect(createEntry(world.ctx, alice, { start: JAN(1), end: JAN(2), toUserId: stranger })).rejects.toMatchObject({
      message: 'toUserId: must be an accepted member of a team or organization that the user is in',
    });
    expect(await listEntries(world.ctx, alice, {}, 10, 0)).toEqual([]);
  });

  it('docs/rules.md#membership-invitations: a pending invitee or an id of no account cannot cover, on create or on a change; a colleague can, and null names no one', async ({ world }) => {
    const [alice, bob] = await colleagues(world);
    const invited = await world.user();
    await world.ctx.stores.invitations.insert({ id: await world.ctx.stores.ids.next('memberships'), teamId: null, organizationId: await world.organization(alice), email: null, userId: invited, role: 'member', invitedBy: alice, createdAt: world.now(), updatedAt: world.now() });
    const unrelated = 'toUserId: must be an accepted member of a team or organization that the user is in';
    for (const toUserId of [invited, '999999']) {
      await expect(createEntry(world.ctx, alice, { start: JAN(1), end: JAN(2), toUserId }), toUserId).rejects.toMatchObject({ kind: 'validation', message: unrelated });
    }
    const entry = await createEntry(world.ctx, alice, { start: JAN(1), end: JAN(2) });
    await expect(changeEntry(world.ctx, entry, { toUserId: invited })).rejects.toMatchObject({ kind: 'validation', message: unrelated });
    expect(await findEntry(world.ctx, alice, entry.id)).toEqual(entry);
    expect((await changeEntry(world.ctx, entry, { toUserId: bob })).toUserId).toBe(bob);
    expect((await changeEntry(world.ctx, entry, { toUserId: null })).toUserId).toBeNull();
  });

  it("one user's entries never overlap; another user's may, and a change may keep its own times", async ({ world }) => {
    const [alice, bob] = await colleagues(world);
    const first = await createEntry(world.ctx, alice, { start: JAN(1), end: JAN(8) });
    await expect(createEntry(world.ctx, alice, { start: JAN(7), end: JAN(9) })).rejects.toMatchObject({ kind: 'conflict', message: expect.stringContaining('overlapping') });
    await createEntry(world.ctx, bob, { start: JAN(7), end: JAN(9) });
    // [start, end): an entry may begin where the last one ends.
    const second = await createEntry(world.ctx, alice, { start: JAN(8), end: JAN(9) });
    await expect(changeEntry(world.ctx, second, { start: JAN(5) })).rejects.toMatchObject({ kind: 'conflict' });
    expect((await changeEntry(world.ctx, first, { notes: 'kept times' })).notes).toBe('kept times');
    // Within its own time an entry is no overlap with itself.
    expect((await changeEntry(world.ctx, first, { end: JAN(7) })).end).toBe(Date.parse(JAN(7)));
    expect(await listEntries(world.ctx, alice, {}, 10, 0)).toHaveLength(2);
  });

  it("a user's list is ordered by start unless sortStart or sortEnd says otherwise, and paged by limit and offset", async ({ world }) => {
    const alice = await world.user();
    const long = await createEntry(world.ctx, alice, { start: JAN(1), end: JAN(11) });
    const short = await createEntry(world.ctx, alice, { start: JAN(20), end: JAN(21) });
    const ids = async (order: Parameters<typeof listEntries>[2], limit = 10, offset = 0) => (await listEntries(world.ctx, alice, order, limit, offset)).map((e) => e.id);
    expect(await ids({})).toEqual([long.id, short.id]);
    expect(await ids({ sortStart: 'desc' })).toEqual([short.id, long.id]);
    expect(await ids({ sortEnd: 'asc' })).toEqual([long.id, short.id]);
    expect(await ids({ sortEnd: 'desc' })).toEqual([short.id, long.id]);
    expect(await ids({}, 1, 1)).toEqual([short.id]);
  });

  it("docs/rules.md#membership-rules: the path's user is an accepted member of the path's team or organization, else as unknown as no user", async ({ world }) => {
    const owner = await world.user();
    const member = await world.user();
    const teamOnly = await world.user();
    const outsider = await world.user();
    const invited = await world.user();
    const organizationId = await world.organization(owner);
    const teamId = await world.team(owner, { organizationId });
    await world.join({ organizationId }, member);
    await world.join({ teamId }, member);
    await world.join({ teamId }, teamOnly);
    for (const target of [{ teamId, organizationId: null }, { teamId: null, organizationId }]) {
      await world.ctx.stores.invitations.insert({ id: await world.ctx.stores.ids.next('memberships'), ...target, email: null, userId: invited, role: 'admin', invitedBy: owner, createdAt: world.now(), updatedAt: world.now() });
    }
    const inTeam = (userId: string) => memberOfPath(world.ctx, { params: { userId }, facts: { team: { id: teamId, organizationId, role: 'owner', organizationRole: 'owner' } } });
    const inOrganization = (userId: string) => memberOfPath(world.ctx, { params: { userId }, facts: { organization: { id: organizationId, role: 'owner' } } });
    expect(await inTeam(member)).toBe(member);
    expect(await inOrganization(member)).toBe(member);
    for (const userId of [outsider, invited, '999999']) await expect(inTeam(userId), userId).rejects.toMatchObject({ kind: 'not_found', message: 'no such user in this team' });
    // A member only of one of the organization's teams is not a user of the organization.
    for (const userId of [teamOnly, outsider, invited]) await expect(inOrganization(userId), userId).rejects.toMatchObject({ kind: 'not_found', message: 'no such user in this organization' });
    // An entry of another member is not reached through a member's path.
    const others = await createEntry(world.ctx, teamOnly, { start: JAN(1), end: JAN(2) });
    await expect(deleteEntry(world.ctx, await inTeam(member), others.id)).rejects.toMatchObject({ kind: 'not_found' });
    expect(await findEntry(world.ctx, teamOnly, others.id)).toEqual(others);
  });

  it("another user's entry is as absent as a missing one, for read, change, delete and the list", async ({ world }) => {
    const [alice, bob] = await colleagues(world);
    const hers = await createEntry(world.ctx, alice, { start: JAN(1), end: JAN(2) });
    await expect(findEntry(world.ctx, bob, hers.id)).rejects.toMatchObject({ kind: 'not_found', message: 'no such out-of-office entry' });
    expect(await listEntries(world.ctx, bob, {}, 10, 0)).toEqual([]);
    await expect(deleteEntry(world.ctx, bob, hers.id)).rejects.toMatchObject({ kind: 'not_found' });
    expect(await deleteEntry(world.ctx, alice, hers.id)).toEqual(hers);
    await expect(findEntry(world.ctx, alice, hers.id)).rejects.toMatchObject({ kind: 'not_found' });
  });

  it("an organization's list holds its accepted members' entries, or one member's by e-mail", async ({ world }) => {
    const owner = await world.user({ email: 'owner@acme.example' });
    const member = await world.user({ email: 'member@acme.example' });
    const outsider = await world.user({ email: 'outsider@else.example' });
    const organizationId = await world.organization(owner);
    await world.join({ organizationId }, member);
    const a = await createEntry(world.ctx, owner, { start: JAN(1), end: JAN(2) });
    const b = await createEntry(world.ctx, member, { start: JAN(3), end: JAN(4) });
    await createEntry(world.ctx, outsider, { start: JAN(1), end: JAN(2) });
    expect((await listOrganizationEntries(world.ctx, organizationId, {}, {}, 10, 0)).map((e) => e.id)).toEqual([a.id, b.id]);
    expect((await listOrganizationEntries(world.ctx, organizationId, { email: 'member@acme.example' }, {}, 10, 0)).map((e) => e.id)).toEqual([b.id]);
    expect((await listOrganizationEntries(world.ctx, organizationId, { email: 'MEMBER@ACME.EXAMPLE' }, {}, 10, 0)).map((e) => e.id)).toEqual([b.id]);
    expect(await listOrganizationEntries(world.ctx, organizationId, { email: 'outsider@else.example' }, {}, 10, 0)).toEqual([]);
    expect((await listOrganizationEntries(world.ctx, organizationId, {}, { sortStart: 'desc' }, 10, 0)).map((e) => e.id)).toEqual([b.id, a.id]);
  });
});
