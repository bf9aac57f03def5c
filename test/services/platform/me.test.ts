// The own-profile service's rules (src/platform/me/service.ts), called in process: what only
// HTTP shows (the envelope, the view's fields, the request schema) is tested in
// test/platform/me.test.ts, the PROFILE_* scopes with every route's in test/platform/platform-access.test.ts, and the confirmation of a new address in test/web/login.test.ts.
import { describe, expect } from 'vitest';
import { LOCALES, ownProfile, PROFILE_LIMITS, profileChanges, updateOwnProfile } from '../../../src/platform/me/service.ts';
import { createSchedule } from '../../../src/platform/schedules/service.ts';
import { EMAIL_CHANGE_LIFETIME_MS } from '../../../src/services/accounts/email-change.ts';
import { it } from './world.ts';

describe('own profile', () => {
  it("reads the user's profile as the store keeps it, and refuses a user who no longer exists", async ({ world }) => {
    const userId = await world.user({ name: 'Ada', timeZone: 'Europe/Berlin' });
    expect(await ownProfile(world.ctx, userId)).toMatchObject({ id: userId, name: 'Ada', timeZone: 'Europe/Berlin', weekStart: 'Monday', timeFormat: 24, defaultScheduleId: null, organizationId: null, bio: null, avatarUrl: null, locale: null, metadata: {} });
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
    // A partial change leaves the rest alone.
    expect(await updateOwnProfile(world.ctx, userId, { timeFormat: 24 }, null)).toMatchObject({ name: 'Ada Lovelace', timeZone: 'America/New_York', weekStart: 'Sunday', timeFormat: 24 });
    expect(await ownProfile(world.ctx, userId)).toMatchObject({ name: 'Ada Lovelace', timeFormat: 24, email: stored?.email });
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

  it('a biography, an avatar, a locale and metadata are kept and read back; blank and null clear; metadata is replaced whole', async ({ world }) => {
    const userId = await world.user();
    world.advance(1000);
    const told = await updateOwnProfile(world.ctx, userId, { bio: 'Engineer.\nLikes tea.', avatarUrl: 'https://cdn.example.com/ada.png?size=2', locale: 'pt-BR', metadata: { plan: 'pro', seats: 3, trial: false } }, null);
    expect(told).toMatchObject({ bio: 'Engineer.\nLikes tea.', avatarUrl: 'https://cdn.example.com/ada.png?size=2', locale: 'pt-BR', metadata: { plan: 'pro', seats: 3, trial: false } });
    expect(await world.ctx.stores.users.findById(userId)).toMatchObject({ updatedAt: world.now() });

    const replaced = await updateOwnProfile(world.ctx, userId, { metadata: { plan: 'team' } }, null);
    expect(replaced.metadata).toEqual({ plan: 'team' });
    expect(replaced).toMatchObject({ bio: 'Engineer.\nLikes tea.', locale: 'pt-BR' });
    const cleared = await updateOwnProfile(world.ctx, userId, { bio: '   ', avatarUrl: null, metadata: {} }, null);
    expect(cleared).toMatchObject({ bio: null, avatarUrl: null, metadata: {}, locale: 'pt-BR' });
  });

  it("every locale of the platform's list is taken; anything else is refused, naming the field", async ({ world }) => {
    expect(LOCALES).toHaveLength(43);
    for (const locale of LOCALES) expect(profileChanges({ locale })).toEqual({ locale });
    for (const locale of ['EN', 'en-US', 'xx', '']) expect(() => profileChanges({ locale })).toThrow("locale: must be one of the platform's locales: ar, az");
    const userId = await world.user();
    await expect(updateOwnProfile(world.ctx, userId, { locale: 'klingon', name: 'Changed' }, null)).rejects.toMatchObject({ kind: 'validation' });
    expect((await ownProfile(world.ctx, userId)).locale).toBeNull();
  });

  it('an avatar is an https URL, one address without spaces, control characters or credentials', async () => {
    const refused: Array<[string, string]> = [
      ['http://example.com/a.png', 'avatarUrl: must be an https URL, such as https://example.com/avatar.png (not http)'],
      ['javascript:alert(1)', 'avatarUrl: must be an https URL, such as https://example.com/avatar.png (not javascript)'],
      ['data:image/png;base64,AAAA', '(not data)'],
      ['ftp://example.com/a.png', '(not ftp)'],
      ['/relative/a.png', 'avatarUrl: must be an https URL'],
      ['https://example.com/a b.png', 'avatarUrl: must be one URL without spaces or control characters'],
      [' https://example.com/a.png', 'without spaces or control characters'],
      ['https://example.com/a.png\n', 'without spaces or control characters'],
      ['https://exa\u0000mple.com/', 'without spaces or control characters'],
      ['https://ada:secret@example.com/a.png', 'avatarUrl: must not hold a user name or password'],
      [`https://example.com/${'a'.repeat(PROFILE_LIMITS.avatarUrl)}`, `avatarUrl: must be at most ${PROFILE_LIMITS.avatarUrl} characters`],
    ];
    for (const [avatarUrl, message] of refused) expect(() => profileChanges({ avatarUrl }), avatarUrl).toThrow(message);
    expect(profileChanges({ avatarUrl: 'https://cal.com/api/avatar/2b735186.png' })).toEqual({ avatarUrl: 'https://cal.com/api/avatar/2b735186.png' });
  });

  it('a biography keeps its line breaks; other control characters, or more than 1000 characters, are refused', async () => {
    expect(profileChanges({ bio: 'Line one\r\n\tLine two' })).toEqual({ bio: 'Line one\r\n\tLine two' });
    expect(() => profileChanges({ bio: 'Bell\u0007' })).toThrow('bio: must be text: line breaks are kept, other control characters are refused');
    expect(() => profileChanges({ bio: 'x'.repeat(PROFILE_LIMITS.bio + 1) })).toThrow('bio: must be at most 1000 characters');
    expect(profileChanges({ bio: 'x'.repeat(PROFILE_LIMITS.bio) }).bio).toHaveLength(1000);
  });

  it("metadata is flat and small: at most 50 keys of 1 to 40 characters, each value a string up to 500 characters, a number or a boolean", async ({ world }) => {
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]));
    expect(profileChanges({ metadata: fifty }).metadata).toEqual(fifty);
    expect(profileChanges({ metadata: { ['k'.repeat(40)]: 'v'.repeat(500), n: -1.5, b: true } }).metadata).toEqual({ ['k'.repeat(40)]: 'v'.repeat(500), n: -1.5, b: true });
    const refused: Array<[Record<string, unknown>, string]> = [
      [{ ...fifty, one: 'more' }, 'metadata: must have at most 50 keys (it has 51)'],
      [{ ['k'.repeat(41)]: 'v' }, 'metadata: each key must be 1 to 40 characters'],
      [{ '': 'v' }, 'metadata: each key must be 1 to 40 characters'],
      [{ 'line\nbreak': 'v' }, 'metadata: each key must be one line of text, without control characters'],
      [{ note: 'v'.repeat(501) }, 'metadata.note: must be at most 500 characters'],
      [{ nested: { a: 1 } }, 'metadata.nested: must be a string, a number or a boolean: metadata is flat'],
      [{ list: [1, 2] }, 'metadata.list: must be a string, a number or a boolean: metadata is flat'],
      [{ nothing: null }, 'metadata.nothing: must be a string, a number or a boolean: metadata is flat'],
      [{ huge: Number.POSITIVE_INFINITY }, 'metadata.huge: must be a finite number'],
    ];
    for (const [metadata, message] of refused) expect(() => profileChanges({ metadata }), JSON.stringify(metadata)).toThrow(message);
    const userId = await world.user();
    await updateOwnProfile(world.ctx, userId, { metadata: { kept: 'yes' } }, null);
    await expect(updateOwnProfile(world.ctx, userId, { metadata: { nested: { a: 1 } }, bio: 'Changed' }, null)).rejects.toMatchObject({ kind: 'validation' });
    expect(await ownProfile(world.ctx, userId)).toMatchObject({ metadata: { kept: 'yes' }, bio: null });
  });

  it("defaultScheduleId makes one of the user's own schedules their default; another's, or none, is refused and nothing is written", async ({ world }) => {
    const userId = await world.user({ name: 'Ada' });
    const other = await world.user();
    const first = await createSchedule(world.ctx, { userId }, { name: 'Work', timeZone: 'UTC' });
    const second = await createSchedule(world.ctx, { userId }, { name: 'Evenings', timeZone: 'UTC' });
    const theirs = await createSchedule(world.ctx, { userId: other }, { name: 'Theirs', timeZone: 'UTC' });
    const teamId = await world.team(userId);
    const teams = await createSchedule(world.ctx, { teamId }, { name: 'Team', timeZone: 'UTC' });
    expect((await ownProfile(world.ctx, userId)).defaultScheduleId).toBe(first.id);

    expect((await updateOwnProfile(world.ctx, userId, { defaultScheduleId: second.id }, null)).defaultScheduleId).toBe(second.id);
    for (const id of [theirs.id, teams.id, '999999']) {
      await expect(updateOwnProfile(world.ctx, userId, { defaultScheduleId: id, name: 'Changed', email: 'new@example.com' }, null)).rejects.toMatchObject({
        kind: 'validation',
        message: `defaultScheduleId: ${id} is not one of your schedules (GET /v2/schedules lists them)`,
      });
    }
    expect(await ownProfile(world.ctx, userId)).toMatchObject({ defaultScheduleId: second.id, name: 'Ada' });
    expect(await ownProfile(world.ctx, userId)).not.toHaveProperty('pendingEmail');
    expect((await ownProfile(world.ctx, other)).defaultScheduleId).toBe(theirs.id);
  });
});
