// The outbound-address guard on its own (docs/rules.md#outbound-urls, docs/rules.md#webhooks): every
// spelling of an address that is not public, as a webhook or feed address is judged, and
// the system resolver where this machine can answer without a network: localhost names, the
// machine's own name, and *.invalid (RFC 6761), which never resolves.
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.ts';
import { checkOutboundUrl, nonPublicKind, systemResolver, type ResolveHost } from '../../src/services/outbound-url.ts';
import { testResolver } from '../helpers/test-dns.ts';

const strict = { allowPrivate: false, resolve: systemResolver };

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

const unused: ResolveHost = async (name) => {
  throw new Error(`the resolver was asked for ${name}`);
};

describe('outbound addresses (OUTBOUND_ALLOW_PRIVATE, docs/rules.md#outbound-urls)', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.100.1', 'private'],
    ['fd00::1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['::a00:1', 'reserved'], // IPv4-compatible ::10.0.0.1
    ['64:ff9b::a00:1', 'reserved'], // NAT64 of 10.0.0.1
    ['2002:a00:1::1', 'reserved'], // 6to4 of 10.0.0.1
    ['not an address', 'invalid'],
  ])('%s is not public (%s)', (address, kind) => {
    expect(nonPublicKind(address)).toBe(kind);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) => {
    expect(nonPublicKind(address)).toBeNull();
  });

  it('the system resolver answers localhost with loopback addresses, which are not public', async () => {
    const addresses = await systemResolver('localhost');
    expect(addresses.length).toBeGreaterThan(0);
    for (const a of addresses) expect(nonPublicKind(a)).toBe('loopback');
  });

  it("refuses this machine's own name through the system resolver, without saying what it resolved to", async (ctx) => {
    const own = hostname().toLowerCase();
    const addresses = await systemResolver(own).catch(() => []);
    if (addresses.length === 0 || addresses.every((a) => nonPublicKind(a) === null)) ctx.skip();
    const result = await checkOutboundUrl(`https://${own}/hook`, strict);
    expect(result).toEqual({ ok: false, problem: `${own} resolves to a non-public address: webhooks and calendar feeds must be on a public address` });
  });

  it('refuses a name that does not resolve (RFC 6761 .invalid), naming it', async () => {
    expect(await checkOutboundUrl('https://feeds.nowhere.invalid/cal.ics', strict)).toEqual({ ok: false, problem: 'could not resolve the host feeds.nowhere.invalid: check the name' });
  });

  it('refuses localhost names and literal addresses without asking the resolver', async () => {
    const policy = { allowPrivate: false, resolve: unused };
    for (const url of ['https://localhost/x', 'https://a.b.localhost/x', 'https://[::ffff:10.0.0.1]/x', 'https://169.254.169.254/x']) {
      const result = await checkOutboundUrl(url, policy);
      expect(result.ok, url).toBe(false);
    }
    expect(await checkOutboundUrl('https://93.184.215.14/x', policy)).toMatchObject({ ok: true, addresses: ['93.184.215.14'] });
  });

  it('returns the addresses a name was judged by, so a later connection can use exactly those', async () => {
    const resolve: ResolveHost = async () => ['93.184.215.14', '2606:4700:4700::1111'];
    const result = await checkOutboundUrl('https://hooks.example.com/a?b=c', { allowPrivate: false, resolve });
    expect(result).toMatchObject({ ok: true, addresses: ['93.184.215.14', '2606:4700:4700::1111'] });
    if (result.ok) expect(result.url.toString()).toBe('https://hooks.example.com/a?b=c');
  });

  it('refuses when a resolver fails or answers nothing', async () => {
    for (const resolve of [async () => [], unused]) {
      expect(await checkOutboundUrl('https://hooks.example.com/', { allowPrivate: false, resolve })).toEqual({ ok: false, problem: 'could not resolve the host hooks.example.com: check the name' });
    }
  });

  it('with OUTBOUND_ALLOW_PRIVATE=1, allows any address and http, without a lookup', async () => {
    const policy = { allowPrivate: true, resolve: unused };
    expect(await checkOutboundUrl('http://localhost:8080/hook', policy)).toMatchObject({ ok: true, addresses: [] });
    expect(await checkOutboundUrl('https://10.0.0.1/hook', policy)).toMatchObject({ ok: true });
    expect(await checkOutboundUrl('ftp://10.0.0.1/hook', policy)).toEqual({ ok: false, problem: 'must use https or http' });
    expect(await checkOutboundUrl('not a url', policy)).toEqual({ ok: false, problem: 'must be an absolute URL' });
  });

  it('OUTBOUND_ALLOW_PRIVATE is off unless set to 1; any other value stops the start naming it (docs/rules.md#outbound-urls)', () => {
    expect(loadConfig({}).outboundAllowPrivate).toBe(false);
    expect(loadConfig({ OUTBOUND_ALLOW_PRIVATE: '0' }).outboundAllowPrivate).toBe(false);
    expect(loadConfig({ OUTBOUND_ALLOW_PRIVATE: '1' }).outboundAllowPrivate).toBe(true);
    expect(() => loadConfig({ OUTBOUND_ALLOW_PRIVATE: 'yes' })).toThrow(ConfigError);
    expect(() => loadConfig({ OUTBOUND_ALLOW_PRIVATE: 'yes' })).toThrow(/^OUTBOUND_ALLOW_PRIVATE must be 1/);
    expect(loadConfig({ OUTBOUND_ALLOW_PRIVATE: '1', BASE_URL: 'https://auth.example.com' }).warnings.join()).toMatch(/OUTBOUND_ALLOW_PRIVATE=1: .* development and tests only/);
  });

  describe('as a webhook or a calendar feed address is judged, with the test servers\' DNS (test/helpers/test-dns.ts)', () => {
    const servers = { allowPrivate: false, resolve: testResolver };

    it.each(refused)('%s is refused: %s', async (url, why) => {
      const result = await checkOutboundUrl(url, servers);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.problem).toMatch(why);
    });

    it.each(accepted)('%s is accepted, by name or literal IPv4 and IPv6', async (url) => {
      expect(await checkOutboundUrl(url, servers)).toMatchObject({ ok: true });
    });

    it('with OUTBOUND_ALLOW_PRIVATE=1, local receivers over http too; still a URL, and still no credentials in it', async () => {
      const local = { allowPrivate: true, resolve: testResolver };
      for (const url of ['http://localhost:8080/hook', 'http://127.0.0.1:9000/hook', 'https://10.0.0.1/hook', 'https://169.254.169.254/x', 'https://private.example.com/hook', 'http://localhost:8000/cal.ics']) {
        expect(await checkOutboundUrl(url, local), url).toMatchObject({ ok: true });
      }
      expect(await checkOutboundUrl('https://user:pw@localhost/hook', local)).toEqual({ ok: false, problem: 'must not carry a user name or password' });
      expect(await checkOutboundUrl('ftp://localhost/hook', local)).toMatchObject({ ok: false, problem: expect.stringMatching(/^must use https or http/) });
    });
  });
});
