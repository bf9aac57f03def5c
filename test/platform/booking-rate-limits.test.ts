// docs/rules.md#rate-limits, docs/rules.md#public-booking: bookings made, rescheduled and
// cancelled without an access token are limited per caller's address and per event type, with
// counters in memory and, when TEST_REDIS_URL is set, in Redis (shared by every instance).
// Behind a trusted proxy (TRUST_PROXY=127.0.0.1), so each test names its callers in
// X-Forwarded-For, in random /64s: counters a previous run left in Redis are never this run's.
// Through real HTTP on both databases, where the bookings are made.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, redisUrl } from '../helpers/backends.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { fixtures, futureStart, mint, type World, useWorld } from './fixtures.ts';

const stores = [
  { store: 'memory', available: true, env: {} as Record<string, string> },
  { store: 'redis', available: redisUrl !== undefined, env: redisUrl ? { REDIS_URL: redisUrl } : ({} as Record<string, string>) },
];
const combinations = stores.flatMap((s) => backends.map((b) => ({ ...s, backend: b.name, available: s.available && b.available })));

const PER_IP = 3;
const PER_EVENT_TYPE = 5;
const limits = {
  TRUST_PROXY: '127.0.0.1',
  RATE_LIMIT_PUBLIC_BOOKINGS_PER_IP_PER_HOUR: String(PER_IP),
  RATE_LIMIT_PUBLIC_BOOKINGS_PER_EVENT_TYPE_PER_HOUR: String(PER_EVENT_TYPE),
  LOG_LEVEL: 'warn',
};

/** A caller's address as the trusted proxy reports it: a random /64 (IPv6 callers are counted by their /64). */
const callerIp = () => `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::1`;
const via = (ip: string) => ({ 'x-forwarded-for': ip });
const iso = (ms: number) => new Date(ms).toISOString();
const attendee = { name: 'Bea Booker', email: 'bea@example.com', timeZone: 'Europe/Paris' };

/** How many of the answers have each status, e.g. { 201: 3, 429: 3 }. */
const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});
const rateLimitHeaders = (res: { headers: Headers }) => ['limit', 'remaining', 'reset'].map((name) => res.headers.get(`x-ratelimit-${name}`));

type Answer = { status: number; headers: Headers; body: any };

/** A 429 as a booking page sees it: the /v2 envelope's rate_limited, Retry-After within the hour, and the spent limit in X-RateLimit-*. */
function expectLimited(res: Answer, limit: number, words: RegExp): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ status: 'error', timestamp: expect.any(String), path: expect.any(String), error: { code: 'rate_limited', message: expect.stringMatching(words) } });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(3600);
  expect(rateLimitHeaders(res)).toEqual([String(limit), '0', String(retryAfter)]);
}

describe.each(combinations)('public booking limits with counters in $store on $backend', ({ available, env, backend }) => {
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;
  useWorld(backend, available, (started) => ({ server, w, f } = started), { ...env, ...limits });

  const bookAs = (target: TestServer, eventTypeId: string, ip: string, start = futureStart(server), token?: string) =>
    target.api('POST', '/v2/bookings', token, { eventTypeId, start: iso(start), attendee }, via(ip));
  const book = (eventTypeId: string, ip: string, start?: number, token?: string) => bookAs(server, eventTypeId, ip, start, token);
  /** The bookings of the event type as its host's list holds them, through the store's port. */
  const rowsOf = async (eventTypeId: string) => (await server.services.stores.bookings.page({ userId: w.owner.id }, {}, 100, 0)).bookings.filter((b) => b.eventTypeId === eventTypeId);

  it.skipIf(!available)(`a burst of anonymous bookings from one address past RATE_LIMIT_PUBLIC_BOOKINGS_PER_IP_PER_HOUR (here ${PER_IP}) answers 429 with Retry-After and makes no more bookings; another address still books (docs/rules.md#rate-limits)`, async () => {
    const et = await f.eventType({ userId: w.owner.id });
    const ip = callerIp();
    const answers = await Promise.all(Array.from({ length: PER_IP + 3 }, () => book(et.id, ip)));
    expect(tally(answers.map((a) => a.status)), JSON.stringify(answers.map((a) => a.body.error ?? a.status))).toEqual({ 201: PER_IP, 429: 3 });
    for (const limited of answers.filter((a) => a.status === 429)) expectLimited(limited, PER_IP, /from this address/);
    expect(await rowsOf(et.id)).toHaveLength(PER_IP);
    // Each booking made told the caller its count: three of three, then two, one, none left.
    expect(answers.filter((a) => a.status === 201).map((a) => rateLimitHeaders(a).slice(0, 2)).sort()).toEqual([
      [String(PER_IP), '0'],
      [String(PER_IP), '1'],
      [String(PER_IP), '2'],
    ]);

    const other = await book(et.id, callerIp());
    expect(other.status).toBe(201);
    expect(rateLimitHeaders(other).slice(0, 2)).toEqual([String(PER_IP), String(PER_IP - 1)]);
    expect(await rowsOf(et.id)).toHaveLength(PER_IP + 1);
  });

  it.skipIf(!available)('counts reschedules and cancellations made with a manageToken too; a write refused for another reason (a taken slot) is given back (docs/rules.md#rate-limits)', async () => {
    const et = await f.eventType({ userId: w.owner.id });
    const ip = callerIp();
    const start = futureStart(server);
    const made = await book(et.id, ip, start);
    expect(made.status).toBe(201);
    const { uid, manageToken } = made.body.data as { uid: string; manageToken: string };
    expect(rateLimitHeaders(made).slice(0, 2)).toEqual([String(PER_IP), '2']);

    // The same slot again: 409, and not counted.
    const taken = await book(et.id, ip, start);
    expect(taken.status).toBe(409);
    expect(rateLimitHeaders(taken)).toEqual([null, null, null]);

    const moved = await server.api('POST', `/v2/bookings/${uid}/reschedule`, undefined, { start: iso(futureStart(server)), manageToken }, via(ip));
    expect(moved.status).toBe(201);
    expect(rateLimitHeaders(moved).slice(0, 2)).toEqual([String(PER_IP), '1']);
    const cancelled = await server.api('POST', `/v2/bookings/${moved.body.data.uid}/cancel`, undefined, { manageToken }, via(ip));
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.status).toBe('cancelled');
    expect(rateLimitHeaders(cancelled).slice(0, 2)).toEqual([String(PER_IP), '0']);

    expectLimited(await book(et.id, ip), PER_IP, /from this address/);
    // A reschedule and a cancellation past the limit change nothing either.
    const second = await book(et.id, callerIp());
    expect(second.status).toBe(201);
    const { uid: secondUid, manageToken: secondToken } = second.body.data as { uid: string; manageToken: string };
    expectLimited(await server.api('POST', `/v2/bookings/${secondUid}/reschedule`, undefined, { start: iso(futureStart(server)), manageToken: secondToken }, via(ip)), PER_IP, /from this address/);
    expectLimited(await server.api('POST', `/v2/bookings/${secondUid}/cancel`, undefined, { manageToken: secondToken }, via(ip)), PER_IP, /from this address/);
    const kept = (await rowsOf(et.id)).find((b) => b.uid === secondUid)!;
    expect(kept.status).toBe('accepted');
    expect(kept.rescheduledTo).toBeNull();
  });

  it.skipIf(!available)(`holds RATE_LIMIT_PUBLIC_BOOKINGS_PER_EVENT_TYPE_PER_HOUR (here ${PER_EVENT_TYPE}) across addresses; the host's other event types still take bookings (docs/rules.md#rate-limits)`, async () => {
    const et = await f.eventType({ userId: w.owner.id });
    for (let i = 0; i < PER_EVENT_TYPE; i++) expect((await book(et.id, callerIp())).status, `booking ${i + 1}`).toBe(201);
    const ip = callerIp();
    const limited = await book(et.id, ip);
    expectLimited(limited, PER_EVENT_TYPE, /of this event type/);
    expect(await rowsOf(et.id)).toHaveLength(PER_EVENT_TYPE);
    // Named by its slug, it is the same event type.
    const owner = (await server.services.stores.users.findById(w.owner.id))!;
    const bySlug = await server.api('POST', '/v2/bookings', undefined, { eventTypeSlug: et.slug, username: owner.username, start: iso(futureStart(server)), attendee }, via(callerIp()));
    expectLimited(bySlug, PER_EVENT_TYPE, /of this event type/);
    // The refused address spent nothing of its own limit: it books another event type three times.
    const other = await f.eventType({ userId: w.owner.id });
    for (let i = 0; i < PER_IP; i++) expect((await book(other.id, ip)).status, `booking ${i + 1}`).toBe(201);
  });

  it.skipIf(!available)('does not count a booking made with an access token: the application acts for a user who authorized it (docs/rules.md#rate-limits)', async () => {
    const et = await f.eventType({ userId: w.owner.id });
    const token = await mint(server, w, w.member, ['PROFILE_READ']);
    const ip = callerIp();
    for (let i = 0; i < PER_EVENT_TYPE + 1; i++) {
      const res = await book(et.id, ip, undefined, token);
      expect(res.status, `booking ${i + 1}`).toBe(201);
      expect(rateLimitHeaders(res)).toEqual([null, null, null]);
    }
    // The address and the event type still have their whole limits for bookers without a token.
    const anonymous = await book(et.id, ip);
    expect(anonymous.status).toBe(201);
    expect(rateLimitHeaders(anonymous).slice(0, 2)).toEqual([String(PER_IP), String(PER_IP - 1)]);
  });

  describe.skipIf(!env.REDIS_URL)('a second instance on the same Redis and database [redis only]', () => {
    let twin: TestServer;
    beforeAll(async () => {
      if (!available) return;
      // The same deployment: the same database and the same public address.
      twin = await startTestServer(backend, { ...env, ...limits, BASE_URL: server.url, APP_URL: server.url }, server);
    });
    afterAll(async () => twin?.close());

    it.skipIf(!available)('shares the counts: bookings from one address, and of one event type, made on either instance count together (docs/rules.md#rate-limits, docs/rules.md#scale-out)', async () => {
      const et = await f.eventType({ userId: w.owner.id });
      const ip = callerIp();
      expect((await bookAs(server, et.id, ip)).status).toBe(201);
      expect((await bookAs(twin, et.id, ip)).status).toBe(201);
      expect((await bookAs(server, et.id, ip)).status).toBe(201);
      expectLimited(await bookAs(twin, et.id, ip), PER_IP, /from this address/);
      expectLimited(await bookAs(server, et.id, ip), PER_IP, /from this address/);

      expect((await bookAs(twin, et.id, callerIp())).status).toBe(201);
      expect((await bookAs(server, et.id, callerIp())).status).toBe(201);
      expectLimited(await bookAs(twin, et.id, callerIp()), PER_EVENT_TYPE, /of this event type/);
      expect(await rowsOf(et.id)).toHaveLength(PER_EVENT_TYPE);
    });
  });
});

it('keeps the public booking limits off when set to 0 (docs/rules.md#rate-limits)', async () => {
  const off = await startTestServer('sqlite', { RATE_LIMIT_PUBLIC_BOOKINGS_PER_IP_PER_HOUR: '0', RATE_LIMIT_PUBLIC_BOOKINGS_PER_EVENT_TYPE_PER_HOUR: '0', LOG_LEVEL: 'warn' });
  try {
    const host = await off.user();
    const et = await fixtures(off).eventType({ userId: host.id });
    for (let i = 0; i < 25; i++) {
      const res = await off.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: iso(futureStart(off)), attendee });
      expect(res.status, `booking ${i + 1}`).toBe(201);
      expect(rateLimitHeaders(res)).toEqual([null, null, null]);
    }
  } finally {
    await off.close();
  }
});
