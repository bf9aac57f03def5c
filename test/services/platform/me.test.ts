// The own-profile service's rules (src/platform/me/service.ts), called in process: what only
// HTTP shows (the PROFILE_* scopes, the envelope, the view's fields) is tested in
// test/platform/me.test.ts, and the confirmation of a new address in test/web/email-change.test.ts.
import { describe, expect } from 'vitest';
import { ownProfile, profileChanges, updateOwnProfile } from '../../../src/platform/me/service.ts';
import { EMAIL_CHANGE_LIFETIME_MS } from '../../../src/services/accounts/email-change.ts';
import { it } from './world.ts';

describe('own profile', () => {
  it("reads the user's profile as the store keeps it, and refuses a user who no longer exists", async ({ world }) => {
    const userId = await world.user({ name: 'Ada', timeZone: 'Europe/Berlin' });
    expect(await ownProfile(world.ctx, userId)).toMatchObject({ id: userId, name: 'Ada', timeZone: 'Europe/Berlin', weekStart: 'Monday', timeFormat: 24, defaultScheduleId: null, organizationId: null });
    expect(await ownProfile(world.ctx, userId)).not.toHaveProperty('pendingEmail');
    await expect(ownProfile(world.ctx, '999999')).rejects.toMatchObject({ kind: 'not_found', message: 'the user of this token no longer exists' });
    await expect(updateOwnProfile(world.ctx, '999999', { name: 'Ghost' }, null)).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('a change writes the fields given, the name trimmed, and moves updatedAt', async ({ world }) => {
    const userId = await world.user({ name: 'Ada' });
    world.advance(60_000);
    const changed = await updateOwnProfile(world.ctx, userId, { name: '  Ada Lovelace ', timeZone: 'America/New_York', weekStart: 'Sunday', timeFormat: 12 }, null);
    expect(changed).toMatchObject({ name: 'Ada Lovelace', timeZone: 'America/New_York', weekStart: 'Sunday', timeFormat: 12 });
    const stored = await world.ctx.stores.users.findById(userId);
    expect(stored).toMatchObject({ name: 'Ada Lovelace', timeZone: 'America/New_York', weekStart: 'Sunday', timeFormat: 12, updatedAt: world.now() });
  });

  it('a blank name, a name of more than one line or an unknown time zone is refused, naming the field, and nothing is written', async ({ world }) => {
    const userId = await world.user({ name: 'Ada' });
    for (const [input, message] of [
      [{ name: '   ' }, 'name: must not be blank'],
      [{ name: 'Ada\nAdmin' }, 'name: must be one line of text, without control characters'],
      [{ timeZone: 'Mars/Olympus', name: 'Other' }, 'timeZone: "Mars/Olympus" is not an IANA time zone such as Europe/Berlin'],
    ] as const) {
      expect(() => profileChanges(input)).toThrow(message);
      await expect(updateOwnProfile(world.ctx, userId, { ...input, email: 'new@example.com' }, null)).rejects.toMatchObject({ kind: 'validation', message });
    }
    expect(await world.ctx.stores.users.findById(userId)).toMatchObject({ name: 'Ada', timeZone: 'UTC', updatedAt: world.now() });
    expect(await world.ctx.stores.users.findEmailChange(userId)).toBeUndefined();
  });

  it('an email is asked for, not made: it waits as pendingEmail, recorded for the client, until it lapses', async ({ world }) => {
    const userId = await world.user({ email: 'ada@example.com' });
    const changed = await updateOwnProfile(world.ctx, userId, { email: ' New@Example.com ' }, null);
    expect(changed).toMatchObject({ email: 'ada@example.com', pendingEmail: { email: 'new@example.com', expiresAt: world.now() + EMAIL_CHANGE_LIFETIME_MS } });
    expect(await world.ctx.stores.users.findEmailChange(userId)).toMatchObject({ email: 'new@example.com', clientId: null, requestedAt: world.now() });
    expect((await world.ctx.stores.users.findById(userId))?.email).toBe('ada@example.com');

    world.advance(EMAIL_CHANGE_LIFETIME_MS - 1);
    expect((await ownProfile(world.ctx, userId)).pendingEmail?.email).toBe('new@example.com');
    world.advance(1);
    expect(await ownProfile(world.ctx, userId)).not.toHaveProperty('pendingEmail');
  });

  it("asking for the address the account already has withdraws the request; an address that is none is refused", async ({ world }) => {
    const userId = await world.user({ email: 'ada@example.com' });
    await updateOwnProfile(world.ctx, userId, { email: 'new@example.com' }, null);
    await expect(updateOwnProfile(world.ctx, userId, { email: 'not an address', name: 'Changed' }, null)).rejects.toMatchObject({ kind: 'validation', message: expect.stringContaining('is not an email address') });
    expect((await world.ctx.stores.users.findById(userId))?.name).not.toBe('Changed');
    expect(await updateOwnProfile(world.ctx, userId, { email: 'ADA@example.com' }, null)).not.toHaveProperty('pendingEmail');
    expect(await world.ctx.stores.users.findEmailChange(userId)).toBeUndefined();
  });
});
