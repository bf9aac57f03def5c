// The phone-calls service's rules (src/platform/phone-calls/service.ts), called in process: a
// call is queued for an event type of the team only, and the operator's list (the CLI's
// `phone-calls list`) shows the calls oldest first, a team's alone when asked. What only HTTP
// shows (the answer, the request's schema, the calApiKey never kept) is tested in
// test/platform/event-types.test.ts; TEAM_EVENT_TYPE_WRITE and the admin's role, with every
// route's, in test/platform/platform-access.test.ts and team-access.test.ts.
import { describe, expect } from 'vitest';
import { listPhoneCalls, queuePhoneCall, type PhoneCallRequest } from '../../../src/platform/phone-calls/service.ts';
import { it } from './world.ts';

const asked = (teamId: string, eventTypeId: string, requestedBy: string, over: Partial<PhoneCallRequest> = {}): PhoneCallRequest => ({
  teamId,
  eventTypeId,
  requestedBy,
  yourPhoneNumber: '+14155550100',
  numberToCall: '+4930123456',
  enabled: true,
  templateType: 'CUSTOM_TEMPLATE',
  schedulerName: null,
  guestName: null,
  guestEmail: null,
  guestCompany: null,
  beginMessage: null,
  generalPrompt: null,
  ...over,
});

describe('phone calls', () => {
  it('a call asked of a team event type is queued, under a new UUID, at the clock, for the operator to list', async ({ world }) => {
    const admin = await world.user();
    const teamId = await world.team(admin);
    const eventTypeId = await world.eventType({ teamId });
    const queued = await queuePhoneCall(world.ctx, asked(teamId, eventTypeId, admin, { templateType: 'CHECK_IN_APPOINTMENT', guestEmail: 'gil@example.com', generalPrompt: 'Offer the next free slot.' }));
    expect(queued).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/), status: 'queued', createdAt: world.now(), teamId, eventTypeId, requestedBy: admin });
    expect(await listPhoneCalls(world.ctx, { teamId }, 10)).toEqual([queued]);
    const again = await queuePhoneCall(world.ctx, asked(teamId, eventTypeId, admin));
    expect(again.id).not.toBe(queued.id);
  });

  it("another team's event type, a personal one or a missing one is 404, and nothing is queued", async ({ world }) => {
    const admin = await world.user();
    const teamId = await world.team(admin);
    const otherTeam = await world.team(await world.user());
    for (const eventTypeId of [await world.eventType({ teamId: otherTeam }), await world.eventType({ userId: admin }), '999999']) {
      await expect(queuePhoneCall(world.ctx, asked(teamId, eventTypeId, admin))).rejects.toMatchObject({ kind: 'not_found', message: 'no such event type' });
    }
    expect(await listPhoneCalls(world.ctx, {}, 10)).toEqual([]);
  });

  it("the list is oldest first, cut at the limit, and a team's holds its calls only", async ({ world }) => {
    const admin = await world.user();
    const mine = await world.team(admin);
    const theirs = await world.team(admin);
    const myEventType = await world.eventType({ teamId: mine });
    const theirEventType = await world.eventType({ teamId: theirs });
    const first = await queuePhoneCall(world.ctx, asked(mine, myEventType, admin));
    world.advance(1_000);
    const second = await queuePhoneCall(world.ctx, asked(theirs, theirEventType, admin));
    world.advance(1_000);
    const third = await queuePhoneCall(world.ctx, asked(mine, myEventType, admin));
    expect((await listPhoneCalls(world.ctx, {}, 10)).map((c) => c.id)).toEqual([first.id, second.id, third.id]);
    expect((await listPhoneCalls(world.ctx, {}, 2)).map((c) => c.id)).toEqual([first.id, second.id]);
    expect((await listPhoneCalls(world.ctx, { teamId: mine }, 10)).map((c) => c.id)).toEqual([first.id, third.id]);
    expect((await listPhoneCalls(world.ctx, { teamId: theirs }, 10)).map((c) => c.id)).toEqual([second.id]);
  });
});
