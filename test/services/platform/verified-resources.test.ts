// The verified-resources service's rules (src/platform/verified-resources/service.ts), called in
// process: an address kept as one resource however it was typed, each owner's resources its
// own, the limits of code requests, and a code's lifetime. What only HTTP shows (the scopes,
// the 429's envelope, the development delivery in the log) is tested in
// test/platform/platform-flows.test.ts and test/http/rate-limits.test.ts.
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { describe, expect } from 'vitest';
import { listVerified, requestVerificationCode, verifyAddress, type CodeDelivery, type CodeRequestLimits, type ResourceKind, type VerificationOwner } from '../../../src/platform/verified-resources/service.ts';
import { CODE_TTL_MS } from '../../../src/services/accounts/verification.ts';
import { RequestLimit } from '../../../src/http/rate-limits.ts';
import { it, type PlatformWorld } from './world.ts';

const IP = '203.0.113.7';

/** Counters in memory, as an instance without Redis keeps them: `perIp` and `perAddress` requests per 15 minutes. */
function limits(perIp = 100, perAddress = 100): CodeRequestLimits {
  const report = { ticket: () => 0, failed: () => undefined, succeeded: () => undefined };
  const limit = (points: number) => new RequestLimit(new RateLimiterMemory({ points, duration: 15 * 60 }), points, report);
  return { limits: { codeRequestsPerIp: limit(perIp), codeRequestsPerAddress: limit(perAddress) } };
}

/** A delivery that keeps what it was asked to send, as the mail or SMS provider would receive it. */
function outbox() {
  const sent: Array<{ kind: ResourceKind; to: string; code: string }> = [];
  const deliver: CodeDelivery = (kind, to, code) => sent.push({ kind, to, code });
  return { sent, deliver, last: () => sent[sent.length - 1]!.code };
}

async function request(world: PlatformWorld, owner: VerificationOwner, kind: ResourceKind, value: string, options: { deps?: CodeRequestLimits; ip?: string; deliver?: CodeDelivery } = {}) {
  return requestVerificationCode(world.ctx, options.deps ?? limits(), { owner, kind, value, callerIp: options.ip ?? IP }, options.deliver ?? (() => undefined));
}

describe('verified resources', () => {
  it('an email is kept trimmed and in lower case: a code sent to it, brought back in any spelling, proves it', async ({ world }) => {
    const owner = { userId: await world.user() };
    const mail = outbox();
    const requested = await request(world, owner, 'email', '  Ada@Example.COM ', { deliver: mail.deliver });
    expect(requested).toEqual({ value: 'ada@example.com', codeSent: true, expiresAt: world.now() + CODE_TTL_MS });
    expect(mail.sent).toEqual([{ kind: 'email', to: 'ada@example.com', code: expect.stringMatching(/^[0-9]{6}$/) }]);
    expect(await listVerified(world.ctx, owner, 'email', 10, 0)).toEqual([]);

    world.advance(1_000);
    const verified = await verifyAddress(world.ctx, owner, 'email', 'ADA@example.com ', mail.last());
    expect(verified).toMatchObject({ value: 'ada@example.com', kind: 'email', verifiedAt: world.now(), userId: owner.userId, teamId: null });
    expect((await listVerified(world.ctx, owner, 'email', 10, 0)).map((r) => [r.value, r.verifiedAt])).toEqual([['ada@example.com', world.now()]]);
    expect(await world.ctx.stores.verifiedResources.find(owner, 'email', 'ada@example.com')).toMatchObject({ verifiedAt: world.now(), codeHash: null });

    // A proven address is sent no new code.
    expect(await request(world, owner, 'email', 'ada@example.com', { deliver: mail.deliver })).toEqual({ value: 'ada@example.com', codeSent: false, expiresAt: null });
    expect(mail.sent).toHaveLength(1);
  });

  it('a phone number is kept as given, and verified apart from emails', async ({ world }) => {
    const owner = { userId: await world.user() };
    const sms = outbox();
    expect((await request(world, owner, 'phone', '+4915112345678', { deliver: sms.deliver })).value).toBe('+4915112345678');
    await verifyAddress(world.ctx, owner, 'phone', '+4915112345678', sms.last());
    expect((await listVerified(world.ctx, owner, 'phone', 10, 0)).map((r) => r.value)).toEqual(['+4915112345678']);
    expect(await listVerified(world.ctx, owner, 'email', 10, 0)).toEqual([]);
  });

  it("each owner's resources are its own: another user's code does not prove it for them, nor a team's for its members", async ({ world }) => {
    const alice = await world.user();
    const bob = await world.user();
    const teamId = await world.team(alice);
    const mail = outbox();
    await request(world, { userId: alice }, 'email', 'shared@example.com', { deliver: mail.deliver });
    const alicesCode = mail.last();
    for (const other of [{ userId: bob }, { teamId }]) {
      await expect(verifyAddress(world.ctx, other, 'email', 'shared@example.com', alicesCode)).rejects.toMatchObject({ kind: 'validation', message: 'code: no code is pending for this address; request one first' });
    }
    await request(world, { teamId }, 'email', 'shared@example.com', { deliver: mail.deliver });
    await verifyAddress(world.ctx, { teamId }, 'email', 'shared@example.com', mail.last());
    expect((await listVerified(world.ctx, { teamId }, 'email', 10, 0)).map((r) => r.teamId)).toEqual([teamId]);
    expect(await listVerified(world.ctx, { userId: alice }, 'email', 10, 0)).toEqual([]);
    expect(await listVerified(world.ctx, { userId: bob }, 'email', 10, 0)).toEqual([]);
  });

  it('a code lapses after its lifetime, and a wrong one is refused naming the code', async ({ world }) => {
    const owner = { userId: await world.user() };
    const mail = outbox();
    await request(world, owner, 'email', 'ada@example.com', { deliver: mail.deliver });
    const code = mail.last();
    await expect(verifyAddress(world.ctx, owner, 'email', 'ada@example.com', code === '000000' ? '000001' : '000000')).rejects.toMatchObject({ kind: 'validation', message: 'code: is wrong' });
    world.advance(CODE_TTL_MS);
    await expect(verifyAddress(world.ctx, owner, 'email', 'ada@example.com', code)).rejects.toMatchObject({ kind: 'validation', message: 'code: has expired; request a new one' });
    expect(await listVerified(world.ctx, owner, 'email', 10, 0)).toEqual([]);
  });

  it('code requests are limited per caller, an IPv6 caller by its /64: past the limit a 429 with Retry-After, and no code is made or sent', async ({ world }) => {
    const owner = { userId: await world.user() };
    const deps = limits(2, 100);
    const mail = outbox();
    await request(world, owner, 'email', 'a@example.com', { deps, ip: '2001:db8:1:2::1', deliver: mail.deliver });
    await request(world, owner, 'email', 'b@example.com', { deps, ip: '2001:db8:1:2:ffff::9', deliver: mail.deliver });
    const refused = request(world, owner, 'email', 'c@example.com', { deps, ip: '2001:db8:1:2::3', deliver: mail.deliver });
    await expect(refused).rejects.toMatchObject({ kind: 'rate_limited', message: expect.stringMatching(/^too many verification code requests: retry in \d+ seconds$/), headers: { 'retry-after': expect.stringMatching(/^\d+$/) } });
    expect(mail.sent.map((m) => m.to)).toEqual(['a@example.com', 'b@example.com']);
    expect(await world.ctx.stores.verifiedResources.find(owner, 'email', 'c@example.com')).toBeUndefined();
    // Another caller is counted apart.
    expect((await request(world, owner, 'email', 'c@example.com', { deps, ip: '2001:db8:1:3::1', deliver: mail.deliver })).codeSent).toBe(true);
  });

  it("code requests are limited per owner's address, however it is spelled and from whichever caller; another owner's same address is counted apart", async ({ world }) => {
    const alice = { userId: await world.user() };
    const bob = { userId: await world.user() };
    const deps = limits(100, 2);
    await request(world, alice, 'email', 'ada@example.com', { deps, ip: '198.51.100.1' });
    await request(world, alice, 'email', 'ADA@example.com', { deps, ip: '198.51.100.2' });
    await expect(request(world, alice, 'email', ' ada@example.com', { deps, ip: '198.51.100.3' })).rejects.toMatchObject({ kind: 'rate_limited' });
    expect((await request(world, bob, 'email', 'ada@example.com', { deps, ip: '198.51.100.3' })).codeSent).toBe(true);
    expect((await request(world, alice, 'phone', '+4915112345678', { deps, ip: '198.51.100.3' })).codeSent).toBe(true);
  });
});
