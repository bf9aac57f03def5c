// The out-of-office service's rules (src/platform/out-of-office/service.ts, docs/rules.md#out-of-office),
// called in process: who may cover, the order of the times, no overlap, and whose entries a
// caller reaches. What only HTTP shows (scopes, the path's member check) is in test/platform.
import { describe, expect } from 'vitest';
import { changeEntry, createEntry, deleteEntry, findEntry, listEntries, listOrganizationEntries } from '../../../src/platform/out-of-office/service.ts';
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
    await expect(createEntry(world.ctx, alice, { start: JAN(8), end: JAN(1) })).rejects.toMatchObject({ kind: 'validation', message: 'end: must be later than start' });
    const entry = await createEntry(world.ctx, alice, { start: JAN(1), end: JAN(8) });
    await expect(changeEntry(world.ctx, entry, { start: JAN(9) })).rejects.toMatchObject({ message: 'start: must be earlier than end' });
    await expect(changeEntry(world.ctx, entry, { end: JAN(1) })).rejects.toMatchObject({ message: 'end: must be later than start' });
    expect(await findEntry(world.ctx, alice, entry.id)).toEqual(entry);
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

  it("one user's entries never overlap; another user's may, and a change may keep its own times", async ({ world }) => {
    const [alice, bob] = await colleagues(world);
    const first = await createEntry(world.ctx, alice, { start: JAN(1), end: JAN(8) });
    await expect(createEntry(world.ctx, alice, { start: JAN(7), end: JAN(9) })).rejects.toMatchObject({ kind: 'conflict' });
    await createEntry(world.ctx, bob, { start: JAN(7), end: JAN(9) });
    // [start, end): an entry may begin where the last one ends.
    const second = await createEntry(world.ctx, alice, { start: JAN(8), end: JAN(9) });
    await expect(changeEntry(world.ctx, second, { start: JAN(5) })).rejects.toMatchObject({ kind: 'conflict' });
    expect((await changeEntry(world.ctx, first, { notes: 'kept times' })).notes).toBe('kept times');
  });

  it("another user's entry is as absent as a missing one, for read, change and delete", async ({ world }) => {
    const [alice, bob] = await colleagues(world);
    const hers = await createEntry(world.ctx, alice, { start: JAN(1), end: JAN(2) });
    await expect(findEntry(world.ctx, bob, hers.id)).rejects.toMatchObject({ kind: 'not_found', message: 'no such out-of-office entry' });
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
    expect(await listOrganizationEntries(world.ctx, organizationId, { email: 'outsider@else.example' }, {}, 10, 0)).toEqual([]);
    expect((await listOrganizationEntries(world.ctx, organizationId, {}, { sortStart: 'desc' }, 10, 0)).map((e) => e.id)).toEqual([b.id, a.id]);
  });
});
