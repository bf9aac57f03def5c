// AUDIT_RETENTION_DAYS (365, docs/rules.md#retention) and PRUNE_INTERVAL_SECONDS (10): documented defaults, and
// a bad value fails at start with a message that names the variable.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.ts';

describe('retention settings (docs/rules.md#retention, docs/rules.md#configuration)', () => {
  it('keeps audit events 365 days and prunes every 10 seconds by default; the replay window bounds codes and tokens', () => {
    expect(loadConfig({}).retention).toEqual({ auditRetentionDays: 365, pruneIntervalSeconds: 10, replayWindowSeconds: 30 });
    expect(loadConfig({ AUDIT_RETENTION_DAYS: '30', PRUNE_INTERVAL_SECONDS: '60', REFRESH_REUSE_WINDOW_SECONDS: '5' }).retention).toEqual({
      auditRetentionDays: 30,
      pruneIntervalSeconds: 60,
      replayWindowSeconds: 5,
    });
  });

  it.each([
    ['AUDIT_RETENTION_DAYS', '0', /^AUDIT_RETENTION_DAYS must be a positive whole number of days$/],
    ['AUDIT_RETENTION_DAYS', '1.5', /^AUDIT_RETENTION_DAYS must be a whole number of days$/],
    ['AUDIT_RETENTION_DAYS', 'forever', /^AUDIT_RETENTION_DAYS must be a whole number of days$/],
    ['PRUNE_INTERVAL_SECONDS', '-1', /^PRUNE_INTERVAL_SECONDS must be a positive whole number of seconds$/],
  ])('refuses %s=%s, naming the variable', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });
});
