// SPEC §9 across processes: every `gatehouse serve` delivers from the outbox. Two instances
// over one PostgreSQL database never deliver the same attempt twice (claims use FOR UPDATE
// SKIP LOCKED), and an event committed by an instance killed with SIGKILL before it could
// deliver is delivered by the next instance to start, on both databases.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomId } from '../../src/oauth/token-format.ts';
import { newSigningSecret } from '../../src/services/webhooks/signing.ts';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';
import { killHard, startServe, stopServe, type ServeProcess } from '../helpers/serve-process.ts';
import { freePort } from '../helpers/server.ts';
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

/** A host with an event type and a webhook on the receiver, written straight to the database. */
async function seed(database: TestDatabase, receiver: WebhookReceiver) {
  const db = database.handle.db;
  const now = Date.now();
  const userId = randomId();
  await db
    .insertInto('users')
    .values({ id: userId, email: `h-${randomId(6)}@example.com`, name: 'Hook Host', username: `h-${randomId(6)}`, password_hash: 'x', is_admin: 0, time_zone: 'UTC', week_start: 'Monday', time_format: 24, default_schedule_id: null, organization_id: null, created_at: now, updated_at: now })
    .execute();
  const eventTypeId = randomId();
  await db
    .insertInto('event_types')
    .values({ id: eventTypeId, user_id: userId, team_id: null, title: 'Call', slug: `call-${randomId(6).toLowerCase()}`, description: '', length_minutes: 15, locations: '[]', hidden: 0, requires_confirmation: 0, minimum_booking_notice: 0, scheduling_type: null, created_at: now, updated_at: now })
    .execute();
  const path = `/hooks/${randomId()}`;
  const secret = newSigningSecret();
  receiver.expectSecret(path, secret);
  await db
    .insertInto('webhooks')
    .values({ id: randomId(), user_id: userId, organization_id: null, subscriber_url: receiver.url(path), triggers: '["BOOKING_CREATED"]', active: 1, payload_template: null, secret, created_at: now, updated_at: now })
    .execute();
  return { eventTypeId, path };
}

let slot = 0;
async function book(instance: Instance, eventTypeId: string): Promise<string> {
  slot += 1;
  const start = new Date(Math.ceil(Date.now() / 3600_000) * 3600_000 + 24 * 3600_000 + slot * 1800_000).toISOString();
  const res = await fetch(`${instance.url}/v2/bookings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ eventTypeId, start, attendee: { name: 'Bo', email: 'bo@example.com', timeZone: 'UTC' } }),
  });
  const body = (await res.json()) as { data: { uid: string } };
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body.data.uid;
}

describe.each(backends)('webhook delivery by gatehouse serve on $name (SPEC §9)', ({ name, available }) => {
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
    const { eventTypeId, path } = await seed(database, receiver);
    // This instance looks for due deliveries once at start, then not for 10 minutes: the
    // event it commits is certainly not delivered by it.
    const doomed = await startInstance(database, { WEBHOOK_POLL_INTERVAL_MS: '600000' });
    running.push(doomed);
    const uid = await book(doomed, eventTypeId);
    await killHard(doomed);
    expect(receiver.at(path)).toHaveLength(0);
    const pending = await database.handle.db.selectFrom('webhook_deliveries').select(['status', 'attempts']).where('payload', 'like', `%${uid}%`).execute();
    expect(pending).toEqual([{ status: 'pending', attempts: 0 }]);

    running.push(await startInstance(database, { WEBHOOK_POLL_INTERVAL_MS: '100' }));
    await until(() => receiver.at(path).length === 1);
    const [got] = receiver.at(path);
    expect(got!.verifyError).toBeNull();
    expect(got!.verified).toMatchObject({ type: 'BOOKING_CREATED', data: { uid } });
    await until(async () => (await database.handle.db.selectFrom('webhook_deliveries').select('status').where('payload', 'like', `%${uid}%`).executeTakeFirst())?.status === 'delivered');
  }, PROCESS_TEST_TIMEOUT);

  it.skipIf(!available || name !== 'postgres')('two instances deliver every event once: no attempt is sent twice', async () => {
    const { eventTypeId, path } = await seed(database, receiver);
    const env = { WEBHOOK_POLL_INTERVAL_MS: '100' };
    const [a, b] = await Promise.all([startInstance(database, env), startInstance(database, env)]);
    running.push(a!, b!);
    const uids: string[] = [];
    // Bookings through both instances, while both are polling the same outbox.
    for (let i = 0; i < 30; i++) uids.push(await book(i % 2 === 0 ? a! : b!, eventTypeId));
    const db = database.handle.db;
    const settled = async () => {
      const rows = await db.selectFrom('webhook_deliveries').select(['status']).where('event', '=', 'BOOKING_CREATED').where('webhook_id', 'is not', null).execute();
      return rows.length >= 30 && rows.every((r) => r.status === 'delivered');
    };
    await until(settled, 30_000);
    const got = receiver.at(path);
    expect(got.every((r) => r.verifyError === null)).toBe(true);
    expect(got).toHaveLength(30);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(30);
    expect(new Set(got.map((r) => (r.verified as { data: { uid: string } }).data.uid))).toEqual(new Set(uids));
    const attempts = await db.selectFrom('webhook_deliveries').select('attempts').where('event', '=', 'BOOKING_CREATED').execute();
    expect(attempts.every((r) => r.attempts === 1)).toBe(true);
  }, PROCESS_TEST_TIMEOUT);
});
