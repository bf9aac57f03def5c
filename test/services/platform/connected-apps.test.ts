// The connected apps service's rules (src/platform/connected-apps/service.ts), called in
// process: a user's calendars, ICS feeds and calendar choices, and a team's apps. What only
// HTTP shows (the views, Cal.com's requests and their schemas) is tested in
// test/platform/connected-apps.test.ts, the scopes of every route in
// test/platform/platform-access.test.ts.
import { describe, expect } from 'vitest';
import { randomId } from '../../../src/platform/authorization-server.ts';
import {
  busyTimes,
  checkIcsFeed,
  chooseDestination,
  connectCalendar,
  connectTeamApp,
  disconnectCalendar,
  disconnectTeamApp,
  listCalendars,
  listTeamApps,
  providerConnections,
  saveCalendarCredentials,
  saveIcsFeeds,
  selectCalendar,
  unselectCalendar,
  type FeedPolicy,
} from '../../../src/platform/connected-apps/service.ts';
import type { PlatformContext } from '../../../src/platform/stores.ts';
import { it, T0 } from './world.ts';

/** Public addresses only, as in production; names resolve from this table instead of DNS. */
const dns: Record<string, string[]> = { 'feeds.example.com': ['93.184.216.34'], 'intranet.example.com': ['10.0.0.7'] };
const publicOnly: FeedPolicy = { outbound: { allowPrivate: false, resolve: async (host) => dns[host] ?? [] } };

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** A booking of the host, as the booking routes leave it in the store. */
async function booking(ctx: PlatformContext, hostId: string, start: number, status: 'accepted' | 'cancelled' = 'accepted') {
  const uid = randomId();
  await ctx.stores.bookings.insert({
    id: await ctx.stores.ids.next('bookings'),
    uid,
    eventTypeId: null,
    hostId,
    teamId: null,
    title: 'Intro call',
    description: '',
    start,
    end: start + HOUR,
    status,
    attendee: { name: 'Ann', email: 'ann@example.com', timeZone: 'UTC' },
    guests: [],
    location: '',
    cancellationReason: null,
    declineReason: null,
    rescheduledFrom: null,
    rescheduledTo: null,
    manageTokenHash: null,
    absentHost: false,
    responses: {},
    createdAt: start,
    updatedAt: start,
  });
  return uid;
}

describe('calendar connections', () => {
  it('connecting keeps the address lower-cased as the account and as given as the name; a second time is 409 and uses up no id', async ({ world }) => {
    const userId = await world.user();
    const first = await connectCalendar(world.ctx, userId, 'google', { account: 'Ann@Example.com' });
    expect(first).toMatchObject({ owner: { userId }, app: 'google-calendar', category: 'calendar', account: 'ann@example.com', name: 'Ann@Example.com', readOnly: false, createdAt: T0 });
    await expect(connectCalendar(world.ctx, userId, 'google', { account: 'ANN@example.com', name: 'Again' })).rejects.toMatchObject({ kind: 'conflict', message: 'that account is already connected' });
    const second = await connectCalendar(world.ctx, userId, 'office365', { account: 'ann@example.com', name: 'Work', readOnly: true });
    expect(Number(second.id)).toBe(Number(first.id) + 1);
    expect((await providerConnections(world.ctx, userId, 'google')).map((a) => a.account)).toEqual(['ann@example.com']);
    expect((await providerConnections(world.ctx, userId, 'office365'))[0]).toMatchObject({ name: 'Work', readOnly: true });
  });

  it('an account that is no e-mail address is refused naming account, and nothing is kept', async ({ world }) => {
    const userId = await world.user();
    await expect(connectCalendar(world.ctx, userId, 'google', { account: 'not an address' })).rejects.toMatchObject({ kind: 'validation', message: expect.stringMatching(/^account: must be an e-mail address/) });
    expect((await listCalendars(world.ctx, userId)).connections).toEqual([]);
  });

  it("an Apple ID is trimmed and lower-cased; a blank one is refused naming username; the same one twice is 409", async ({ world }) => {
    const userId = await world.user();
    const saved = await saveCalendarCredentials(world.ctx, userId, 'apple', '  Ann@iCloud.com ');
    expect(saved).toMatchObject({ app: 'apple-calendar', account: 'ann@icloud.com', name: 'ann@icloud.com', readOnly: false });
    await expect(saveCalendarCredentials(world.ctx, userId, 'apple', '   ')).rejects.toMatchObject({ kind: 'validation', message: 'username: must not be blank' });
    await expect(saveCalendarCredentials(world.ctx, userId, 'apple', 'ANN@icloud.com')).rejects.toMatchObject({ kind: 'conflict' });
    const other = await saveCalendarCredentials(world.ctx, userId, 'apple', 'bob@icloud.com');
    expect(Number(other.id)).toBe(Number(saved.id) + 1);
  });

  it("disconnecting removes the user's connection of that provider; another user's, another provider's or a missing one is 404", async ({ world }) => {
    const alice = await world.user();
    const bob = await world.user();
    const hers = await connectCalendar(world.ctx, alice, 'google', { account: 'alice@example.com' });
    for (const [userId, provider] of [[bob, 'google'], [alice, 'office365'], [alice, 'ics-feed']] as const) {
      await expect(disconnectCalendar(world.ctx, userId, provider, hers.id)).rejects.toMatchObject({ kind: 'not_found', message: `no such ${provider} connection` });
    }
    expect((await listCalendars(world.ctx, alice)).connections.map((a) => a.id)).toEqual([hers.id]);
    expect(await disconnectCalendar(world.ctx, alice, 'google', hers.id)).toMatchObject({ id: hers.id, account: 'alice@example.com' });
    expect((await listCalendars(world.ctx, alice)).connections).toEqual([]);
    await expect(disconnectCalendar(world.ctx, alice, 'google', hers.id)).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('the destination is the one chosen, else the first calendar that is not read-only, else none', async ({ world }) => {
    const userId = await world.user();
    expect((await listCalendars(world.ctx, userId)).destination).toBeUndefined();
    await connectCalendar(world.ctx, userId, 'google', { account: 'read@example.com', readOnly: true });
    expect((await listCalendars(world.ctx, userId)).destination).toBeUndefined();
    const writable = await connectCalendar(world.ctx, userId, 'google', { account: 'write@example.com' });
    const other = await connectCalendar(world.ctx, userId, 'office365', { account: 'other@example.com' });
    expect((await listCalendars(world.ctx, userId)).destination?.id).toBe(writable.id);
    await chooseDestination(world.ctx, userId, { integration: 'office365_calendar', externalId: 'OTHER@example.com' });
    const listed = await listCalendars(world.ctx, userId);
    expect(listed.destination?.id).toBe(other.id);
    expect(listed.connections.filter((a) => a.destination).map((a) => a.id)).toEqual([other.id]);
    // One destination at a time: back to the first.
    await chooseDestination(world.ctx, userId, { integration: 'google_calendar', externalId: 'write@example.com' });
    expect((await listCalendars(world.ctx, userId)).connections.filter((a) => a.destination).map((a) => a.id)).toEqual([writable.id]);
    // A disconnect takes the choice with it: the first writable calendar left is the destination again.
    await disconnectCalendar(world.ctx, userId, 'google', writable.id);
    expect((await listCalendars(world.ctx, userId)).destination?.id).toBe(other.id);
  });
});

describe('calendar choices', () => {
  it("selecting and unselecting the named calendar is stored; unselecting one that is not selected is 404", async ({ world }) => {
    const userId = await world.user();
    const cal = await connectCalendar(world.ctx, userId, 'google', { account: 'ann@example.com' });
    const named = { integration: 'google_calendar', externalId: 'ann@example.com', credentialId: cal.id };
    expect((await selectCalendar(world.ctx, userId, named)).id).toBe(cal.id);
    expect((await listCalendars(world.ctx, userId)).connections[0]!.selected).toBe(true);
    // Selecting again changes nothing and answers alike.
    expect((await selectCalendar(world.ctx, userId, named)).id).toBe(cal.id);
    expect((await listCalendars(world.ctx, userId)).connections.map((a) => a.selected)).toEqual([true]);
    await unselectCalendar(world.ctx, userId, named);
    expect((await listCalendars(world.ctx, userId)).connections[0]!.selected).toBe(false);
    await expect(unselectCalendar(world.ctx, userId, named)).rejects.toMatchObject({ kind: 'not_found', message: 'no such selected calendar: that calendar is not selected' });
  });

  it('a selection must name the connection as GET /v2/calendars lists it: the field at fault is named', async ({ world }) => {
    const userId = await world.user();
    const cal = await connectCalendar(world.ctx, userId, 'google', { account: 'ann@example.com' });
    const named = { integration: 'google_calendar', externalId: 'ann@example.com', credentialId: cal.id };
    await expect(selectCalendar(world.ctx, userId, { ...named, integration: 'office365_calendar' })).rejects.toMatchObject({
      kind: 'validation',
      message: `integration: must be google_calendar: the integration of connection ${cal.id}, as GET /v2/calendars lists it`,
    });
    await expect(selectCalendar(world.ctx, userId, { ...named, externalId: 'bob@example.com' })).rejects.toMatchObject({ message: expect.stringMatching(/^externalId: must be ann@example\.com/) });
    await expect(selectCalendar(world.ctx, userId, { ...named, delegationCredentialId: 'd1' })).rejects.toMatchObject({ message: 'delegationCredentialId: Gatehouse keeps no delegation credentials: leave it out' });
    expect((await listCalendars(world.ctx, userId)).connections[0]!.selected).toBe(false);
  });

  it("another user's calendar, and a team's app, cannot be selected or made a destination: 404, and theirs is unchanged", async ({ world }) => {
    const alice = await world.user();
    const bob = await world.user();
    const teamId = await world.team(bob);
    const hers = await connectCalendar(world.ctx, alice, 'google', { account: 'alice@example.com' });
    const teamApp = await connectTeamApp(world.ctx, teamId, 'google-calendar', { account: 'team@example.com' });
    for (const credentialId of [hers.id, teamApp.id]) {
      await expect(selectCalendar(world.ctx, bob, { integration: 'google_calendar', externalId: 'alice@example.com', credentialId })).rejects.toMatchObject({
        kind: 'not_found',
        message: 'no such calendar connection (credentialId) of yours',
      });
    }
    await world.ctx.stores.api.connectedApps.setSelected(alice, hers.id, true);
    await expect(unselectCalendar(world.ctx, bob, { integration: 'google_calendar', externalId: 'alice@example.com', credentialId: hers.id })).rejects.toMatchObject({ kind: 'not_found' });
    await expect(chooseDestination(world.ctx, bob, { integration: 'google_calendar', externalId: 'alice@example.com' })).rejects.toMatchObject({
      kind: 'not_found',
      message: 'no such google_calendar calendar alice@example.com of yours: connect it first',
    });
    expect((await listCalendars(world.ctx, alice)).connections[0]).toMatchObject({ selected: true, destination: false });
  });

  it('a read-only calendar cannot be the destination, and delegation credentials are refused', async ({ world }) => {
    const userId = await world.user();
    await connectCalendar(world.ctx, userId, 'google', { account: 'read@example.com', readOnly: true });
    await expect(chooseDestination(world.ctx, userId, { integration: 'google_calendar', externalId: 'read@example.com' })).rejects.toMatchObject({
      kind: 'validation',
      message: 'externalId: is a read-only calendar: a destination must be one events can be written to',
    });
    await expect(chooseDestination(world.ctx, userId, { integration: 'google_calendar', externalId: 'read@example.com', delegationCredentialId: 'x' })).rejects.toMatchObject({ message: expect.stringMatching(/^delegationCredentialId:/) });
    expect((await listCalendars(world.ctx, userId)).connections[0]!.destination).toBe(false);
  });
});

describe('busy times', () => {
  it("are the user's active bookings overlapping the period, from start and end or whole days in a zone", async ({ world }) => {
    const userId = await world.user();
    const other = await world.user();
    const noon = Date.parse('2030-01-10T12:00:00Z');
    const kept = await booking(world.ctx, userId, noon);
    await booking(world.ctx, userId, noon + 2 * HOUR, 'cancelled');
    await booking(world.ctx, other, noon);
    await booking(world.ctx, userId, noon + 3 * DAY);
    expect(await busyTimes(world.ctx, userId, { start: '2030-01-10T00:00:00Z', end: '2030-01-11T00:00:00Z' })).toEqual([{ uid: kept, start: noon, end: noon + HOUR }]);
    // 12:00 UTC is 23:00 in Sydney: on the 10th there, but past the 10th in Kiritimati (UTC+14).
    expect((await busyTimes(world.ctx, userId, { dateFrom: '2030-01-10', timeZone: 'Australia/Sydney' })).map((b) => b.uid)).toEqual([kept]);
    expect(await busyTimes(world.ctx, userId, { dateFrom: '2030-01-10', timeZone: 'Pacific/Kiritimati' })).toEqual([]);
  });

  it('without days, the period is today in the zone, by the clock', async ({ world }) => {
    const userId = await world.user();
    const uid = await booking(world.ctx, userId, T0 + HOUR);
    expect((await busyTimes(world.ctx, userId, {})).map((b) => b.uid)).toEqual([uid]);
    world.advance(2 * DAY);
    expect(await busyTimes(world.ctx, userId, {})).toEqual([]);
  });

  it('a period with one end, backwards, longer than 62 days or in no time zone is refused, naming the field', async ({ world }) => {
    const userId = await world.user();
    const refusals: [Parameters<typeof busyTimes>[2], string][] = [
      [{ start: '2030-01-10T00:00:00Z' }, 'end: is required with the other: send start and end, or dateFrom and dateTo'],
      [{ end: '2030-01-10T00:00:00Z' }, 'start: is required with the other: send start and end, or dateFrom and dateTo'],
      [{ start: '2030-01-10T00:00:00Z', end: '2030-01-10T00:00:00Z' }, 'end: must be later than start'],
      [{ dateFrom: '2030-01-10', dateTo: '2030-01-09' }, 'dateTo: must be later than dateFrom'],
      [{ dateFrom: '2030-01-01', dateTo: '2030-03-05' }, 'dateTo: the period may span at most 62 days'],
      [{ loggedInUsersTz: 'Mars/Olympus' }, 'loggedInUsersTz: "Mars/Olympus" is not an IANA time zone such as Europe/Berlin'],
    ];
    for (const [period, message] of refusals) await expect(busyTimes(world.ctx, userId, period)).rejects.toMatchObject({ kind: 'validation', message });
    expect(await busyTimes(world.ctx, userId, { dateFrom: '2030-01-01', dateTo: '2030-03-03' })).toEqual([]);
  });
});

describe('ICS feeds', () => {
  it('a feed on a public address is checked as https (webcal:// spelled so) and saved read-only, named by its host', async ({ world }) => {
    const userId = await world.user();
    expect(await checkIcsFeed(world.ctx, publicOnly, userId, 'webcal://feeds.example.com/a.ics')).toEqual({ url: 'https://feeds.example.com/a.ics', valid: true, saved: false });
    const [row] = await saveIcsFeeds(world.ctx, publicOnly, userId, ['webcal://feeds.example.com/a.ics'], undefined);
    expect(row).toMatchObject({ app: 'ics-feed', category: 'calendar', account: 'https://feeds.example.com/a.ics', name: 'feeds.example.com', readOnly: true });
    expect(await checkIcsFeed(world.ctx, publicOnly, userId, 'https://feeds.example.com/a.ics')).toMatchObject({ valid: true, saved: true });
    expect(await checkIcsFeed(world.ctx, publicOnly, await world.user(), 'https://feeds.example.com/a.ics')).toMatchObject({ valid: true, saved: false });
  });

  it("a private address is the check's answer, not a refusal; saving it is refused naming its place in the list, and none of the list is saved", async ({ world }) => {
    const userId = await world.user();
    expect(await checkIcsFeed(world.ctx, publicOnly, userId, 'https://intranet.example.com/a.ics')).toEqual({
      url: 'https://intranet.example.com/a.ics',
      valid: false,
      problem: 'url: intranet.example.com resolves to a non-public address: webhooks and calendar feeds must be on a public address',
      saved: false,
    });
    await expect(saveIcsFeeds(world.ctx, publicOnly, userId, ['https://feeds.example.com/a.ics', 'https://intranet.example.com/b.ics'], false)).rejects.toMatchObject({
      kind: 'validation',
      message: expect.stringMatching(/^urls\.1: intranet\.example\.com resolves to a non-public address/),
    });
    expect((await listCalendars(world.ctx, userId)).connections).toEqual([]);
  });

  it('without a url: the saved feeds, each checked again; valid only when there are some and all pass', async ({ world }) => {
    const userId = await world.user();
    expect(await checkIcsFeed(world.ctx, publicOnly, userId, undefined)).toEqual({ valid: false, saved: false, feeds: [] });
    const anything: FeedPolicy = { outbound: { allowPrivate: true, resolve: async () => [] } };
    await saveIcsFeeds(world.ctx, anything, userId, ['https://feeds.example.com/a.ics', 'http://intranet.example.com/b.ics'], false);
    expect(await checkIcsFeed(world.ctx, anything, userId, undefined)).toMatchObject({ valid: true, saved: true });
    const again = await checkIcsFeed(world.ctx, publicOnly, userId, undefined);
    expect(again).toMatchObject({ valid: false, saved: true });
    expect('feeds' in again && again.feeds.map((f) => f.valid)).toEqual([true, false]);
  });

  it('a list naming a feed saved already is 409 and saves none of it', async ({ world }) => {
    const userId = await world.user();
    await saveIcsFeeds(world.ctx, publicOnly, userId, ['https://feeds.example.com/a.ics'], undefined);
    await expect(saveIcsFeeds(world.ctx, publicOnly, userId, ['https://feeds.example.com/b.ics', 'https://feeds.example.com/a.ics'], undefined)).rejects.toMatchObject({ kind: 'conflict' });
    expect((await listCalendars(world.ctx, userId)).connections.map((a) => a.account)).toEqual(['https://feeds.example.com/a.ics']);
  });
});

describe('team apps', () => {
  it("a team's app is of its category, with the account trimmed and the app's name unless one is given; the same account twice is 409", async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    const zoom = await connectTeamApp(world.ctx, teamId, 'zoom', { account: ' team@example.com ' });
    expect(zoom).toMatchObject({ owner: { teamId }, app: 'zoom', category: 'conferencing', account: 'team@example.com', name: 'zoom' });
    expect(await connectTeamApp(world.ctx, teamId, 'stripe', { account: 'acct_1', name: 'Payments' })).toMatchObject({ category: 'payment', name: 'Payments' });
    await expect(connectTeamApp(world.ctx, teamId, 'zoom', { account: 'team@example.com' })).rejects.toMatchObject({ kind: 'conflict', message: 'that account is already connected' });
    expect((await listTeamApps(world.ctx, teamId)).map((a) => a.app)).toEqual(['zoom', 'stripe']);
    expect((await listCalendars(world.ctx, owner)).connections).toEqual([]);
  });

  it("another team's app, or the team's app under another name, is 404 and stays", async ({ world }) => {
    const owner = await world.user();
    const ours = await world.team(owner);
    const theirs = await world.team(owner);
    const zoom = await connectTeamApp(world.ctx, theirs, 'zoom', { account: 'team@example.com' });
    await expect(disconnectTeamApp(world.ctx, ours, 'zoom', zoom.id)).rejects.toMatchObject({ kind: 'not_found', message: 'no such zoom connection' });
    await expect(disconnectTeamApp(world.ctx, theirs, 'google-meet', zoom.id)).rejects.toMatchObject({ kind: 'not_found', message: 'no such google-meet connection' });
    expect((await listTeamApps(world.ctx, theirs)).map((a) => a.id)).toEqual([zoom.id]);
    expect(await disconnectTeamApp(world.ctx, theirs, 'zoom', zoom.id)).toBe(zoom.id);
    expect(await listTeamApps(world.ctx, theirs)).toEqual([]);
  });
});
