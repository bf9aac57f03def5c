// docs/rules.md#webhooks, across processes: every `gatehouse serve` delivers from the outbox. Two instances
// over one PostgreSQL database never deliver the same attempt twice (claims use FOR UPDATE
// SKIP LOCKED), and an event committed by an instance killed with SIGKILL before it could
// deliver is delivered by the next instance to start, on both databases.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomId } from '../../src/oauth/token-format.ts';
import { createUser } from '../../src/services/accounts/users.ts';
import { newSigningSecret } from '../../src/services/webhooks/signing.ts';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';
import { killHard, startServe, stopServe, type ServeProcess } from '../helpers/serve-process.ts';
import { freePort } from '../helpers/ports.ts';
import { slotStart } from '../helpers/slot-starts.ts';
import { storesOver } from '../helpers/stores.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

/** These tests start `gatehouse serve` processes, which take seconds each on a busy machine. */
const PROCESS_TEST_TIMEOUT = 120_000;

type Instance = ServeProcess;

/** Starts `gatehouse serve` on the test database (serve-process.ts waits until /healthz answers). */
async function startInstance(database: TestDatabase, env: Record<string, string>): Promise<Instance> {
  return startServe(await freePort(), { DATABASE_URL: database.url, OUTBOUND_ALLOW_PRIVATE: '1', ...database.env, ...env });
}

/** Polls `condition` until it holds; fails after `ms`. */
async function until(condition: () => Promise<boolean> | boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A host with an event type and a webhook on the receiver, written through the stores. */
async function seed(database: TestDatabase, receiver: WebhookReceiver) {
  const { services } = storesOver(database.handle.db);
  const { stores } = services;
  const now = Date.now();
  const host = await createUser(services, { email: `h-${randomId(6).toLowerCase()}@example.com`, name: 'Hook Host', password: 'hook-host-password' });
  const eventTypeId = await stores.ids.next('event_types');
  await stores.api.eventTypes.insert({
    id: eventTypeId,
    ownerId: host.id,
    teamId: null,
    title: 'Call',
    slug: `call-${randomId(6).toLowerCase()}`,
    description: '',
    lengthMinutes: 15,
    locations: [],
    bookingFields: [],
    hidden: false,
    requiresConfirmation: false,
    minimumBookingNotice: 0,
    schedulingType: null,
    createdAt: now,
    updatedAt: now,
  });
  const path = `/hooks/${randomId()}`;
  const secret = newSigningSecret();
  receiver.expectSecret(path, secret);
  const webhookId = await stores.ids.next('webhooks');
  await stores.webhooks.insert(
    { id: webhookId, ownerId: host.id, organizationId: null, eventTypeId: null, subscriberUrl: receiver.url(path), triggers: ['BOOKING_CREATED'], active: true, payloadTemplate: null, disabledReason: null, createdAt: now, updatedAt: now },
    secret,
  );
  /** The webhook's deliveries as its owner lists them. */
  const deliveries = () => stores.webhookDeliveries.list({ webhookId }, 1000, 0);
  return { eventTypeId, path, deliveries };
}

let slot = 0;
/** A booking at a distinct slot of the host's default week (docs/rules.md#booking-availability: only a slot is booked). */
async function book(instance: Instance, eventTypeId: string): Promise<string> {
  const start = new Date(slotStart(Date.now(), slot++)).toISOString();
  const res = await fetch(`${instance.url}/v2/bookings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ eventTypeId, start, attendee: { name: 'Bo', email: 'bo@example.com', timeZone: 'UTC' } }),
  });
  const body = (await res.json()) as { data: { uid: string } };
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body.data.uid;
}

describe.each(backends)('webhook delivery by gatehouse serve on $name (docs/rules.md#webhooks)', ({ name, available }) => {
  let database: TestDatabase;
  let receiver: WebhookReceiver;
  const running: Instance[] = [];
  beforeAll(async () => {
    if (!available) return;
    database = await createTestDatabase(name);
    receiver = await WebhookReceiver.start();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((i) => stopServe(i)));
  });
  afterAll(async () => {
    await receiver?.close();
    await database?.drop();
  });

  it.skipIf(!available)('delivers an event committed by an instance killed (SIGKILL) before it delivered, once the next instance starts', async () => {
    const { eventTypeId, path, deliveries } = await seed(database, receiver);
    // This instance looks for due deliveries once at start, then not for 10 minutes: the
    // event it commits is certainly not delivered by it.
    const doomed = await startInstance(database, { WEBHOOK_POLL_INTERVAL_MS: '600000' });
    running.push(doomed);
    const uid = await book(doomed, eventTypeId);
    await killHard(doomed);
    expect(receiver.at(path)).toHaveLength(0);
    expect((await deliveries()).map((d) => ({ status: d.status, attempts: d.attempts, uid: JSON.parse(d.payload).data?.uid }))).toEqual([{ status: 'pending', attempts: 0, uid }]);

    running.push(await startInstance(database, { WEBHOOK_POLL_INTERVAL_MS: '100' }));
    await until(() => receiver.at(path).length === 1);
    const [got] = receiver.at(path);
    expect(got!.verifyError).toBeNull();
    expect(got!.verified).toMatchObject({ type: 'BOOKING_CREATED', data: { uid } });
    await until(async () => (await deliveries())[0]?.status === 'delivered');
  }, PROCESS_TEST_TIMEOUT);

  it.skipIf(!available || name !== 'postgres')('two instances deliver every event once: no attempt is sent twice', async () => {
    const { eventTypeId, path, deliveries } = await seed(database, receiver);
    const env = { WEBHOOK_POLL_INTERVAL_MS: '100' };
    const [a, b] = await Promise.all([startInstance(database, env), startInstance(database, env)]);
    running.push(a!, b!);
    const uids: string[] = [];
    // Bookings through both instances, while both are polling the same outbox.
    for (let i = 0; i < 30; i++) uids.push(await book(i % 2 === 0 ? a! : b!, eventTypeId));
    const settled = async () => {
      const rows = await deliveries();
      return rows.length >= 30 && rows.every((r) => r.status === 'delivered');
    };
    await until(settled, 30_000);
    const got = receiver.at(path);
    expect(got.every((r) => r.verifyError === null)).toBe(true);
    expect(got).toHaveLength(30);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(30);
    expect(new Set(got.map((r) => (r.verified as { data: { uid: string } }).data.uid))).toEqual(new Set(uids));
    expect((await deliveries()).map((d) => [d.event, d.attempts])).toEqual(Array(30).fill(['BOOKING_CREATED', 1]));
  }, PROCESS_TEST_TIMEOUT);
});
