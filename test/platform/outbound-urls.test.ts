// Webhook and ICS feed addresses (docs/rules.md#outbound-urls, docs/rules.md#webhooks): an address on a
// private, loopback, link-local or metadata network is refused when it is registered,
// unless the operator set OUTBOUND_ALLOW_PRIVATE=1; only https otherwise. Through real
// HTTP on both databases. This machine has no public DNS: the test server answers names
// under example.com from a table (test/helpers/server.ts) and every other name, such as
// *.invalid, through the system resolver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { buildWorld, fixtures, mint, uniq, type World, useWorld } from './fixtures.ts';

/** Addresses that are not public, with the words the refusal must carry. */
const refused: Array<[url: string, why: RegExp]> = [
  ['https://127.0.0.1/hook', /127\.0\.0\.1 is a loopback address/],
  ['https://127.8.9.10:8443/hook', /loopback/],
  ['https://2130706433/hook', /127\.0\.0\.1 is a loopback address/], // 127.0.0.1 spelled as one number
  ['https://0x7f.1/hook', /loopback/],
  ['https://[::1]/hook', /::1 is a loopback address/],
  ['https://[::ffff:127.0.0.1]/hook', /loopback/], // IPv4-mapped IPv6
  ['https://0.0.0.0/hook', /unspecified/],
  ['https://[::]/hook', /unspecified/],
  ['https://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is a link-local address/],
  ['https://[fe80::1]/hook', /link-local/],
  ['https://10.0.0.1/hook', /10\.0\.0\.1 is a private address/],
  ['https://172.16.5.4/hook', /private/],
  ['https://172.31.255.255/hook', /private/],
  ['https://192.168.1.1/hook', /private/],
  ['https://100.64.0.1/hook', /carrier-grade NAT/],
  ['https://[fd00::1]/hook', /private/],
  ['https://[fc00::5]/hook', /private/],
  ['https://localhost/hook', /localhost is this machine/],
  ['https://LOCALHOST./hook', /localhost is this machine/],
  ['https://api.localhost:3000/hook', /api\.localhost is this machine/],
  ['https://private.example.com/hook', /private\.example\.com resolves to a non-public address/],
  ['https://mixed.example.com/hook', /mixed\.example\.com resolves to a non-public address/], // one public, one private answer
  ['https://metadata.example.com/hook', /resolves to a non-public address/],
  ['https://v6-private.example.com/hook', /resolves to a non-public address/],
  ['https://nowhere.invalid/hook', /could not resolve the host nowhere\.invalid/], // RFC 6761: never resolves
  ['http://hooks.example.com/hook', /must use https/],
  ['http://localhost:8080/hook', /must use https/],
];

const accepted = ['https://hooks.example.com/gatehouse', 'https://93.184.215.14/hook', 'https://[2606:4700:4700::1111]/hook', 'https://172.32.0.1/hook', 'https://100.128.0.1/hook'];

describe.each(backends)('outbound addresses on $name (docs/rules.md#outbound-urls, docs/rules.md#webhooks)', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;
  useWorld(name, available, (started) => ({ server, w, f } = started), { LOG_LEVEL: 'warn' });

  const expectRefusal = (res: { status: number; body: any }, field: string, why: RegExp, what: string) => {
    expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.message.startsWith(`${field}: `), res.body.error.message).toBe(true);
    expect(res.body.error.message, what).toMatch(why);
  };

  it.skipIf(!available)('refuses a personal webhook on a private, loopback, link-local or metadata address, or not https (docs/rules.md#webhooks)', async () => {
    const token = await mint(server, w, w.owner, ['WEBHOOK_WRITE', 'WEBHOOK_READ']);
    for (const [subscriberUrl, why] of refused) {
      const res = await server.api('POST', '/v2/webhooks', token, { subscriberUrl, triggers: ['BOOKING_CREATED'] });
      expectRefusal(res, 'subscriberUrl', why, subscriberUrl);
    }
    const stored = await server.services.stores.webhooks.list({ userId: w.owner.id }, 500, 0);
    expect(stored.map((r) => r.subscriberUrl)).toEqual([]);
  });

  it.skipIf(!available)('accepts a webhook on a public address, by name or literal IPv4 and IPv6', async () => {
    const token = await mint(server, w, w.outsider, ['WEBHOOK_WRITE']);
    for (const subscriberUrl of accepted) {
      const res = await server.api('POST', '/v2/webhooks', token, { subscriberUrl, triggers: ['BOOKING_CREATED'] });
      expect(res.status, `${subscriberUrl}: ${JSON.stringify(res.body)}`).toBe(201);
      expect(res.body.data.subscriberUrl).toBe(new URL(subscriberUrl).toString());
    }
  });

  it.skipIf(!available)("refuses moving a webhook to a private address, and leaves it as it was", async () => {
    const token = await mint(server, w, w.owner, ['WEBHOOK_WRITE']);
    const hook = await f.webhook({ userId: w.owner.id });
    for (const subscriberUrl of ['https://169.254.169.254/latest/meta-data/', 'https://[::ffff:10.0.0.1]/x', 'https://private.example.com/x']) {
      const res = await server.api('PATCH', `/v2/webhooks/${hook.id}`, token, { subscriberUrl });
      expectRefusal(res, 'subscriberUrl', /address/, subscriberUrl);
    }
    const row = await server.services.stores.webhooks.find({ userId: w.owner.id }, hook.id);
    expect(row).toMatchObject({ subscriberUrl: hook.subscriberUrl, updatedAt: hook.updatedAt });
    const moved = await server.api('PATCH', `/v2/webhooks/${hook.id}`, token, { subscriberUrl: 'https://hooks.example.com/moved' });
    expect(moved.status).toBe(200);
    expect(moved.body.data.subscriberUrl).toBe('https://hooks.example.com/moved');
  });

  it.skipIf(!available)('refuses organization webhooks on private addresses, at creation and update', async () => {
    const token = await mint(server, w, w.orgAdmin, ['ORG_WEBHOOK_WRITE']);
    const created = await server.api('POST', `/v2/organizations/${w.org.id}/webhooks`, token, { subscriberUrl: 'https://192.168.0.10/hook', triggers: ['BOOKING_CREATED'] });
    expectRefusal(created, 'subscriberUrl', /192\.168\.0\.10 is a private address/, 'org create');
    const hook = await f.webhook({ organizationId: w.org.id });
    const updated = await server.api('PATCH', `/v2/organizations/${w.org.id}/webhooks/${hook.id}`, token, { subscriberUrl: 'https://[fe80::abcd]/hook' });
    expectRefusal(updated, 'subscriberUrl', /link-local/, 'org update');
    const ok = await server.api('POST', `/v2/organizations/${w.org.id}/webhooks`, token, { subscriberUrl: 'https://hooks.example.com/org', triggers: ['BOOKING_CREATED'] });
    expect(ok.status).toBe(201);
  });

  it.skipIf(!available)('refuses saving an ICS feed on a private address, saving none of the list; the check reports it as not valid', async () => {
    const token = await mint(server, w, w.member, ['APPS_READ', 'APPS_WRITE']);
    const publicFeed = `https://calendar.example.com/${uniq()}.ics`;
    for (const [url, why] of [
      ['webcal://localhost/cal.ics', /localhost is this machine/],
      ['https://10.20.30.40/cal.ics', /private address/],
      ['https://[::ffff:169.254.169.254]/cal.ics', /link-local/],
      ['webcal://private.example.com/cal.ics', /resolves to a non-public address/],
      ['http://calendar.example.com/cal.ics', /must use https/],
    ] as const) {
      const saved = await server.api('POST', '/v2/calendars/ics-feed/save', token, { urls: [publicFeed, url] });
      expectRefusal(saved, 'urls.1', why, url);
      const check = await server.api('GET', `/v2/calendars/ics-feed/check?url=${encodeURIComponent(url)}`, token);
      expect(check.status).toBe(200);
      expect(check.body.data).toMatchObject({ url, valid: false, saved: false });
      expect(check.body.data.problem).toMatch(why);
    }
    expect(await server.services.stores.api.connectedApps.list({ userId: w.member.id })).toEqual([]);
    expect((await server.api('POST', '/v2/calendars/ics-feed/save', token, { urls: [publicFeed] })).status).toBe(201);
  });
});

describe.each(backends)('outbound addresses with OUTBOUND_ALLOW_PRIVATE=1 on $name (docs/rules.md#outbound-urls: development and tests)', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer(name, { LOG_LEVEL: 'warn', OUTBOUND_ALLOW_PRIVATE: '1' });
    w = await buildWorld(server);
  });
  afterAll(async () => server?.close());

  it.skipIf(!available)('accepts local receivers, over http too', async () => {
    const token = await mint(server, w, w.owner, ['WEBHOOK_WRITE', 'APPS_READ', 'APPS_WRITE']);
    for (const subscriberUrl of ['http://localhost:8080/hook', 'http://127.0.0.1:9000/hook', 'https://10.0.0.1/hook', 'https://169.254.169.254/x', 'https://private.example.com/hook']) {
      const res = await server.api('POST', '/v2/webhooks', token, { subscriberUrl, triggers: ['BOOKING_CREATED'] });
      expect(res.status, `${subscriberUrl}: ${JSON.stringify(res.body)}`).toBe(201);
    }
    const check = await server.api('GET', `/v2/calendars/ics-feed/check?url=${encodeURIComponent('http://localhost:8000/cal.ics')}`, token);
    expect(check.body.data).toMatchObject({ valid: true });
    // Still a URL, and still no credentials in it.
    const creds = await server.api('POST', '/v2/webhooks', token, { subscriberUrl: 'https://user:pw@localhost/hook', triggers: ['BOOKING_CREATED'] });
    expect(creds.status).toBe(400);
    expect(creds.body.error.message).toBe('subscriberUrl: must not carry a user name or password');
    const ftp = await server.api('POST', '/v2/webhooks', token, { subscriberUrl: 'ftp://localhost/hook', triggers: ['BOOKING_CREATED'] });
    expect(ftp.body.error.message).toMatch(/^subscriberUrl: must use https or http/);
  });
});
