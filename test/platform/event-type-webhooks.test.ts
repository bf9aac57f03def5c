// Webhooks of an event type (docs/rules.md#webhooks), personal and team, at the platform's
// addresses: answered in its shape, reachable only by who may change the event type, and
// delivered for that event type's bookings only (made, rescheduled, cancelled), to a real
// receiver that verifies each signature. Everything through real HTTP, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeliveryEngine, type DeliveryEngine } from '../../src/services/webhooks/engine.ts';
import { backends } from '../helpers/backends.ts';
import { startTestServer, testResolver, type TestServer } from '../helpers/server.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';
import { buildWorld, fixtures, futureStart, mint, quickUser, uniq, type World } from './fixtures.ts';

const attendee = { name: 'Bea Booker', email: 'bea@example.com', timeZone: 'Europe/Paris' };
const ET_SCOPES = ['EVENT_TYPE_READ', 'EVENT_TYPE_WRITE', 'WEBHOOK_READ', 'BOOKING_READ'];
const TEAM_SCOPES = ['TEAM_EVENT_TYPE_READ', 'TEAM_EVENT_TYPE_WRITE', 'TEAM_BOOKING_READ'];

describe.each(backends)('event type webhooks on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;
  let receiver: WebhookReceiver;
  let engine: DeliveryEngine;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer(name, { LOG_LEVEL: 'warn', OUTBOUND_ALLOW_PRIVATE: '1' });
    w = await buildWorld(server);
    f = fixtures(server);
    receiver = await WebhookReceiver.start();
    engine = createDeliveryEngine({ services: server.services, outbound: { allowPrivate: true, resolve: testResolver }, timeoutMs: 2000, random: () => 0.5, onError: () => {} });
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  async function deliverAll(): Promise<void> {
    while ((await engine.deliverDue()) > 0);
  }

  const hookPath = () => {
    const path = `/hooks/${uniq()}`;
    receiver.answer(path, 'ok');
    return path;
  };

  it.skipIf(!available)('POST, GET, PATCH, DELETE …/event-types/{id}/webhooks answer in the platform shape: numbered ids, the event type, the secret in the creation answer only', async () => {
    const host = await quickUser(server, 'Hal Host');
    const token = await mint(server, w, host, ET_SCOPES);
    const et = await f.eventType({ userId: host.id });
    const base = `/v2/event-types/${et.id}/webhooks`;

    const created = await server.api('POST', base, token, { subscriberUrl: 'https://hooks.example.com/et', triggers: ['BOOKING_CREATED'], active: true });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const hook = created.body.data;
    expect(hook).toMatchObject({ eventTypeId: Number(et.id), subscriberUrl: 'https://hooks.example.com/et', triggers: ['BOOKING_CREATED'], active: true, payloadTemplate: null });
    expect(typeof hook.id).toBe('number');
    expect(hook.secret).toMatch(/^whsec_/);

    const listed = await server.api('GET', base, token);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).toMatchObject({ id: hook.id, eventTypeId: Number(et.id) });
    expect(listed.body.data[0]).not.toHaveProperty('secret');

    const got = await server.api('GET', `${base}/${hook.id}`, token);
    expect(got.status).toBe(200);
    expect(got.body.data).not.toHaveProperty('secret');

    const changed = await server.api('PATCH', `${base}/${hook.id}`, token, { active: false, payloadTemplate: '{"t":"{{type}}"}' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data).toMatchObject({ id: hook.id, active: false, payloadTemplate: '{"t":"{{type}}"}' });

    // The event type's webhooks are not the user's own.
    const mine = await server.api('GET', '/v2/webhooks', await mint(server, w, host, ['WEBHOOK_READ']));
    expect(mine.body.data).toEqual([]);

    const removed = await server.api('DELETE', `${base}/${hook.id}`, token);
    expect(removed.status).toBe(200);
    expect(removed.body.data).toMatchObject({ id: hook.id, eventTypeId: Number(et.id), active: false });
    expect((await server.api('GET', `${base}/${hook.id}`, token)).status).toBe(404);
  });

  it.skipIf(!available)('DELETE …/event-types/{id}/webhooks removes all of that event type\'s webhooks and says how many, leaving another event type\'s', async () => {
    const host = await quickUser(server, 'Hal Host');
    const token = await mint(server, w, host, ET_SCOPES);
    const et = await f.eventType({ userId: host.id });
    const other = await f.eventType({ userId: host.id });
    for (const id of [et.id, et.id, other.id]) {
      expect((await server.api('POST', `/v2/event-types/${id}/webhooks`, token, { subscriberUrl: 'https://hooks.example.com/x', triggers: ['BOOKING_CANCELLED'] })).status).toBe(201);
    }
    const res = await server.api('DELETE', `/v2/event-types/${et.id}/webhooks`, token);
    expect(res.status).toBe(200);
    expect(res.body.data).toBe('2 webhooks deleted');
    expect((await server.api('GET', `/v2/event-types/${et.id}/webhooks`, token)).body.data).toEqual([]);
    expect((await server.api('GET', `/v2/event-types/${other.id}/webhooks`, token)).body.data).toHaveLength(1);
  });

  it.skipIf(!available)('another user\'s event type, and its webhooks, are 404; a webhook is not reachable under another event type', async () => {
    const host = await quickUser(server, 'Hal Host');
    const stranger = await quickUser(server, 'Stan Stranger');
    const et = await f.eventType({ userId: host.id });
    const hook = await f.webhook({ eventTypeId: et.id });
    const theirs = await mint(server, w, stranger, ET_SCOPES);
    for (const [method, path, body] of [
      ['GET', `/v2/event-types/${et.id}/webhooks`],
      ['POST', `/v2/event-types/${et.id}/webhooks`, { subscriberUrl: 'https://hooks.example.com/steal', triggers: ['BOOKING_CREATED'] }],
      ['DELETE', `/v2/event-types/${et.id}/webhooks`],
      ['GET', `/v2/event-types/${et.id}/webhooks/${hook.id}`],
      ['PATCH', `/v2/event-types/${et.id}/webhooks/${hook.id}`, { active: false }],
      ['DELETE', `/v2/event-types/${et.id}/webhooks/${hook.id}`],
    ] as const) {
      const res = await server.api(method, path, theirs, body);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const strangersOwn = await f.eventType({ userId: stranger.id });
    expect((await server.api('GET', `/v2/event-types/${strangersOwn.id}/webhooks/${hook.id}`, theirs)).status).toBe(404);
    expect((await server.api('DELETE', `/v2/event-types/${strangersOwn.id}/webhooks/${hook.id}`, theirs)).status).toBe(404);
    const hosts = await mint(server, w, host, ET_SCOPES);
    expect((await server.api('GET', `/v2/event-types/${et.id}/webhooks/${hook.id}`, hosts)).body.data.active).toBe(true);
  });

  it.skipIf(!available)('a chosen secret, an unknown trigger and a private subscriber are 400s saying what to fix', async () => {
    const host = await quickUser(server, 'Hal Host');
    const token = await mint(server, w, host, ET_SCOPES);
    const et = await f.eventType({ userId: host.id });
    const base = `/v2/event-types/${et.id}/webhooks`;
    const secret = await server.api('POST', base, token, { subscriberUrl: 'https://hooks.example.com/a', triggers: ['BOOKING_CREATED'], secret: 'mine' });
    expect(secret.status).toBe(400);
    expect(secret.body.error.message).toMatch(/secret/);
    const trigger = await server.api('POST', base, token, { subscriberUrl: 'https://hooks.example.com/a', triggers: ['BOOKING_COMPLETED'] });
    expect(trigger.status).toBe(400);
    expect(trigger.body.error.message).toMatch(/triggers/);
    const hook = await f.webhook({ eventTypeId: et.id });
    const patchSecret = await server.api('PATCH', `${base}/${hook.id}`, token, { secret: 'mine' });
    expect(patchSecret.status).toBe(400);
    expect(patchSecret.body.error.message).toMatch(/secret/);
  });

  it.skipIf(!available)('a booking of the event type reaches its webhook, signed; a booking of another event type of the same host does not', async () => {
    const host = await quickUser(server, 'Hal Host');
    const token = await mint(server, w, host, ET_SCOPES);
    const et = await f.eventType({ userId: host.id });
    const other = await f.eventType({ userId: host.id });
    const path = hookPath();
    const created = await server.api('POST', `/v2/event-types/${et.id}/webhooks`, token, { subscriberUrl: receiver.url(path), triggers: ['BOOKING_CREATED'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    receiver.expectSecret(path, created.body.data.secret);

    const ofOther = await server.api('POST', '/v2/bookings', undefined, { eventTypeId: other.id, start: new Date(futureStart(server)).toISOString(), attendee });
    expect(ofOther.status, JSON.stringify(ofOther.body)).toBe(201);
    await deliverAll();
    expect(receiver.at(path)).toHaveLength(0);

    const ofThis = await server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: new Date(futureStart(server)).toISOString(), attendee });
    expect(ofThis.status, JSON.stringify(ofThis.body)).toBe(201);
    await deliverAll();
    const got = receiver.at(path);
    expect(got).toHaveLength(1);
    expect(got[0]!.verified).toMatchObject({ type: 'BOOKING_CREATED', data: { uid: ofThis.body.data.uid, eventTypeId: Number(et.id) } });
  });

  /** A public booking of the event type: its uid and the manageToken that cancels or moves it. */
  async function book(eventTypeId: string): Promise<{ uid: string; manageToken: string }> {
    const res = await server.api('POST', '/v2/bookings', undefined, { eventTypeId, start: new Date(futureStart(server)).toISOString(), attendee });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data;
  }
  const reschedule = async (b: { uid: string; manageToken: string }) => {
    const res = await server.api('POST', `/v2/bookings/${b.uid}/reschedule`, undefined, { manageToken: b.manageToken, start: new Date(futureStart(server)).toISOString() });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as { uid: string };
  };
  const cancel = async (b: { uid: string; manageToken: string }, cancellationReason: string) => {
    const res = await server.api('POST', `/v2/bookings/${b.uid}/cancel`, undefined, { manageToken: b.manageToken, cancellationReason });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  /** What a path received, each delivery's signature checked: its events' types and data. */
  const heard = (path: string) =>
    receiver.at(path).map((r) => {
      expect(r.verifyError, path).toBeNull();
      expect(r.headers['webhook-id']).toMatch(/^msg_/);
      expect(r.headers['webhook-signature']).toMatch(/^v1,/);
      return r.verified as { type: string; data: Record<string, unknown> };
    });

  it.skipIf(!available)('docs/rules.md#event-type-webhooks, docs/rules.md#webhooks: BOOKING_CANCELLED and BOOKING_RESCHEDULED of the event type\'s bookings reach its webhook subscribed to them, signed, with the booking; not a webhook of the event type subscribed to other triggers, nor another event type\'s', async () => {
    const host = await quickUser(server, 'Hal Host');
    const token = await mint(server, w, host, ET_SCOPES);
    const et = await f.eventType({ userId: host.id });
    const other = await f.eventType({ userId: host.id });
    const subscribe = async (eventTypeId: string, triggers: string[]) => {
      const path = hookPath();
      const created = await server.api('POST', `/v2/event-types/${eventTypeId}/webhooks`, token, { subscriberUrl: receiver.url(path), triggers });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      receiver.expectSecret(path, created.body.data.secret);
      return path;
    };
    const changes = ['BOOKING_CANCELLED', 'BOOKING_RESCHEDULED'];
    const hook = await subscribe(et.id, changes);
    const createdOnly = await subscribe(et.id, ['BOOKING_CREATED']);
    const othersHook = await subscribe(other.id, changes);

    const moved = await book(et.id);
    const dropped = await book(et.id);
    const movedTo = await reschedule(moved);
    await cancel(dropped, 'the host is away');
    await deliverAll();

    const got = heard(hook);
    expect(got.map((p) => p.type).sort()).toEqual(changes);
    expect(got.find((p) => p.type === 'BOOKING_RESCHEDULED')!.data).toMatchObject({ uid: movedTo.uid, rescheduledFrom: moved.uid, eventTypeId: Number(et.id), hostId: Number(host.id), attendee: { email: attendee.email } });
    expect(got.find((p) => p.type === 'BOOKING_CANCELLED')!.data).toMatchObject({ uid: dropped.uid, status: 'cancelled', cancellationReason: 'the host is away', eventTypeId: Number(et.id), attendee: { email: attendee.email } });
    expect(heard(createdOnly).map((p) => p.type)).toEqual(['BOOKING_CREATED', 'BOOKING_CREATED']);
    expect(receiver.at(othersHook)).toHaveLength(0);

    // The other event type's webhook hears of its own bookings' changes, and this one does not.
    const ofOther = await book(other.id);
    await cancel(ofOther, 'changed plans');
    await deliverAll();
    expect(heard(othersHook)).toMatchObject([{ type: 'BOOKING_CANCELLED', data: { uid: ofOther.uid, eventTypeId: Number(other.id) } }]);
    expect(receiver.at(hook)).toHaveLength(2);
  });

  it.skipIf(!available)('docs/rules.md#event-type-webhooks: a team event type\'s webhook hears BOOKING_CANCELLED and BOOKING_RESCHEDULED of that event type\'s bookings, signed, and another team event type\'s webhook does not', async () => {
    const admin = await mint(server, w, w.teamAdmin, TEAM_SCOPES);
    const et = await f.eventType({ teamId: w.team.id });
    const other = await f.eventType({ teamId: w.team.id });
    const subscribe = async (eventTypeId: string) => {
      const path = hookPath();
      const created = await server.api('POST', `/v2/teams/${w.team.id}/event-types/${eventTypeId}/webhooks`, admin, { subscriberUrl: receiver.url(path), triggers: ['BOOKING_CANCELLED', 'BOOKING_RESCHEDULED'] });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      receiver.expectSecret(path, created.body.data.secret);
      return path;
    };
    const hook = await subscribe(et.id);
    const othersHook = await subscribe(other.id);
    const moved = await book(et.id);
    const movedTo = await reschedule(moved);
    // The booker's one manageToken keeps working for the moved booking (docs/rules.md#public-booking).
    await cancel({ uid: movedTo.uid, manageToken: moved.manageToken }, 'no longer needed');
    await deliverAll();
    const got = heard(hook).sort((a, b) => a.type.localeCompare(b.type));
    expect(got).toMatchObject([
      { type: 'BOOKING_CANCELLED', data: { uid: movedTo.uid, status: 'cancelled', cancellationReason: 'no longer needed', eventTypeId: Number(et.id), teamId: Number(w.team.id) } },
      { type: 'BOOKING_RESCHEDULED', data: { uid: movedTo.uid, rescheduledFrom: moved.uid, eventTypeId: Number(et.id), teamId: Number(w.team.id) } },
    ]);
    expect(receiver.at(othersHook)).toHaveLength(0);
  });

  it.skipIf(!available)('a team event type\'s webhooks: team admins manage them, a member reads them, an outsider gets 404; its bookings reach them', async () => {
    const et = await f.eventType({ teamId: w.team.id });
    const base = `/v2/teams/${w.team.id}/event-types/${et.id}/webhooks`;
    const admin = await mint(server, w, w.teamAdmin, TEAM_SCOPES);
    const member = await mint(server, w, w.member, TEAM_SCOPES);
    const outsider = await mint(server, w, w.outsider, TEAM_SCOPES);
    const path = hookPath();

    expect((await server.api('POST', base, member, { subscriberUrl: receiver.url(path), triggers: ['BOOKING_CREATED'] })).status).toBe(403);
    expect((await server.api('GET', base, outsider)).status).toBe(403);
    const created = await server.api('POST', base, admin, { subscriberUrl: receiver.url(path), triggers: ['BOOKING_CREATED'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({ eventTypeId: Number(et.id), active: true });
    receiver.expectSecret(path, created.body.data.secret);
    const read = await server.api('GET', `${base}/${created.body.data.id}`, member);
    expect(read.status).toBe(200);
    expect(read.body.data).not.toHaveProperty('secret');

    // Another team's event type is not reached through this team's path.
    const elsewhere = await f.eventType({ teamId: w.otherTeam.id });
    expect((await server.api('GET', `/v2/teams/${w.team.id}/event-types/${elsewhere.id}/webhooks`, admin)).status).toBe(404);

    const booked = await server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: new Date(futureStart(server)).toISOString(), attendee });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    await deliverAll();
    const got = receiver.at(path);
    expect(got).toHaveLength(1);
    expect(got[0]!.verified).toMatchObject({ type: 'BOOKING_CREATED', data: { uid: booked.body.data.uid, eventTypeId: Number(et.id) } });

    const cleared = await server.api('DELETE', base, admin);
    expect(cleared.body.data).toBe('1 webhooks deleted');
  });

  it.skipIf(!available)('docs/rules.md#event-type-webhooks: a token that may change event types but not read their bookings cannot make or point a webhook to hear them (403 insufficient_scope naming the booking scope); nothing is stored', async () => {
    const host = await quickUser(server, 'Sam Scoped');
    const et = await f.eventType({ userId: host.id });
    const base = `/v2/event-types/${et.id}/webhooks`;
    const narrow = await mint(server, w, host, ['EVENT_TYPE_READ', 'EVENT_TYPE_WRITE']);
    const made = await server.api('POST', base, narrow, { subscriberUrl: 'https://attacker.example.com/hook', triggers: ['BOOKING_CREATED'] });
    expect(made.status).toBe(403);
    expect(made.body.error.code).toBe('insufficient_scope');
    expect(made.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="BOOKING_READ"');
    expect((await server.api('GET', base, narrow)).body.data).toEqual([]);
    const legit = await server.api('POST', base, await mint(server, w, host, ET_SCOPES), { subscriberUrl: 'https://hooks.example.com/legit', triggers: ['BOOKING_CREATED'] });
    expect(legit.status).toBe(201);
    const moved = await server.api('PATCH', `${base}/${legit.body.data.id}`, narrow, { subscriberUrl: 'https://attacker.example.com/hook' });
    expect(moved.status).toBe(403);
    expect((await server.api('GET', `${base}/${legit.body.data.id}`, narrow)).body.data.subscriberUrl).toBe('https://hooks.example.com/legit');

    const team = await f.eventType({ teamId: w.team.id });
    const teamBase = `/v2/teams/${w.team.id}/event-types/${team.id}/webhooks`;
    const teamNarrow = await mint(server, w, w.teamAdmin, ['TEAM_EVENT_TYPE_READ', 'TEAM_EVENT_TYPE_WRITE']);
    const teamMade = await server.api('POST', teamBase, teamNarrow, { subscriberUrl: 'https://attacker.example.com/team', triggers: ['BOOKING_CREATED'] });
    expect(teamMade.status).toBe(403);
    expect(teamMade.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="TEAM_BOOKING_READ"');
    expect((await server.api('GET', teamBase, teamNarrow)).body.data).toEqual([]);
  });

  it.skipIf(!available)("docs/rules.md#event-type-webhooks: …/webhooks/{id}/deliveries lists what was sent, newest first, and redeliver sends one again as a new message; both need the booking read scope; another event type's webhook is 404", async () => {
    const host = await quickUser(server, 'Dee Deliveries');
    const token = await mint(server, w, host, ET_SCOPES);
    const et = await f.eventType({ userId: host.id });
    const other = await f.eventType({ userId: host.id });
    const path = hookPath();
    const created = await server.api('POST', `/v2/event-types/${et.id}/webhooks`, token, { subscriberUrl: receiver.url(path), triggers: ['BOOKING_CREATED'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const base = `/v2/event-types/${et.id}/webhooks/${created.body.data.id}`;
    const booked = await book(et.id);
    await deliverAll();

    const listed = await server.api('GET', `${base}/deliveries`, token);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.data).toHaveLength(1);
    const [sent] = listed.body.data;
    expect(sent).toMatchObject({ event: 'BOOKING_CREATED', status: 'delivered', attempts: 1, responseStatus: 200 });
    expect(JSON.parse(sent.payload)).toMatchObject({ type: 'BOOKING_CREATED', data: { uid: booked.uid } });

    const again = await server.api('POST', `${base}/deliveries/${sent.id}/redeliver`, token);
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.data).toMatchObject({ event: 'BOOKING_CREATED', status: 'pending', attempts: 0, payload: sent.payload });
    expect(again.body.data.id).not.toBe(sent.id);
    await deliverAll();
    expect(receiver.at(path)).toHaveLength(2);
    expect((await server.api('GET', `${base}/deliveries`, token)).body.data.map((d: { id: string }) => d.id)).toEqual([again.body.data.id, sent.id]);

    const withoutBookings = await mint(server, w, host, ['EVENT_TYPE_READ', 'EVENT_TYPE_WRITE']);
    for (const [method, address] of [['GET', `${base}/deliveries`], ['POST', `${base}/deliveries/${sent.id}/redeliver`]] as const) {
      const refused = await server.api(method, address, withoutBookings);
      expect(refused.status, address).toBe(403);
      expect(refused.body.error.code).toBe('insufficient_scope');
      expect(refused.body.error.message).toContain('BOOKING_READ');
    }
    const elsewhere = await server.api('GET', `/v2/event-types/${other.id}/webhooks/${created.body.data.id}/deliveries`, token);
    expect(elsewhere.status).toBe(404);
  });

  it.skipIf(!available)('deleting the event type deletes its webhooks', async () => {
    const host = await quickUser(server, 'Hal Host');
    const token = await mint(server, w, host, ET_SCOPES);
    const et = await f.eventType({ userId: host.id });
    const hook = await f.webhook({ eventTypeId: et.id });
    expect((await server.api('DELETE', `/v2/event-types/${et.id}`, token)).status).toBe(200);
    expect(await server.services.stores.webhooks.find({ eventTypeId: et.id }, hook.id)).toBeUndefined();
  });
});
