// GET/PATCH /v2/me (docs/rules.md#profile, docs/rules.md#api-envelope, docs/rules.md#versioning) through real HTTP,
// real tokens: what only HTTP shows — the envelope, the view, Cal.com's request and its schema.
// The profile's rules are test/services/platform/me.test.ts's; the bearer check (expired, revoked,
// suspended, malformed tokens) test/oauth/bearer.test.ts's; the 401 and 403 of every route,
// PATCH /v2/me among them, test/platform/platform-access.test.ts's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchedule } from '../../src/platform/schedules/service.ts';
import { backends } from '../helpers/backends.ts';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.ts';

const PROFILE_FIELDS = ['id', 'email', 'name', 'username', 'timeZone', 'weekStart', 'timeFormat', 'defaultScheduleId', 'organizationId', 'avatarUrl', 'bio', 'locale', 'metadata'];

describe.each(backends)('/v2/me on $name', ({ name, available }) => {
  let server: TestServer;
  let dev: TestUser;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer(name);
    dev = await server.user();
  });
  afterAll(async () => server?.close());

  /** A user, an approved client with every profile scope, and a token for `scope`. */
  async function tokenFor(scope: string) {
    const user = await server.user({ name: 'Grace Hopper' });
    const client = await server.client(dev, { scopes: ['PROFILE_READ', 'PROFILE_WRITE', 'BOOKING_READ'] });
    const code = await server.code(client, user, { scope });
    const res = await server.exchange(client, code);
    expect(res.status).toBe(200);
    return { user, accessToken: res.body.access_token as string };
  }

  /** A token of `user` for `scope`, through the same flow. */
  async function tokenForUser(user: TestUser, scope: string) {
    const client = await server.client(dev, { scopes: [scope] });
    const res = await server.exchange(client, await server.code(client, user, { scope }));
    return res.body.access_token as string;
  }

  function expectEnvelopeError(res: { status: number; body: any }, status: number, code: string) {
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ status: 'error', timestamp: expect.any(String), path: expect.any(String), error: { code, message: expect.stringMatching(/\S/) } });
  }

  function expectInvalidToken(res: { status: number; headers: Headers; body: any }) {
    expectEnvelopeError(res, 401, 'invalid_token');
    expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="gatehouse", error="invalid_token", resource_metadata="${server.url}/.well-known/oauth-protected-resource/v2"`); // docs/rules.md#protected-resource-metadata
  }

  it.skipIf(!available)('an error says when and where it failed, as the platform does: timestamp, and the path without its query string (docs/rules.md#api-envelope)', async () => {
    const before = Date.now();
    const res = await server.api('GET', '/v2/me?note=do-not-echo-this', 'gat_not-a-real-token');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ status: 'error', timestamp: expect.any(String), path: '/v2/me', error: { code: 'invalid_token', message: expect.stringMatching(/\S/) } });
    const at = Date.parse(res.body.timestamp);
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(Date.now() + 1000);
    expect(JSON.stringify(res.body)).not.toContain('do-not-echo-this');
  });

  it.skipIf(!available)('GET /v2/me with PROFILE_READ → 200 {status: success, data: profile} (docs/rules.md#profile; docs/rules.md#api-envelope)', async () => {
    const { user, accessToken } = await tokenFor('PROFILE_READ');
    const res = await server.api('GET', '/v2/me', accessToken);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body.status).toBe('success');
    expect(Object.keys(res.body.data).sort()).toEqual([...PROFILE_FIELDS].sort());
    const row = (await server.services.stores.users.findById(user.id))!;
    expect(res.body.data).toEqual({
      id: Number(user.id),
      email: user.email,
      name: 'Grace Hopper',
      username: row.username,
      timeZone: 'UTC',
      weekStart: 'Monday',
      timeFormat: 24,
      defaultScheduleId: null,
      organizationId: null,
      // Nothing told yet (docs/rules.md#profile); a user of no organization has no `organization`.
      avatarUrl: null,
      bio: null,
      locale: null,
      metadata: {},
    });
    // Nothing private leaks into the profile.
    expect(JSON.stringify(res.body)).not.toMatch(/password|argon2/i);
    // A token reaches only its own user's profile (docs/rules.md#membership-rules).
    const other = await tokenFor('PROFILE_READ');
    expect((await server.api('GET', '/v2/me', other.accessToken)).body.data.id).toBe(Number(other.user.id));
  });

  it.skipIf(!available)("PATCH /v2/me as Cal.com's clients send it (bio, defaultScheduleId, locale, avatarUrl, metadata) → 200, and GET /v2/me shows them (they were 400 'cannot be changed by this request')", async () => {
    const { user, accessToken } = await tokenFor('PROFILE_READ PROFILE_WRITE');
    const work = await createSchedule(server.services, { userId: user.id }, { name: 'Work', timeZone: 'UTC' });
    const evenings = await createSchedule(server.services, { userId: user.id }, { name: 'Evenings', timeZone: 'UTC' });
    // The headers Cal.com's MCP server sends with every call, and its update_me body.
    const mcp = { 'cal-api-version': '2024-08-13' };
    expect((await server.api('GET', '/v2/me', accessToken, undefined, mcp)).body.data.defaultScheduleId).toBe(Number(work.id));
    const res = await server.api('PATCH', '/v2/me', accessToken, { bio: 'I build calendars', defaultScheduleId: Number(evenings.id) }, mcp);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: Number(user.id), bio: 'I build calendars', defaultScheduleId: Number(evenings.id), avatarUrl: null, locale: null, metadata: {} });

    const more = { locale: 'es-419', avatarUrl: 'https://cal.com/api/avatar/2b735186-b01b-46d3-87da-019b8f61776b.png', metadata: { crm: 'hubspot', seats: 5, vip: true } };
    const told = await server.api('PATCH', '/v2/me', accessToken, more, mcp);
    expect(told.status).toBe(200);
    const shown = (await server.api('GET', '/v2/me', accessToken, undefined, mcp)).body.data;
    expect(shown).toEqual({ ...told.body.data, bio: 'I build calendars', defaultScheduleId: Number(evenings.id), ...more });
    expect((await server.api('GET', '/v2/schedules/default', await tokenForUser(user, 'SCHEDULE_READ'))).body.data.id).toBe(Number(evenings.id));
  });

  it.skipIf(!available)("PATCH /v2/me naming another's schedule, a locale not the platform's, a non-https avatar or nested metadata → 400 naming the field, nothing changed", async () => {
    const { user, accessToken } = await tokenFor('PROFILE_READ PROFILE_WRITE');
    const other = await server.user();
    const theirs = await createSchedule(server.services, { userId: other.id }, { name: 'Theirs', timeZone: 'UTC' });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ defaultScheduleId: Number(theirs.id), bio: 'changed' }, `defaultScheduleId: ${theirs.id} is not one of your schedules (GET /v2/schedules lists them)`],
      [{ locale: 'en-US' }, 'locale: must be equal to one of the allowed values'],
      [{ avatarUrl: 'javascript:alert(1)' }, 'avatarUrl: must be an https URL, such as https://example.com/avatar.png (not javascript)'],
      [{ avatarUrl: 'http://example.com/me.png' }, 'avatarUrl: must be an https URL, such as https://example.com/avatar.png (not http)'],
      [{ metadata: { nested: { a: 1 } } }, 'metadata.nested: must be a string, a number or a boolean: metadata is flat'],
      [{ metadata: { nothing: null } }, 'metadata.nothing: must be a string, a number or a boolean: metadata is flat'],
      [{ metadata: { note: 'x'.repeat(501) } }, 'metadata.note: must be at most 500 characters'],
      [{ metadata: { ['k'.repeat(41)]: 1 } }, 'metadata: each key must be 1 to 40 characters'],
      [{ metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) }, 'metadata: must NOT have more than 50 properties'],
      [{ bio: 'x'.repeat(1001) }, 'bio: must NOT have more than 1000 characters'],
    ];
    for (const [body, message] of cases) {
      const res = await server.api('PATCH', '/v2/me', accessToken, body, { 'cal-api-version': '2024-08-13' });
      expectEnvelopeError(res, 400, 'validation_error');
      expect(res.body.error.message, JSON.stringify(body).slice(0, 80)).toContain(message);
    }
    const shown = (await server.api('GET', '/v2/me', accessToken)).body.data;
    expect(shown).toMatchObject({ bio: null, avatarUrl: null, locale: null, metadata: {}, defaultScheduleId: null });
    expect((await server.services.stores.users.findById(user.id))?.updatedAt).toBe((await server.services.stores.users.findById(user.id))?.createdAt);
  });

  it.skipIf(!available)('PATCH /v2/me with bad values or a field it cannot change → 400 envelope naming the field, never 500, nothing changed (docs/rules.md#bad-input, docs/rules.md#forms-and-pages)', async () => {
    const { user, accessToken } = await tokenFor('PROFILE_WRITE');
    const cases: Array<[unknown, string]> = [
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: { first: 'Ada' } }, 'name'],
      [{ timeZone: 'Mars/Olympus_Mons' }, 'timeZone'],
      [{ timeZone: '' }, 'timeZone'],
      [{ timeZone: 42 }, 'timeZone'],
      [{ weekStart: 'Funday' }, 'weekStart'],
      [{ weekStart: 'monday' }, 'weekStart'],
      [{ timeFormat: 13 }, 'timeFormat'],
      [{ timeFormat: 'twelve' }, 'timeFormat'],
      [{ timeFormat: 12.5 }, 'timeFormat'],
      [{ name: 'Fine', timeFormat: 7 }, 'timeFormat'],
    ];
    for (const [body, field] of cases) {
      const res = await server.api('PATCH', '/v2/me', accessToken, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.status).toBe('error');
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.message, JSON.stringify(body)).toContain(field);
    }
    // A field it cannot change is named with the ones it can (docs/rules.md#forms-and-pages; every PATCH route: request-shapes.test.ts).
    for (const [body, field] of [[{ name: 'Ada', email: 'mallory@example.com', id: 'someoneElse' }, 'id'], [{ username: 'ada' }, 'username'], [{ timeFormat: 12, isAdmin: true }, 'isAdmin']] as const) {
      const res = await server.api('PATCH', '/v2/me', accessToken, body);
      expectEnvelopeError(res, 400, 'validation_error');
      expect(res.body.error.message).toBe(`${field}: cannot be changed by this request; it changes name, timeZone, weekStart, timeFormat, email, defaultScheduleId, bio, avatarUrl, locale, metadata`);
    }
    const row = (await server.services.stores.users.findById(user.id))!;
    expect(row).toMatchObject({ name: 'Grace Hopper', timeZone: 'UTC', weekStart: 'Monday', timeFormat: 24, email: user.email });
    expect(await server.services.stores.users.findEmailChange(user.id)).toBeUndefined();
  });

  it.skipIf(!available)('PATCH /v2/me with a body of the wrong shape → 400 envelope, never 500 (docs/rules.md#bad-input)', async () => {
    const { accessToken } = await tokenFor('PROFILE_WRITE');
    const raw = async (body: string | undefined, contentType?: string) => {
      const res = await fetch(`${server.url}/v2/me`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${accessToken}`, ...(contentType ? { 'content-type': contentType } : {}) },
        ...(body !== undefined ? { body } : {}),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const attempts = [
      await raw('{"name": "Ada"', 'application/json'),
      await raw('', 'application/json'),
      await raw('[]', 'application/json'),
      await raw('"Ada"', 'application/json'),
      await raw('null', 'application/json'),
      await raw('{}', 'application/json'),
      await raw(undefined),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'error', timestamp: expect.any(String), path: expect.any(String), error: { code: expect.any(String), message: expect.stringMatching(/\S/) } });
    }
  });

  it.skipIf(!available)('PATCH /v2/me without a token → 401 even when the body is also wrong (docs/rules.md#api-envelope)', async () => {
    const noToken = await server.api('PATCH', '/v2/me', undefined, { timeFormat: 13 });
    expect(noToken.status).toBe(401);
    expect(noToken.headers.get('www-authenticate')).toBe(`Bearer realm="gatehouse", resource_metadata="${server.url}/.well-known/oauth-protected-resource/v2", DPoP algs="ES256 EdDSA Ed25519 RS256 PS256"`); // docs/rules.md#protected-resource-metadata
    const badToken = await server.api('PATCH', '/v2/me', 'nonsense', { timeFormat: 13 });
    expectInvalidToken(badToken);
    const brokenJson = await fetch(`${server.url}/v2/me`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(brokenJson.status).toBe(401);
  });

  it.skipIf(!available)('/v1/anything and /v3/me → 404 envelope (docs/rules.md#versioning)', async () => {
    const { accessToken } = await tokenFor('PROFILE_READ');
    for (const [method, path] of [
      ['GET', '/v1/anything'],
      ['GET', '/v1/me'],
      ['GET', '/v3/me'],
      ['PATCH', '/v3/me'],
      ['GET', '/v2/nothing-here'],
      ['DELETE', '/v2/me'],
    ] as const) {
      const res = await server.api(method, path, accessToken);
      expectEnvelopeError(res, 404, 'not_found');
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });
});
