// TRUST_PROXY (docs/rules.md#configuration): unset, the socket's address is the caller's IP; set, it names the
// reverse proxies whose X-Forwarded-For is believed, as addresses and CIDR ranges. Anything
// else (true, a hop count, a host name) fails at start with a message naming the variable.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.ts';

describe('TRUST_PROXY', () => {
  it('is off by default: no proxy is trusted', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
  });

  it('takes comma-separated addresses and CIDR ranges, IPv4 and IPv6, and the names loopback, linklocal, uniquelocal', () => {
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1' }).trustProxy).toEqual(['127.0.0.1']);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.0/8, ::1 ,fd00::/8,loopback' }).trustProxy).toEqual(['10.0.0.0/8', '::1', 'fd00::/8', 'loopback']);
  });

  it('refuses anything else at start, naming TRUST_PROXY', () => {
    // A hop count cannot tell a proxy from a caller that sends X-Forwarded-For itself.
    for (const value of ['true', '*', '1', '2', 'proxy.example.com', '10.0.0.0/33', '::1/129', '300.1.1.1', '1.5', '10.0.0.1,']) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(ConfigError);
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(/^TRUST_PROXY/);
    }
  });

  it('takes RATE_LIMIT_LOGIN_FAILURES_PER_IP_PER_15_MINUTES, 100 by default, 0 for off (docs/rules.md#rate-limits)', () => {
    expect(loadConfig({}).rateLimits.loginFailuresPerIpPer15Minutes).toBe(100);
    expect(loadConfig({ RATE_LIMIT_LOGIN_FAILURES_PER_IP_PER_15_MINUTES: '0' }).rateLimits.loginFailuresPerIpPer15Minutes).toBe(0);
    expect(() => loadConfig({ RATE_LIMIT_LOGIN_FAILURES_PER_IP_PER_15_MINUTES: '-1' })).toThrow(/^RATE_LIMIT_LOGIN_FAILURES_PER_IP_PER_15_MINUTES/);
  });
});
