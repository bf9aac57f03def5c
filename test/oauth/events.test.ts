// The core's events port (src/oauth/events.ts): each audit event a transaction of the core
// wrote is told once the transaction has committed, and never when it rolled back, so
// gatehouse_events_total and the audit trail agree (docs/operating.md#health-metrics-logs). On SQLite
// `:memory:` through the real adapter, opened by test/oauth/core.ts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OAuthContext } from '../../src/oauth/context.ts';
import { reportingTransaction } from '../../src/oauth/events.ts';
import type { OAuthAuditEventType } from '../../src/oauth/storage.ts';
import { openCore, T0, type Core } from './core.ts';

describe('reportingTransaction: the core tells what it did once it is durable', () => {
  let core: Core;
  let ctx: OAuthContext;
  let told: OAuthAuditEventType[];
  const auditTrail = async () => (await core.stores.auditLog.list({ clientId: 'c1' })).map((e) => e.type);

  beforeEach(async () => {
    core = await openCore();
    told = [];
    ctx = { ...core.ctx, events: { committed: (type) => told.push(type) } };
  });
  afterEach(async () => core.close());

  it('tells each event written in the transaction, in order, only after the commit', async () => {
    const toldInside = await reportingTransaction(ctx, async (tx) => {
      await tx.audit.append({ type: 'grant.revoked', clientId: 'c1' }, T0);
      await tx.audit.append({ type: 'grant.created', clientId: 'c1' }, T0);
      return [...told];
    });
    expect(toldInside).toEqual([]);
    expect(told).toEqual(['grant.revoked', 'grant.created']);
    expect(await auditTrail()).toEqual(['grant.created', 'grant.revoked']); // newest first
  });

  it('tells nothing of a transaction that rolled back, whose events the audit trail does not have either', async () => {
    await expect(
      reportingTransaction(ctx, async (tx) => {
        await tx.audit.append({ type: 'token.revoked', clientId: 'c1' }, T0);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(told).toEqual([]);
    expect(await auditTrail()).toEqual([]);
  });

  it('tells the events of a nested transaction once, when the outer one has committed', async () => {
    await reportingTransaction(ctx, async (tx) => {
      await tx.transaction(async (inner) => inner.audit.append({ type: 'refresh_token.reused', clientId: 'c1' }, T0));
      expect(told).toEqual([]);
    });
    expect(told).toEqual(['refresh_token.reused']);
  });

  it('counts nothing when the context has no events port: the audit trail alone has them', async () => {
    const { events: _ignored, ...uncounted } = ctx;
    await reportingTransaction(uncounted, async (tx) => tx.audit.append({ type: 'code.replayed', clientId: 'c1' }, T0));
    expect(told).toEqual([]);
    expect(await auditTrail()).toEqual(['code.replayed']);
  });
});
