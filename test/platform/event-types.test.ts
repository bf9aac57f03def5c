// Event types answer as Cal.com API v2 (2024-06-14) does (docs/integrating.md#event-type-fields):
// a user's as EventTypeOutput, a team's as TeamEventTypeOutput, the fields Gatehouse keeps from
// its data and the rest with the values that say it has none; the platform's location writing
// is read on the way in; and their private links in the platform's shape, changed by a PATCH
// with no body as Cal.com documents it. The rules (defaults, places, whose event type, links'
// uses and expiry) are test/services/platform/event-types.test.ts's; who may reach each route
// platform-access's and team-access's. Real HTTP, both databases.
//
// Outbound phone calls asked of a team event type (docs/integrating.md#phone-calls), at the
// platform's addresses: POST /v2/teams/{teamId}/event-types/{eventTypeId}/create-phone-call
// and its organization form. Gatehouse runs no phone provider: the request is queued in a
// real table the operator lists (`gatehouse phone-calls list`), the answer says so, and the
// Cal.com API key the body carries is neither kept nor shown: the answer, the request's mapping
// and schema, the operator's list. Another team's event type is
// the service's test (test/services/platform/phone-calls.test.ts); a member's 403, the scope, the
// missing token and a team outside the path's organization, with every route's,
// platform-access's and team-access's.
import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { loadReference, referenceAvailable } from '../helpers/calcom-reference.ts';
import { runCli } from '../helpers/cli.ts';
import type { TestServer } from '../helpers/server.ts';
import { fixtures, mint, uniq, type World, useWorld } from './fixtures.ts';

const PHONE_CALL_SCOPES = ['TEAM_EVENT_TYPE_WRITE'];
const API_KEY = 'cal_live_0123456789abcdef0123456789abcdef';
const phoneCall = {
  yourPhoneNumber: '+14155550100',
  numberToCall: '+4930123456',
  calApiKey: API_KEY,
  enabled: true,
  templateType: 'CHECK_IN_APPOINTMENT',
  schedulerName: 'Sales desk',
  guestName: 'Gil Guest',
  guestEmail: 'gil@example.com',
  guestCompany: 'Gil GmbH',
  beginMessage: 'Hello, this is the Sales desk.',
  generalPrompt: 'Offer the next free slot.',
};

describe.each(backends)('event types in the platform shape, their links and phone calls on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;
  useWorld(name, available, (started) => ({ server, w, f } = started));

  const gatehouse = (...args: string[]) => runCli(args, { env: { ...server.database.env, DATABASE_URL: server.database.url } });

  it.skipIf(!available)("docs/integrating.md#slot-rules: an event type takes its slot settings in Cal.com's 2024-06-14 shapes, on the personal and the team route, and answers them as Cal.com's schema writes them", async () => {
    const token = await mint(server, w, w.owner, ['EVENT_TYPE_READ', 'EVENT_TYPE_WRITE', 'TEAM_EVENT_TYPE_READ', 'TEAM_EVENT_TYPE_WRITE']);
    const version = { 'cal-api-version': '2024-06-14' };
    const settings = {
      slotInterval: 15,
      beforeEventBuffer: 10,
      afterEventBuffer: 5,
      bookingWindow: { type: 'calendarDays', value: 30, rolling: false },
      bookingLimitsCount: { day: 2, week: 6 },
      seats: { seatsPerTimeSlot: 4, showAttendeeInfo: false, showAvailabilityCount: true },
      bookingLimitsDuration: { day: 120, week: 480 },
      onlyShowFirstAvailableSlot: true,
      offsetStart: 10,
    };
    const answered = {
      slotInterval: 15,
      beforeEventBuffer: 10,
      afterEventBuffer: 5,
      bookingWindow: [{ type: 'calendarDays', value: 30, rolling: false }],
      bookingLimitsCount: { day: 2, week: 6 },
      seatsPerTimeSlot: 4,
      seatsShowAvailabilityCount: true,
      seats: { seatsPerTimeSlot: 4, showAttendeeInfo: false, showAvailabilityCount: true },
      bookingLimitsDuration: { day: 120, week: 480 },
      onlyShowFirstAvailableSlot: true,
      offsetStart: 10,
    };
    const reference = referenceAvailable ? loadReference() : undefined;
    const conforms = (method: string, path: string, status: number, body: unknown) => {
      if (reference) expect(reference.checkResponse(reference.operations.find((o) => o.method === method && o.path === path)!, status, body)).toBeNull();
    };
    const mine = await server.api('POST', '/v2/event-types', token, { title: 'Seated', slug: `seated-${uniq().toLowerCase()}`, lengthInMinutes: 60, ...settings }, version);
    expect(mine.status).toBe(201);
    expect(mine.body.data).toMatchObject(answered);
    conforms('POST', '/v2/event-types', 201, mine.body);
    const read = await server.api('GET', `/v2/event-types/${mine.body.data.id}`, token, undefined, version);
    expect(read.body.data).toMatchObject(answered);

    const ranged = await server.api('PATCH', `/v2/event-types/${mine.body.data.id}`, token, { bookingWindow: { type: 'range', value: ['2030-09-05', '2030-09-09'] }, seats: { disabled: true }, bookingLimitsDuration: { disabled: true }, onlyShowFirstAvailableSlot: false }, version);
    expect(ranged.status).toBe(200);
    expect(ranged.body.data).toMatchObject({ bookingWindow: [{ type: 'range', value: ['2030-09-05', '2030-09-09'] }], seatsPerTimeSlot: null, seatsShowAvailabilityCount: null, slotInterval: 15, onlyShowFirstAvailableSlot: false, offsetStart: 10 });
    expect(ranged.body.data).not.toHaveProperty('seats');
    expect(ranged.body.data).not.toHaveProperty('bookingLimitsDuration');
    conforms('PATCH', '/v2/event-types/{eventTypeId}', 200, ranged.body);

    const ours = await server.api('POST', `/v2/teams/${w.team.id}/event-types`, token, { title: 'Team seated', slug: `team-seated-${uniq().toLowerCase()}`, lengthInMinutes: 30, schedulingType: 'roundRobin', ...settings }, version);
    expect(ours.status).toBe(201);
    expect(ours.body.data).toMatchObject(answered);
    conforms('POST', '/v2/teams/{teamId}/event-types', 201, ours.body);

    // A window that is neither days nor dates is refused naming the field; nothing is made.
    const refused = await server.api('POST', '/v2/event-types', token, { title: 'Bad', slug: `bad-${uniq().toLowerCase()}`, lengthInMinutes: 30, bookingWindow: { type: 'range', value: 30 } }, version);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe('bookingWindow.value: a range window is two dates, [from, to], such as ["2030-09-05", "2030-09-09"]');
    // Cal.com's minutes limits are multiples of 15.
    const uneven = await server.api('PATCH', `/v2/event-types/${mine.body.data.id}`, token, { bookingLimitsDuration: { day: 50 } }, version);
    expect(uneven.status).toBe(400);
    expect(uneven.body.error.message).toBe('bookingLimitsDuration.day: must be multiple of 15');
  });

  it.skipIf(!available)("a user's event type, made with the platform's locations, answers with its owner, booking fields and honest defaults; Gatehouse keeps {type, value}", async () => {
    const token = await mint(server, w, w.owner, ['EVENT_TYPE_READ', 'EVENT_TYPE_WRITE']);
    const slug = `shape-${uniq().toLowerCase()}`;
    const made = await server.api('POST', '/v2/event-types', token, {
      title: 'Shape',
      slug,
      lengthInMinutes: 45,
      locations: [
        { type: 'address', address: '1 Main St', public: true },
        { type: 'link', link: 'https://meet.example.com/shape' },
      ],
      // The platform's field Gatehouse has no notion of: dropped, not refused.
      disableGuests: true,
    });
    expect(made.status).toBe(201);
    const owner = (await server.services.stores.users.findById(w.owner.id))!;
    expect(made.body.data).toMatchObject({
      title: 'Shape',
      slug,
      lengthInMinutes: 45,
      lengthInMinutesOptions: [45],
      locations: [
        { type: 'address', address: '1 Main St', public: false, value: '1 Main St' },
        { type: 'link', link: 'https://meet.example.com/shape', public: false, value: 'https://meet.example.com/shape' },
      ],
      disableGuests: false,
      recurrence: null,
      metadata: {},
      price: 0,
      scheduleId: null,
      successRedirectUrl: null,
      ownerId: Number(w.owner.id),
      teamId: null,
      users: [{ id: Number(w.owner.id), name: owner.name, username: owner.username, avatarUrl: null, weekStart: owner.weekStart }],
      bookingUrl: `${server.config.appUrl}/${owner.username}/${slug}`,
    });
    // Two places: the booker picks one, so the location field is listed.
    expect(made.body.data.bookingFields.map((f: { slug: string }) => f.slug)).toEqual(['name', 'email', 'location', 'title', 'notes', 'guests', 'rescheduleReason']);
    expect(made.body.data).not.toHaveProperty('hosts');
    const stored = await server.services.stores.api.eventTypes.findOwned({ userId: w.owner.id }, String(made.body.data.id));
    expect(stored!.locations).toEqual([
      { type: 'address', value: '1 Main St' },
      { type: 'link', value: 'https://meet.example.com/shape' },
    ]);

    const read = await server.api('GET', `/v2/event-types/${made.body.data.id}`, token);
    expect(read.body.data).toEqual(made.body.data);
  });

  it.skipIf(!available)("a team's event type answers with its team and every member as a host, at the team's and the organization's addresses", async () => {
    const et = await fixtures(server).eventType({ teamId: w.team.id });
    const token = await mint(server, w, w.teamAdmin, ['TEAM_EVENT_TYPE_READ']);
    const team = (await server.services.stores.teams.findTeam(w.team.id))!;
    const members = await server.services.stores.teams.listMembers({ teamId: w.team.id }, 100);
    for (const path of [`/v2/teams/${w.team.id}/event-types/${et.id}`, `/v2/organizations/${w.org.id}/teams/${w.team.id}/event-types/${et.id}`]) {
      const read = await server.api('GET', path, token);
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({
        id: Number(et.id),
        teamId: Number(w.team.id),
        ownerId: null,
        parentEventTypeId: null,
        schedulingType: 'collective',
        assignAllTeamMembers: true,
        team: { id: Number(w.team.id), slug: team.slug, name: team.name, logoUrl: null },
        // One place: nothing to choose, no location field.
        bookingFields: expect.not.arrayContaining([expect.objectContaining({ slug: 'location' })]),
      });
      expect(read.body.data.hosts.map((h: { userId: number }) => String(h.userId)).sort()).toEqual(members.map((m) => m.userId).sort());
      expect(read.body.data.hosts).toContainEqual(expect.objectContaining({ userId: Number(w.member.id), name: 'Mo Member' }));
      expect(read.body.data).not.toHaveProperty('users');
    }
  });

  it.skipIf(!available)("an organization's list answers each event type in its own kind's shape; a change takes the platform's location writing", async () => {
    const f = fixtures(server);
    const mine = await f.eventType({ userId: w.owner.id });
    const ours = await f.eventType({ teamId: w.team.id });
    const admin = await mint(server, w, w.owner, ['ORG_EVENT_TYPE_READ', 'ORG_EVENT_TYPE_WRITE']);
    const listed = await server.api('GET', `/v2/organizations/${w.org.id}/event-types?limit=100`, admin);
    expect(listed.status).toBe(200);
    const byId = new Map(listed.body.data.map((e: { id: number }) => [String(e.id), e]));
    expect(byId.get(mine.id)).toMatchObject({ users: [{ id: Number(w.owner.id) }], ownerId: Number(w.owner.id) });
    expect(byId.get(mine.id)).not.toHaveProperty('hosts');
    expect(byId.get(ours.id)).toMatchObject({ team: { id: Number(w.team.id) }, assignAllTeamMembers: true });
    expect(byId.get(ours.id)).not.toHaveProperty('users');

    const changed = await server.api('PATCH', `/v2/organizations/${w.org.id}/event-types/${ours.id}`, admin, { locations: [{ type: 'phone', phone: '+4915112345678', public: false }] });
    expect(changed.status).toBe(200);
    expect(changed.body.data.locations).toEqual([{ type: 'phone', phone: '+4915112345678', public: false, value: '+4915112345678' }]);
    expect((await server.services.stores.api.eventTypes.findInOrganization(w.org.id, ours.id))!.locations).toEqual([{ type: 'phone', value: '+4915112345678' }]);
  });

  it.skipIf(!available)('DELETE answers what the event type was, as the platform does, and it is gone', async () => {
    const et = await fixtures(server).eventType({ userId: w.owner.id }, { lengthInMinutes: 20 });
    const token = await mint(server, w, w.owner, ['EVENT_TYPE_WRITE']);
    const removed = await server.api('DELETE', `/v2/event-types/${et.id}`, token);
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual({ id: Number(et.id), lengthInMinutes: 20, title: et.title, slug: et.slug, deleted: true });
    expect(await server.services.stores.api.eventTypes.findOwned({ userId: w.owner.id }, et.id)).toBeUndefined();
  });

  it.skipIf(!available)("private links (docs/rules.md#public-booking): POST with no body makes a one-use link in the platform's shape; PATCH's maxUsageCount and expiresAt reach the stored link", async () => {
    const et = await fixtures(server).eventType({ userId: w.owner.id }, { hidden: true });
    const token = await mint(server, w, w.owner, ['EVENT_TYPE_READ', 'EVENT_TYPE_WRITE']);
    const made = await server.api('POST', `/v2/event-types/${et.id}/private-links`, token, {});
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ linkId: made.body.data.id, eventTypeId: Number(et.id), maxUsageCount: 1, usageCount: 0, expiresAt: null, isExpired: false });

    const expiry = new Date(server.clock() + 3 * 24 * 3600_000).toISOString();
    const changed = await server.api('PATCH', `/v2/event-types/${et.id}/private-links/${made.body.data.id}`, token, { maxUsageCount: 10, expiresAt: expiry });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ maxUsageCount: 10, expiresAt: expiry });
    const [stored] = await server.services.stores.api.eventTypes.listPrivateLinks(et.id);
    expect(stored).toMatchObject({ maxUses: 10, expiresAt: Date.parse(expiry) });
  });

  it.skipIf(!available)("PATCH of a link with no body (Cal.com documents none at the organization's team route), or an empty one, answers the link unchanged (it was 400 'request body must be object')", async () => {
    const f = fixtures(server);
    const et = await f.eventType({ teamId: w.team.id }, { hidden: true });
    const link = await f.privateLink(et.id, { maxUses: 4 });
    const admin = await mint(server, w, w.teamAdmin, ['TEAM_EVENT_TYPE_WRITE']);
    const path = `/v2/organizations/${w.org.id}/teams/${w.team.id}/event-types/${et.id}/private-links/${link.id}`;
    // What Cal.com's MCP server sends (update_org_team_et_private_link): its headers and an empty object.
    const mcp = await server.api('PATCH', path, admin, {}, { 'cal-api-version': '2024-08-13' });
    expect(mcp.status).toBe(200);
    expect(mcp.body.data).toMatchObject({ linkId: link.id, eventTypeId: Number(et.id), maxUsageCount: 4, usageCount: 0, expiresAt: null });
    // As the platform documents it: no body at all.
    const bare = await fetch(`${server.url}${path}`, { method: 'PATCH', headers: { authorization: `Bearer ${admin}` } });
    expect(bare.status).toBe(200);
    expect((await bare.json()).data).toMatchObject({ linkId: link.id, maxUsageCount: 4 });
    expect((await server.api('PATCH', `/v2/teams/${w.team.id}/event-types/${et.id}/private-links/${link.id}`, admin, {})).body.data.maxUsageCount).toBe(4);

    const mine = await f.eventType({ userId: w.owner.id });
    const own = await f.privateLink(mine.id, { maxUses: 2 });
    const owner = await mint(server, w, w.owner, ['EVENT_TYPE_WRITE']);
    for (const body of [undefined, {}]) {
      const personal = await server.api('PATCH', `/v2/event-types/${mine.id}/private-links/${own.id}`, owner, body);
      expect(personal.status).toBe(200);
      expect(personal.body.data).toMatchObject({ linkId: own.id, maxUsageCount: 2 });
    }
    expect((await server.services.stores.api.eventTypes.listPrivateLinks(et.id))[0]).toMatchObject({ maxUses: 4, expiresAt: null, useCount: 0 });
  });

  it.skipIf(!available)('a team admin\'s request for a phone call is queued and answered as the platform answers (status, data.callId), saying it is queued; the operator lists it, without the API key', async () => {
    const et = await f.eventType({ teamId: w.team.id });
    const res = await server.api('POST', `/v2/teams/${w.team.id}/event-types/${et.id}/create-phone-call`, await mint(server, w, w.teamAdmin, PHONE_CALL_SCOPES), phoneCall);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({ status: 'success', data: { callId: expect.stringMatching(/^[0-9a-f-]{36}$/), callStatus: 'queued' } });
    expect(JSON.stringify(res.body)).not.toContain(API_KEY);

    const rows = await server.db.selectFrom('phone_calls').selectAll().where('id', '=', res.body.data.callId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ team_id: w.team.id, event_type_id: et.id, requested_by: w.teamAdmin.id, number_to_call: '+4930123456', template_type: 'CHECK_IN_APPOINTMENT', status: 'queued', guest_email: 'gil@example.com' });
    expect(JSON.stringify(rows)).not.toContain(API_KEY);

    const listed = await gatehouse('phone-calls', 'list', '--team', w.team.id, '--json');
    expect(listed.code, listed.stderr).toBe(0);
    const calls = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
    expect(calls).toContainEqual(expect.objectContaining({ id: res.body.data.callId, status: 'queued', number_to_call: '+4930123456', your_phone_number: '+14155550100', event_type_id: et.id, general_prompt: 'Offer the next free slot.' }));
    expect(listed.stdout).not.toContain(API_KEY);
    const text = await gatehouse('phone-calls', 'list', '--team', w.team.id);
    expect(text.stdout).toContain(`${res.body.data.callId}  queued  call +4930123456 from +14155550100  team ${w.team.id} event type ${et.id}  CHECK_IN_APPOINTMENT`);
  });

  it.skipIf(!available)('the organization form queues it for a team of that organization; the platform\'s defaults fill enabled and templateType', async () => {
    const et = await f.eventType({ teamId: w.team.id });
    const res = await server.api('POST', `/v2/organizations/${w.org.id}/teams/${w.team.id}/event-types/${et.id}/create-phone-call`, await mint(server, w, w.orgAdmin, PHONE_CALL_SCOPES), {
      yourPhoneNumber: '+14155550100',
      numberToCall: '+14155550199',
      calApiKey: API_KEY,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const row = await server.db.selectFrom('phone_calls').selectAll().where('id', '=', res.body.data.callId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ enabled: 1, template_type: 'CUSTOM_TEMPLATE', guest_name: null });
  });

  it.skipIf(!available)('a number that is not E.164, a missing number or an unknown template type is 400 naming the field, and queues nothing', async () => {
    const et = await f.eventType({ teamId: w.team.id });
    const path = `/v2/teams/${w.team.id}/event-types/${et.id}/create-phone-call`;
    const admin = await mint(server, w, w.teamAdmin, PHONE_CALL_SCOPES);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...phoneCall, numberToCall: '030 123456' }, 'numberToCall'],
      [{ ...phoneCall, yourPhoneNumber: undefined }, 'yourPhoneNumber'],
      [{ ...phoneCall, templateType: 'SOMETHING' }, 'templateType'],
      [{ ...phoneCall, enabled: 'yes' }, 'enabled'],
    ];
    for (const [body, field] of cases) {
      const res = await server.api('POST', path, admin, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.message).toContain(field);
      expect(JSON.stringify(res.body)).not.toContain(API_KEY);
    }
    expect(await server.db.selectFrom('phone_calls').select('id').where('event_type_id', '=', et.id).execute()).toEqual([]);
  });
});
