// The schedules service's rules (src/platform/schedules/service.ts), called in process: what
// only HTTP shows (Cal.com's requests, the views) is tested in test/platform/schedules-and-out-of-office.test.ts,
// the scopes of every route in test/platform/platform-access.test.ts and team-access.test.ts.
import { describe, expect } from 'vitest';
import { createSchedule, defaultSchedule, deleteSchedule, findSchedule, listSchedules, updateSchedule } from '../../../src/platform/schedules/service.ts';
import { it } from './world.ts';

const week = [{ days: ['Monday', 'Tuesday'], startTime: '09:00', endTime: '17:00' }];

describe('schedules', () => {
  it("a user's first schedule becomes their default; a second does not unless asked", async ({ world }) => {
    const userId = await world.user();
    const first = await createSchedule(world.ctx, { userId }, { name: ' Work ', timeZone: 'Europe/Berlin', availability: week });
    const second = await createSchedule(world.ctx, { userId }, { name: 'Evenings', timeZone: 'Europe/Berlin' });
    expect(first).toMatchObject({ name: 'Work', ownerId: userId, teamId: null, isDefault: true, availability: week, createdAt: world.now() });
    expect(second.isDefault).toBe(false);
    expect((await defaultSchedule(world.ctx, userId))?.id).toBe(first.id);

    const third = await createSchedule(world.ctx, { userId }, { name: 'New default', timeZone: 'UTC', isDefault: true });
    expect((await defaultSchedule(world.ctx, userId))?.id).toBe(third.id);
    expect((await findSchedule(world.ctx, { userId }, first.id)).isDefault).toBe(false);
  });

  it('a user without a schedule has no default: null, not a refusal', async ({ world }) => {
    expect(await defaultSchedule(world.ctx, await world.user())).toBeNull();
  });

  it("a team's schedule is nobody's default and is reached through the team or its organization only", async ({ world }) => {
    const owner = await world.user();
    const organizationId = await world.organization(owner);
    const teamId = await world.team(owner, { organizationId });
    const created = await createSchedule(world.ctx, { teamId }, { name: 'Support', timeZone: 'UTC', isDefault: true });
    expect(created).toMatchObject({ ownerId: null, teamId, teamOwnerId: owner, isDefault: false });
    expect(await defaultSchedule(world.ctx, owner)).toBeNull();
    expect((await listSchedules(world.ctx, { organizationId }, 10, 0)).map((s) => s.id)).toEqual([created.id]);
    await expect(findSchedule(world.ctx, { userId: owner }, created.id)).rejects.toMatchObject({ kind: 'not_found' });
  });

  it("another owner's schedule is as absent as a missing one, for read, change and delete", async ({ world }) => {
    const alice = await world.user();
    const bob = await world.user();
    const hers = await createSchedule(world.ctx, { userId: alice }, { name: 'Hers', timeZone: 'UTC' });
    for (const attempt of [
      findSchedule(world.ctx, { userId: bob }, hers.id),
      updateSchedule(world.ctx, { userId: bob }, hers.id, { name: 'Mine now' }),
      deleteSchedule(world.ctx, { userId: bob }, hers.id),
      findSchedule(world.ctx, { userId: alice }, '999999'),
    ]) {
      await expect(attempt).rejects.toMatchObject({ kind: 'not_found', message: 'no such schedule' });
    }
    expect((await findSchedule(world.ctx, { userId: alice }, hers.id)).name).toBe('Hers');
  });

  it('a range or an override that ends before it starts is refused, naming the field', async ({ world }) => {
    const userId = await world.user();
    await expect(createSchedule(world.ctx, { userId }, { name: 'Night', timeZone: 'UTC', availability: [{ days: ['Monday'], startTime: '17:00', endTime: '09:00' }] })).rejects.toMatchObject({
      kind: 'validation',
      message: 'availability.0.endTime: must be later than startTime',
    });
    const s = await createSchedule(world.ctx, { userId }, { name: 'Day', timeZone: 'UTC' });
    await expect(updateSchedule(world.ctx, { userId }, s.id, { overrides: [{ date: '2030-01-02', startTime: '12:00', endTime: '11:00' }] })).rejects.toMatchObject({
      message: 'overrides.0.endTime: must be later than startTime (00:00 to 00:00 marks the whole date unavailable)',
    });
    await expect(updateSchedule(world.ctx, { userId }, s.id, { timeZone: 'Mars/Olympus' })).rejects.toMatchObject({ kind: 'validation', message: expect.stringContaining('timeZone:') });
    expect((await listSchedules(world.ctx, { userId }, 10, 0)).map((x) => x.name)).toEqual(['Day']);
  });

  it('a refused schedule uses up no id: the next one takes the number the refused one would have', async ({ world }) => {
    const userId = await world.user();
    await expect(createSchedule(world.ctx, { userId }, { name: 'Bad', timeZone: 'Mars/Olympus' })).rejects.toMatchObject({ kind: 'validation' });
    const first = await createSchedule(world.ctx, { userId }, { name: 'First', timeZone: 'UTC' });
    const second = await createSchedule(world.ctx, { userId }, { name: 'Second', timeZone: 'UTC' });
    expect(Number(second.id) - Number(first.id)).toBe(1);
    expect(first.id).toBe('1');
  });

  it('a change moves updatedAt and the default; turning the default off leaves the user without one', async ({ world }) => {
    const userId = await world.user();
    const s = await createSchedule(world.ctx, { userId }, { name: 'Day', timeZone: 'UTC' });
    world.advance(60_000);
    const changed = await updateSchedule(world.ctx, { userId }, s.id, { name: 'Days', isDefault: false });
    expect(changed).toMatchObject({ name: 'Days', isDefault: false, updatedAt: world.now(), createdAt: world.now() - 60_000 });
    expect(await defaultSchedule(world.ctx, userId)).toBeNull();
  });

  it('deleting the default schedule leaves the user without one', async ({ world }) => {
    const userId = await world.user();
    const s = await createSchedule(world.ctx, { userId }, { name: 'Day', timeZone: 'UTC' });
    expect(await deleteSchedule(world.ctx, { userId }, s.id)).toBe(s.id);
    expect(await defaultSchedule(world.ctx, userId)).toBeNull();
    expect(await listSchedules(world.ctx, { userId }, 10, 0)).toEqual([]);
  });

  it('an override of 00:00 to 00:00 marks its date unavailable, on create and change of a personal, team or organization schedule, and reads back as given', async ({ world }) => {
    const owner = await world.user();
    const organizationId = await world.organization(owner);
    const teamId = await world.team(owner, { organizationId });
    const off = { date: '2030-12-25', startTime: '00:00', endTime: '00:00' };
    const late = { date: '2030-12-24', startTime: '10:00', endTime: '14:00' };

    const mine = await createSchedule(world.ctx, { userId: owner }, { name: 'Mine', timeZone: 'UTC', overrides: [off, late] });
    expect(mine.overrides).toEqual([off, late]);
    const ours = await createSchedule(world.ctx, { teamId }, { name: 'Ours', timeZone: 'UTC', overrides: [off] });
    expect(ours.overrides).toEqual([off]);

    const newYear = { date: '2031-01-01', startTime: '00:00', endTime: '00:00' };
    expect((await updateSchedule(world.ctx, { userId: owner }, mine.id, { overrides: [newYear] })).overrides).toEqual([newYear]);
    expect((await updateSchedule(world.ctx, { teamId }, ours.id, { overrides: [newYear, late] })).overrides).toEqual([newYear, late]);
    // An organization's admin changes either through the organization.
    expect((await updateSchedule(world.ctx, { organizationId }, ours.id, { overrides: [off] })).overrides).toEqual([off]);
    expect((await updateSchedule(world.ctx, { organizationId }, mine.id, { overrides: [off] })).overrides).toEqual([off]);
    expect((await findSchedule(world.ctx, { userId: owner }, mine.id)).overrides).toEqual([off]);
  });

  it('only 00:00 to 00:00 is a day off: other equal times are refused, as is a date both off and given hours, and nothing is written', async ({ world }) => {
    const userId = await world.user();
    const s = await createSchedule(world.ctx, { userId }, { name: 'Day', timeZone: 'UTC', overrides: [{ date: '2030-01-01', startTime: '09:00', endTime: '12:00' }] });
    await expect(updateSchedule(world.ctx, { userId }, s.id, { overrides: [{ date: '2030-01-02', startTime: '10:00', endTime: '10:00' }] })).rejects.toMatchObject({
      kind: 'validation',
      message: 'overrides.0.endTime: must be later than startTime (00:00 to 00:00 marks the whole date unavailable)',
    });
    const both = [
      { date: '2030-01-02', startTime: '09:00', endTime: '12:00' },
      { date: '2030-01-02', startTime: '00:00', endTime: '00:00' },
    ];
    await expect(updateSchedule(world.ctx, { userId }, s.id, { overrides: both })).rejects.toMatchObject({
      kind: 'validation',
      message: 'overrides.0: 2030-01-02 is marked unavailable (00:00-00:00) by another override: give the date hours or mark it unavailable, not both',
    });
    await expect(createSchedule(world.ctx, { userId }, { name: 'Both', timeZone: 'UTC', overrides: both })).rejects.toMatchObject({ kind: 'validation' });
    expect((await findSchedule(world.ctx, { userId }, s.id)).overrides).toEqual([{ date: '2030-01-01', startTime: '09:00', endTime: '12:00' }]);
    expect((await listSchedules(world.ctx, { userId }, 10, 0)).map((x) => x.name)).toEqual(['Day']);
  });

  it("a team's schedule is answered for by the team's first owner (teamOwnerId); a personal one by nobody else", async ({ world }) => {
    const owner = await world.user();
    const later = await world.user();
    const teamId = await world.team(owner);
    await world.join({ teamId }, later, 'owner');
    const ours = await createSchedule(world.ctx, { teamId }, { name: 'Ours', timeZone: 'UTC' });
    expect(ours).toMatchObject({ ownerId: null, teamOwnerId: owner });
    expect((await listSchedules(world.ctx, { teamId }, 10, 0)).map((x) => x.teamOwnerId)).toEqual([owner]);
    expect((await createSchedule(world.ctx, { userId: later }, { name: 'Mine', timeZone: 'UTC' })).teamOwnerId).toBeNull();
  });
});
