// The contract of WebhookDeliveryStore (src/services/webhooks/store.ts) on SQLite and
// PostgreSQL: which webhooks hear of an event, and the claim that makes each attempt
// exclusive across callers (docs/rules.md#webhooks). Each test has a database of its own: a claim takes
// whatever is due, so the outbox must hold only the test's deliveries.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceStores } from '../../src/services/stores.ts';
import { createServiceStores } from '../../src/storage/stores/index.ts';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';
import { seedClient, seedOrganization, seedUser, T0, uniqueId } from './seed.ts';

describe.each(backends)('webhook delivery store on $name', ({ name, available }) => {
  let database: TestDatabase;
  let stores: ServiceStores;
  beforeEach(async () => {
    if (!available) return;
    database = await createTestDatabase(name);
    stores = createServiceStores(database.handle.db);
  });
  afterEach(async () => database?.drop());

  async function webhook(owner: { userId: string } | { organizationId: string } | { eventTypeId: string }, triggers = ['BOOKING_CREATED'], active = true): Promise<string> {
    const id = uniqueId('wh');
    await stores.webhooks.insert(
      {
        id,
        ownerId: 'userId' in owner ? owner.userId : null,
        organizationId: 'organizationId' in owner ? owner.organizationId : null,
        eventTypeId: 'eventTypeId' in owner ? owner.eventTypeId : null,
        subscriberUrl: 'https://hooks.example.com/in', triggers, active, payloadTemplate: null, disabledReason: null, createdAt: T0, updatedAt: T0,
      },
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    );
    return id;
  }

  /** One BOOKING_CREATED message to the webhook, written at `createdAt`; its id. */
  const enqueue = async (webhookId: string, createdAt = T0) => (await stores.webhookDeliveries.enqueue([{ webhookId }], 'BOOKING_CREATED', {}, createdAt))[0]!;

  it.skipIf(!available)('subscribedWebhooks: the host\'s own and their organizations\', subscribed to the trigger and active; a team event reaches its organization', async () => {
    const host = await seedUser(database.handle.db);
    const org = await seedOrganization(database.handle.db);
    const other = await seedOrganization(database.handle.db);
    await stores.teams.insertMembership({ id: uniqueId('m'), userId: host, teamId: null, organizationId: org, role: 'member', createdAt: T0, updatedAt: T0 });
    const teamId = uniqueId('t');
    await stores.teams.insertTeam({ id: teamId, organizationId: other, name: 'T', slug: teamId.toLowerCase(), bio: '', timeZone: 'UTC', brandColor: '#292929', createdAt: T0, updatedAt: T0 });
    const mine = await webhook({ userId: host });
    await webhook({ userId: host }, ['BOOKING_CANCELLED']);
    await webhook({ userId: host }, ['BOOKING_CREATED'], false);
    const orgs = await webhook({ organizationId: org });
    const teams = await webhook({ organizationId: other });
    await webhook({ userId: await seedUser(database.handle.db) });

    expect((await stores.webhookDeliveries.subscribedWebhooks('BOOKING_CREATED', { hostId: host, teamId: null })).sort()).toEqual([mine, orgs].sort());
    expect((await stores.webhookDeliveries.subscribedWebhooks('BOOKING_CREATED', { hostId: host, teamId })).sort()).toEqual([mine, teams].sort());
    expect(await stores.webhookDeliveries.subscribedWebhooks('BOOKING_CREATED', { hostId: null, teamId: null, organizationId: other })).toEqual([teams]);
    expect(await stores.webhookDeliveries.subscribedWebhooks('FORM_SUBMITTED', { hostId: host, teamId: null })).toEqual([]);
  });

  it.skipIf(!available)('subscribedWebhooks: an event type\'s webhooks hear of its own bookings only, beside the host\'s', async () => {
    const host = await seedUser(database.handle.db);
    const eventType = async () => {
      const id = uniqueId('et');
      await database.handle.db
        .insertInto('event_types')
        .values({ id, user_id: host, team_id: null, title: 'Intro', slug: id.toLowerCase(), description: '', length_minutes: 30, locations: '[]', hidden: 0, requires_confirmation: 0, minimum_booking_notice: 0, scheduling_type: null, created_at: T0, updated_at: T0 })
        .execute();
      return id;
    };
    const [one, two] = [await eventType(), await eventType()];
    const mine = await webhook({ userId: host });
    const ofOne = await webhook({ eventTypeId: one });
    await webhook({ eventTypeId: one }, ['BOOKING_CANCELLED']);
    await webhook({ eventTypeId: one }, ['BOOKING_CREATED'], false);
    const ofTwo = await webhook({ eventTypeId: two });

    expect((await stores.webhookDeliveries.subscribedWebhooks('BOOKING_CREATED', { hostId: host, teamId: null, eventTypeId: one })).sort()).toEqual([mine, ofOne].sort());
    expect((await stores.webhookDeliveries.subscribedWebhooks('BOOKING_CREATED', { hostId: null, teamId: null, eventTypeId: two }))).toEqual([ofTwo]);
    expect(await stores.webhookDeliveries.subscribedWebhooks('BOOKING_CREATED', { hostId: host, teamId: null })).toEqual([mine]);
  });

  it.skipIf(!available)('claimDue: only due deliveries to a destination that takes them; a claim counts the attempt and holds the delivery until the lease ends', async () => {
    const user = await seedUser(database.handle.db);
    const on = await webhook({ userId: user });
    const off = await webhook({ userId: user }, ['BOOKING_CREATED'], false);
    const due = await enqueue(on);
    const later = await enqueue(on, T0 + 60_000);
    await enqueue(off);
    const claimed = await stores.webhookDeliveries.claimDue(T0, T0 + 1000, 10);
    expect(claimed).toMatchObject([{ id: due, attempt: 1, url: 'https://hooks.example.com/in', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', destination: { webhookId: on } }]);
    expect(await stores.webhookDeliveries.claimDue(T0 + 999, T0 + 2000, 10)).toEqual([]);
    // The lease ended without an outcome (the claimer died): the next claim takes it again.
    expect((await stores.webhookDeliveries.claimDue(T0 + 1000, T0 + 5000, 10)).map((c) => [c.id, c.attempt])).toEqual([[due, 2]]);
    // The first claimer's late outcome no longer counts; the current one's does.
    const outcome = { at: T0 + 1001, delivered: true, responseStatus: 200, responseBody: 'ok', error: null, nextAttemptAt: null };
    expect(await stores.webhookDeliveries.recordAttempt(due, 1, outcome)).toBe(false);
    expect(await stores.webhookDeliveries.recordAttempt(due, 2, outcome)).toBe(true);
    expect(await stores.webhookDeliveries.find({ webhookId: on }, due)).toMatchObject({ status: 'delivered', attempts: 2, responseStatus: 200, responseBody: 'ok', nextAttemptAt: null });
    expect(await stores.webhookDeliveries.claimDue(T0 + 10_000_000, T0 + 10_001_000, 10)).toMatchObject([{ id: later }]);
  });

  it.skipIf(!available)('claimDue: concurrent callers never get the same delivery', async () => {
    const on = await webhook({ userId: await seedUser(database.handle.db) });
    const all: string[] = [];
    for (let i = 0; i < 24; i++) all.push(await enqueue(on, T0 + i));
    const rounds = await Promise.all(Array.from({ length: 6 }, () => stores.webhookDeliveries.claimDue(T0 + 100, T0 + 60_000, 5)));
    const ids = rounds.flat().map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    // Each claim takes at most its limit, whoever it raced.
    expect(rounds.map((r) => r.length).filter((n) => n > 5)).toEqual([]);
    // What the concurrent callers skipped is still there for the next one.
    const rest = await stores.webhookDeliveries.claimDue(T0 + 100, T0 + 60_000, 100);
    expect([...ids, ...rest.map((c) => c.id)].sort()).toEqual([...all].sort());
  });

  it.skipIf(!available)('disable turns the webhook off with its reason and fails its pending deliveries; markFailing keeps the first failure time', async () => {
    const user = await seedUser(database.handle.db);
    const hook = await webhook({ userId: user });
    const pending = await enqueue(hook);
    expect(await stores.webhookDeliveries.markFailing(hook, T0)).toBe(T0);
    expect(await stores.webhookDeliveries.markFailing(hook, T0 + 5)).toBe(T0);
    await stores.webhookDeliveries.disable(hook, 'failing for 5 days', T0 + 6);
    expect(await stores.webhooks.find({ userId: user }, hook)).toMatchObject({ active: false, disabledReason: 'failing for 5 days' });
    expect(await stores.webhookDeliveries.find({ webhookId: hook }, pending)).toMatchObject({ status: 'failed', nextAttemptAt: null, error: 'the webhook was turned off' });
    await stores.webhookDeliveries.markHealthy(hook);
    expect(await stores.webhookDeliveries.markFailing(hook, T0 + 7)).toBe(T0 + 7);
  });

  it.skipIf(!available)('client events: a client is told only with an events URL and a secret; its deliveries are its own', async () => {
    const owner = await seedUser(database.handle.db);
    const clientId = await seedClient(database.handle.db, owner);
    expect(await stores.webhookDeliveries.clientEvents(clientId)).toEqual({ eventsUrl: null, hasSecret: false });
    await stores.webhookDeliveries.setClientEventsUrl(clientId, 'https://app.example.com/events', T0);
    expect(await stores.webhookDeliveries.clientEvents(clientId)).toEqual({ eventsUrl: 'https://app.example.com/events', hasSecret: false });
    // Nothing to sign with: the outbox writes nothing for it.
    await stores.webhookDeliveries.notifyClient(clientId, 'client.suspended', {}, T0);
    expect(await stores.webhookDeliveries.list({ clientId }, 10, 0)).toEqual([]);
    expect(await stores.webhookDeliveries.replaceClientEventsSecret(clientId, null, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', T0)).toBe(true);
    expect(await stores.webhookDeliveries.clientEvents(clientId)).toEqual({ eventsUrl: 'https://app.example.com/events', hasSecret: true });
    await stores.webhookDeliveries.notifyClient(clientId, 'client.suspended', { state: 'suspended' }, T0);
    const [told] = await stores.webhookDeliveries.list({ clientId }, 10, 0);
    expect(told).toMatchObject({ event: 'client.suspended', status: 'pending', nextAttemptAt: T0, createdAt: T0 });
    expect(JSON.parse(told!.payload)).toEqual({ type: 'client.suspended', timestamp: new Date(T0).toISOString(), data: { clientId, state: 'suspended' } });
    expect(await stores.webhookDeliveries.claimDue(T0, T0 + 1, 10)).toMatchObject([{ id: told!.id, url: 'https://app.example.com/events', destination: { clientId } }]);
    expect((await stores.webhookDeliveries.list({ clientId }, 10, 0)).map((x) => x.id)).toEqual([told!.id]);
    expect(await stores.webhookDeliveries.list({ webhookId: 'nope' }, 10, 0)).toEqual([]);
  });

  it.skipIf(!available)('replaceClientEventsSecret: writes only over the secret named (null: none yet), and of concurrent replacements of one secret exactly one writes', async () => {
    const owner = await seedUser(database.handle.db);
    const clientId = await seedClient(database.handle.db, owner);
    const events = stores.webhookDeliveries;
    expect(await events.clientEventsSecret(clientId)).toBeNull();
    expect(await events.replaceClientEventsSecret(clientId, 'whsec_notTheCurrentOne', 'whsec_first', T0)).toBe(false);
    expect(await events.replaceClientEventsSecret(clientId, null, 'whsec_first', T0)).toBe(true);
    expect(await events.replaceClientEventsSecret(clientId, null, 'whsec_another', T0)).toBe(false);
    expect(await events.clientEventsSecret(clientId)).toBe('whsec_first');
    const raced = await Promise.all(
      ['whsec_a', 'whsec_b', 'whsec_c'].map((next) => stores.transaction((tx) => tx.webhookDeliveries.replaceClientEventsSecret(clientId, 'whsec_first', next, T0 + 1))),
    );
    expect(raced.filter(Boolean)).toHaveLength(1);
    const winner = ['whsec_a', 'whsec_b', 'whsec_c'][raced.indexOf(true)];
    expect(await events.clientEventsSecret(clientId)).toBe(winner);
    expect(await events.clientEventsSecret('no-such-client')).toBeNull();
  });

  it.skipIf(!available)('enqueue: one message per destination, each its own Standard Webhooks id, the body the envelope of the event', async () => {
    const user = await seedUser(database.handle.db);
    const [a, b] = [await webhook({ userId: user }), await webhook({ userId: user })];
    const ids = await stores.webhookDeliveries.enqueue([{ webhookId: a }, { webhookId: b }], 'BOOKING_CANCELLED', { uid: 'bk1' }, T0);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) expect(id).toMatch(/^msg_[0-9A-Za-z]+$/);
    const body = { type: 'BOOKING_CANCELLED', timestamp: new Date(T0).toISOString(), data: { uid: 'bk1' } };
    for (const [webhookId, id] of [[a, ids[0]!], [b, ids[1]!]] as const) {
      const written = await stores.webhookDeliveries.find({ webhookId }, id);
      expect(written).toMatchObject({ event: 'BOOKING_CANCELLED', status: 'pending', attempts: 0, nextAttemptAt: T0, createdAt: T0 });
      expect(JSON.parse(written!.payload)).toEqual(body);
    }
    expect(await stores.webhookDeliveries.enqueue([], 'BOOKING_CANCELLED', {}, T0)).toEqual([]);
  });

  it.skipIf(!available)('redeliver: a new message with the same event and body byte for byte, due at once; nothing for an id the destination does not have', async () => {
    const user = await seedUser(database.handle.db);
    const hook = await webhook({ userId: user });
    const original = await enqueue(hook);
    const copy = await stores.webhookDeliveries.redeliver({ webhookId: hook }, original, T0 + 5000);
    expect(copy).toMatch(/^msg_/);
    expect(copy).not.toBe(original);
    const [was, now] = [await stores.webhookDeliveries.find({ webhookId: hook }, original), await stores.webhookDeliveries.find({ webhookId: hook }, copy!)];
    expect(now).toMatchObject({ event: was!.event, payload: was!.payload, status: 'pending', attempts: 0, nextAttemptAt: T0 + 5000, createdAt: T0 + 5000 });
    expect(await stores.webhookDeliveries.redeliver({ webhookId: hook }, 'msg_unknown', T0)).toBeUndefined();
    expect(await stores.webhookDeliveries.redeliver({ webhookId: await webhook({ userId: user }) }, original, T0)).toBeUndefined();
  });
});
