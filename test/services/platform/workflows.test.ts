// The workflows service's rules (src/platform/workflows/service.ts), called in process: what
// only HTTP shows (scopes, the envelope, the view) is tested in test/platform.
import { describe, expect } from 'vitest';
import { createWorkflow, deleteWorkflow, findWorkflow, listWorkflows, updateWorkflow, type WorkflowInput } from '../../../src/platform/workflows/service.ts';
import { it, T0 } from './world.ts';

const reminder: WorkflowInput = { name: ' Reminder ', trigger: 'BEFORE_EVENT', timeOffsetMinutes: 60, steps: [{ action: 'EMAIL_ATTENDEE', body: 'See you soon' }] };

describe('workflows', () => {
  it("a new workflow is the team's, its name trimmed, active, with no offset or event types unless given", async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    const created = await createWorkflow(world.ctx, teamId, { name: ' Thanks ', trigger: 'AFTER_EVENT', steps: [{ action: 'EMAIL_HOST', body: 'Thank them' }] });
    expect(created).toEqual({ id: created.id, teamId, name: 'Thanks', trigger: 'AFTER_EVENT', timeOffsetMinutes: 0, steps: [{ action: 'EMAIL_HOST', body: 'Thank them' }], activeOnEventTypeIds: [], active: true, createdAt: T0, updatedAt: T0 });
    expect(await findWorkflow(world.ctx, teamId, created.id)).toEqual(created);
    const paused = await createWorkflow(world.ctx, teamId, { ...reminder, active: false });
    expect(paused).toMatchObject({ name: 'Reminder', timeOffsetMinutes: 60, active: false });
    expect((await listWorkflows(world.ctx, teamId, 10, 0)).map((w) => w.id)).toEqual([created.id, paused.id]);
  });

  it('a step that sends to an address or a number needs a valid one: refused naming the step, and nothing is kept', async ({ world }) => {
    const teamId = await world.team(await world.user());
    const refusals: [WorkflowInput['steps'], string][] = [
      [[{ action: 'EMAIL_HOST', body: 'x' }, { action: 'EMAIL_ADDRESS', body: 'x' }], 'steps.1.sendTo: EMAIL_ADDRESS needs an email address to send to'],
      [[{ action: 'EMAIL_ADDRESS', sendTo: 'not-an-address', body: 'x' }], 'steps.0.sendTo: EMAIL_ADDRESS needs an email address to send to'],
      [[{ action: 'SMS_NUMBER', sendTo: '0170 1234567', body: 'x' }], 'steps.0.sendTo: SMS_NUMBER needs an E.164 phone number to send to'],
    ];
    for (const [steps, message] of refusals) await expect(createWorkflow(world.ctx, teamId, { ...reminder, steps })).rejects.toMatchObject({ kind: 'validation', message });
    expect(await listWorkflows(world.ctx, teamId, 10, 0)).toEqual([]);
    const ok = [{ action: 'EMAIL_ADDRESS', sendTo: 'ops@example.com', body: 'x' }, { action: 'SMS_NUMBER', sendTo: '+491701234567', body: 'x' }];
    const created = await createWorkflow(world.ctx, teamId, { ...reminder, steps: ok });
    expect(created.steps).toEqual(ok);
    // The refusals used up no number of the series: the first workflow kept is number 1.
    expect(created.id).toBe('1');
  });

  it("a workflow runs on the team's own event types only: another team's or a user's is refused, on create and on change", async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    const ours = await world.eventType({ teamId });
    const theirs = await world.eventType({ teamId: await world.team(owner) });
    const personal = await world.eventType({ userId: owner });
    for (const other of [theirs, personal]) {
      await expect(createWorkflow(world.ctx, teamId, { ...reminder, activeOnEventTypeIds: [ours, other] })).rejects.toMatchObject({
        kind: 'validation',
        message: 'activeOnEventTypeIds: lists an event type that is not one of this team',
      });
    }
    const created = await createWorkflow(world.ctx, teamId, { ...reminder, activeOnEventTypeIds: [ours] });
    expect(created.activeOnEventTypeIds).toEqual([ours]);
    await expect(updateWorkflow(world.ctx, teamId, created.id, { activeOnEventTypeIds: [theirs] })).rejects.toMatchObject({ message: expect.stringMatching(/^activeOnEventTypeIds:/) });
    expect((await findWorkflow(world.ctx, teamId, created.id)).activeOnEventTypeIds).toEqual([ours]);
  });

  it('an offset belongs to BEFORE_EVENT and AFTER_EVENT only, judged by the trigger the workflow will have', async ({ world }) => {
    const teamId = await world.team(await world.user());
    const offsetOnly = 'timeOffsetMinutes: applies to BEFORE_EVENT and AFTER_EVENT workflows only';
    await expect(createWorkflow(world.ctx, teamId, { ...reminder, trigger: 'NEW_EVENT' })).rejects.toMatchObject({ kind: 'validation', message: offsetOnly });
    expect((await createWorkflow(world.ctx, teamId, { ...reminder, trigger: 'NEW_EVENT', timeOffsetMinutes: 0 })).timeOffsetMinutes).toBe(0);
    const before = await createWorkflow(world.ctx, teamId, reminder);
    await expect(updateWorkflow(world.ctx, teamId, before.id, { trigger: 'EVENT_CANCELLED', timeOffsetMinutes: 30 })).rejects.toMatchObject({ message: offsetOnly });
    expect((await updateWorkflow(world.ctx, teamId, before.id, { timeOffsetMinutes: 30 })).timeOffsetMinutes).toBe(30);
    const cancelled = await createWorkflow(world.ctx, teamId, { ...reminder, trigger: 'EVENT_CANCELLED', timeOffsetMinutes: 0 });
    await expect(updateWorkflow(world.ctx, teamId, cancelled.id, { timeOffsetMinutes: 15 })).rejects.toMatchObject({ message: offsetOnly });
    expect((await updateWorkflow(world.ctx, teamId, cancelled.id, { trigger: 'AFTER_EVENT', timeOffsetMinutes: 15 })).trigger).toBe('AFTER_EVENT');
  });

  it('a change keeps what it leaves out and moves updatedAt', async ({ world }) => {
    const teamId = await world.team(await world.user());
    const created = await createWorkflow(world.ctx, teamId, reminder);
    world.advance(60_000);
    const changed = await updateWorkflow(world.ctx, teamId, created.id, { name: ' Renamed ', active: false });
    expect(changed).toEqual({ ...created, name: 'Renamed', active: false, updatedAt: T0 + 60_000 });
    expect(await findWorkflow(world.ctx, teamId, created.id)).toEqual(changed);
  });

  it("another team's workflow is as absent as a missing one, for read, change and delete", async ({ world }) => {
    const owner = await world.user();
    const ours = await world.team(owner);
    const theirs = await world.team(owner);
    const kept = await createWorkflow(world.ctx, theirs, reminder);
    for (const attempt of [
      findWorkflow(world.ctx, ours, kept.id),
      updateWorkflow(world.ctx, ours, kept.id, { name: 'Mine now' }),
      deleteWorkflow(world.ctx, ours, kept.id),
      findWorkflow(world.ctx, theirs, '999999'),
    ]) {
      await expect(attempt).rejects.toMatchObject({ kind: 'not_found', message: 'no such workflow' });
    }
    expect(await findWorkflow(world.ctx, theirs, kept.id)).toEqual(kept);
    expect(await deleteWorkflow(world.ctx, theirs, kept.id)).toBe(kept.id);
    expect(await listWorkflows(world.ctx, theirs, 10, 0)).toEqual([]);
    await expect(deleteWorkflow(world.ctx, theirs, kept.id)).rejects.toMatchObject({ kind: 'not_found' });
  });
});
