// The outbound-address guard on its own (docs/rules.md#outbound-urls, docs/rules.md#webhooks), with the
// system resolver where this machine can answer without a network: localhost names, the
// machine's own name, and *.invalid (RFC 6761), which never resolves.
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.ts';
import { checkOutboundUrl, nonPublicKind, systemResolver, type ResolveHost } from '../../src/services/outbound-url.ts';

const strict = { allowPrivate: false, resolve: systemResolver };
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
});
