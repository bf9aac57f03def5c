// docs/rules.md#scale-out: REDIS_URL names the Redis that instances share. Any other scheme was accepted and
// then read by the Redis client as a socket path, whose connection error put the URL, password
// included, into the log. It is refused at start, and the refusal does not repeat the URL.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.ts';

describe('REDIS_URL', () => {
  it('takes redis:// and rediss:// URLs', () => {
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).redisUrl).toBe('redis://127.0.0.1:6379');
    expect(loadConfig({ REDIS_URL: 'rediss://:pw@cache.example.com:6380/2' }).redisUrl).toBe('rediss://:pw@cache.example.com:6380/2');
  });

  it.each(['http://:p4ss@127.0.0.1:1', 'postgres://u:p4ss@db/x', '127.0.0.1:6379', 'redis:/nohost'])('refuses %s at start, without echoing it', (url) => {
    expect(() => loadConfig({ REDIS_URL: url })).toThrow(ConfigError);
    expect(() => loadConfig({ REDIS_URL: url })).toThrow(/^REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
    try {
      loadConfig({ REDIS_URL: url });
    } catch (error) {
      expect((error as Error).message).not.toContain('p4ss');
    }
  });
});

describe('REDIS_START_GRACE_SECONDS (docs/operating.md#when-things-fail)', () => {
  it('is 10 s unless set, and takes whole seconds', () => {
    expect(loadConfig({}).redisStartGraceMs).toBe(10_000);
    expect(loadConfig({ REDIS_START_GRACE_SECONDS: '45' }).redisStartGraceMs).toBe(45_000);
  });

  it.each(['0', '-5', '2.5', 'soon'])('refuses %s at start, saying what it takes', (value) => {
    expect(() => loadConfig({ REDIS_START_GRACE_SECONDS: value })).toThrow(/REDIS_START_GRACE_SECONDS must be a (positive )?whole number of seconds/);
  });
});
