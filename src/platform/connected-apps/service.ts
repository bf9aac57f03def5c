// The rules of a user's connected calendars and ICS feeds, of their calendar choices, and of a
// team's connected apps, and every store call they make: for the /v2 calendars and team apps
// routes, and for the connect page, which records a calendar the user confirms as POST
// /v2/calendars/:provider/connect does (docs/rules.md#connect-pages), through the same function
// so that both record the same row. Records only: Gatehouse calls no calendar service, keeps no
// provider token, and another owner's connection is as absent as a missing one.
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { Refusal } from '../authorization-server.ts';
import type { PlatformDeps } from '../deps.ts';
import { checkOutbound, checkTimeZone, conflict, invalid, notFound, toMillis } from '../input.ts';
import { email } from '../schemas.ts';
import type { PlatformContext } from '../stores.ts';
import { dateIn, nextDay, startOfDay } from '../zoned-days.ts';
import type { AppOwner, ConnectedApp } from './store.ts';

export type { ConnectedApp } from './store.ts';

/** Calendar providers of /v2/calendars/:provider and the app each is stored as. */
export const CALENDAR_PROVIDERS: Record<string, string> = { google: 'google-calendar', office365: 'office365-calendar', apple: 'apple-calendar' };
export const ICS_FEED = 'ics-feed';

/**
 * How the platform names a user's calendar apps: the credential type, and the title its app
 * store shows. Gatehouse's app names are the platform's app ids (its `appId` and `slug`).
 */
const CALENDAR_APPS: Record<string, { type: string; title: string }> = {
  'google-calendar': { type: 'google_calendar', title: 'Google Calendar' },
  'office365-calendar': { type: 'office365_calendar', title: 'Outlook Calendar' },
  'apple-calendar': { type: 'apple_calendar', title: 'Apple Calendar' },
  [ICS_FEED]: { type: 'ics-feed_calendar', title: 'ICS Feed' },
};
export const calendarApp = (app: string) => CALENDAR_APPS[app] ?? { type: app.replaceAll('-', '_'), title: app };
/** The app a calendar of that credential type is stored as: calendarApp's inverse for the four calendar apps. */
export const calendarAppOfType = (type: string) => Object.keys(CALENDAR_APPS).find((app) => CALENDAR_APPS[app]!.type === type) ?? type.replaceAll('_', '-');

/** Apps a team can connect, by category. */
export const TEAM_APPS: Record<string, string> = {
  'google-calendar': 'calendar',
  'office365-calendar': 'calendar',
  zoom: 'conferencing',
  'google-meet': 'conferencing',
  'microsoft-teams': 'conferencing',
  'daily-video': 'conferencing',
  stripe: 'payment',
};

/** A new connection of the owner: neither selected nor a destination until the user says so. */
async function newConnection(ctx: PlatformContext, owner: AppOwner, app: string, category: string, account: string, name: string, readOnly: boolean): Promise<ConnectedApp> {
  return {
    id: await ctx.stores.ids.next('connected_apps'),
    owner,
    app,
    category,
    account,
    name,
    readOnly,
    createdAt: ctx.clock(),
    selected: false,
    destination: false,
  };
}

/** Records new connections, all or none; an account connected already is a conflict. */
async function insertConnections(ctx: PlatformContext, rows: ConnectedApp[]): Promise<void> {
  if (!(await ctx.stores.api.connectedApps.insertAll(rows))) throw conflict('that account is already connected');
}

/** The user's calendars, and the one events are written to (GET /v2/calendars). */
export interface UserCalendars {
  connections: ConnectedApp[];
  /**
   * The calendar chosen by PUT /v2/destination-calendars; until one is chosen, the first
   * connected calendar that is not read-only, as the platform makes it the default
   * destination; undefined when there is none.
   */
  destination: ConnectedApp | undefined;
}

export async function listCalendars(ctx: PlatformContext, userId: string): Promise<UserCalendars> {
  const connections = await ctx.stores.api.connectedApps.list({ userId }, { category: 'calendar' });
  return { connections, destination: connections.find((a) => a.destination) ?? connections.find((a) => !a.readOnly) };
}

/** The user's connections to that calendar provider (google, office365, apple). */
export function providerConnections(ctx: PlatformContext, userId: string, provider: string): Promise<ConnectedApp[]> {
  return ctx.stores.api.connectedApps.list({ userId }, { app: CALENDAR_PROVIDERS[provider]! });
}

export interface CalendarAccount {
  account: string;
  name?: string;
  readOnly?: boolean;
}

/**
 * The POST route's schema for the account (an e-mail address), checked with Ajv and the same
 * formats as Fastify checks the route's body, for the connect page's form, whose field no
 * route schema reads.
 */
const isEmail = new AjvJsonSchemaValidator().getValidator<string>(email);

/** The account as POST /v2/calendars/:provider/connect takes it, or 400 naming `account`. */
export function checkCalendarAccount(value: string): string {
  if (!isEmail(value).valid) throw invalid('account', `must be an e-mail address of at most ${email.maxLength as number} characters, such as ann@example.com`);
  return value;
}

/**
 * Records the user's calendar of that provider (docs/integrating.md#calendar-connections): the
 * address, lower-cased, is the account; the name is the address as given unless one is sent.
 * An account connected already is 409, found before an id is taken so that a refusal uses up
 * no number of the series; the insert still refuses one connected meanwhile.
 */
export async function connectCalendar(ctx: PlatformContext, userId: string, provider: string, input: CalendarAccount): Promise<ConnectedApp> {
  const app = CALENDAR_PROVIDERS[provider]!;
  const account = checkCalendarAccount(input.account).toLowerCase();
  if ((await ctx.stores.api.connectedApps.findAccount({ userId }, app, account)) !== undefined) throw conflict('that account is already connected');
  const row = await newConnection(ctx, { userId }, app, 'calendar', account, input.name ?? input.account, input.readOnly ?? false);
  await insertConnections(ctx, [row]);
  return row;
}

/**
 * docs/integrating.md#calendar-connections: an Apple calendar by its Apple ID, trimmed and
 * lower-cased, which is the connection's account and name. The app-specific password the
 * route requires is no input here: Gatehouse calls no CalDAV server, so it is never kept.
 */
export async function saveCalendarCredentials(ctx: PlatformContext, userId: string, provider: string, username: string): Promise<ConnectedApp> {
  const account = username.trim().toLowerCase();
  if (account === '') throw invalid('username', 'must not be blank');
  const app = CALENDAR_PROVIDERS[provider]!;
  // Before an id is taken: a refusal uses up no number of the series.
  if ((await ctx.stores.api.connectedApps.findAccount({ userId }, app, account)) !== undefined) throw conflict('that account is already connected');
  const row = await newConnection(ctx, { userId }, app, 'calendar', account, account, false);
  await insertConnections(ctx, [row]);
  return row;
}

/**
 * Removes the user's connection of that id to the provider, or to an ICS feed (`ics-feed`,
 * disconnected through the same route); answers it as it was. 404 when the user has none.
 */
export async function disconnectCalendar(ctx: PlatformContext, userId: string, provider: string, id: string): Promise<ConnectedApp> {
  const apps = ctx.stores.api.connectedApps;
  const app = CALENDAR_PROVIDERS[provider] ?? ICS_FEED;
  const current = await apps.find({ userId }, id, { app });
  if (current === undefined || !(await apps.delete({ userId }, app, id))) throw notFound(`${provider} connection`);
  return current;
}

/**
 * The period in Gatehouse's words (start and end, instants) or Cal.com API v2's (dateFrom and
 * dateTo, whole days in timeZone or the deprecated loggedInUsersTz; UTC by default).
 */
export interface BusyPeriod {
  start?: string;
  end?: string;
  dateFrom?: string;
  dateTo?: string;
  timeZone?: string;
  loggedInUsersTz?: string;
}

/** A day left out is today in that zone; dateTo left out is dateFrom: one day. */
function periodOf(q: BusyPeriod, now: number): { from: number; to: number } {
  if (q.start !== undefined || q.end !== undefined) {
    if (q.start === undefined || q.end === undefined) throw invalid(q.start === undefined ? 'start' : 'end', 'is required with the other: send start and end, or dateFrom and dateTo');
    return { from: toMillis(q.start, 'start'), to: toMillis(q.end, 'end') };
  }
  const field = q.timeZone !== undefined ? 'timeZone' : 'loggedInUsersTz';
  const zone = q.timeZone ?? q.loggedInUsersTz ?? 'UTC';
  checkTimeZone(zone, field);
  const first = q.dateFrom ?? dateIn(now, zone);
  const last = q.dateTo ?? first;
  return { from: startOfDay(first, zone), to: startOfDay(nextDay(last), zone) };
}

/** The user's busy times in a period of at most 62 days: from their bookings only, no calendar service is asked. */
export async function busyTimes(ctx: PlatformContext, userId: string, period: BusyPeriod): Promise<Array<{ uid: string; start: number; end: number }>> {
  const { from, to } = periodOf(period, ctx.clock());
  const endField = period.start !== undefined ? 'end' : 'dateTo';
  if (to <= from) throw invalid(endField, `must be later than ${endField === 'end' ? 'start' : 'dateFrom'}`);
  if (to - from > 62 * 24 * 3600_000) throw invalid(endField, 'the period may span at most 62 days');
  return ctx.stores.bookings.busyTimes(userId, from, to);
}

/** Which addresses the service may be asked to fetch (docs/operating.md: OUTBOUND_ALLOW_PRIVATE). */
export type FeedPolicy = Pick<PlatformDeps, 'outbound'>;

/**
 * webcal:// is how calendar apps spell an https feed. A feed is fetched by the service, so
 * it must be on a public address unless OUTBOUND_ALLOW_PRIVATE=1 (docs/rules.md#outbound-urls).
 */
async function checkFeedUrl(value: string, field: string, { outbound }: FeedPolicy): Promise<string> {
  const url = await checkOutbound(value.replace(/^webcal:\/\//i, 'https://'), field, outbound);
  return url.toString();
}

/** An address as it would be saved, or the reason it would not be. */
export interface FeedCheck {
  url: string;
  valid: boolean;
  problem?: string;
}

/** A refusal is this check's answer, not its failure. */
async function checkedFeed(policy: FeedPolicy, url: string): Promise<FeedCheck> {
  try {
    return { url: await checkFeedUrl(url, 'url', policy), valid: true };
  } catch (error) {
    if (error instanceof Refusal) return { url, valid: false, problem: error.message };
    throw error;
  }
}

/**
 * With a url: whether it may be saved, and whether it is saved already. Without: the user's
 * saved feeds, each checked again; valid when there are some and every one still passes.
 */
export type IcsFeedCheck = (FeedCheck & { saved: boolean }) | { valid: boolean; saved: boolean; feeds: FeedCheck[] };

export async function checkIcsFeed(ctx: PlatformContext, policy: FeedPolicy, userId: string, url: string | undefined): Promise<IcsFeedCheck> {
  const apps = ctx.stores.api.connectedApps;
  if (url === undefined) {
    const feeds = await Promise.all((await apps.list({ userId }, { app: ICS_FEED })).map((row) => checkedFeed(policy, row.account)));
    return { valid: feeds.length > 0 && feeds.every((f) => f.valid), saved: feeds.length > 0, feeds };
  }
  const checked = await checkedFeed(policy, url);
  if (!checked.valid) return { ...checked, saved: false };
  const saved = await apps.findAccount({ userId }, ICS_FEED, checked.url);
  return { url: checked.url, valid: true, saved: saved !== undefined };
}

/**
 * Saves the user's ICS feeds, a connection per address, named by its host; read-only unless
 * said otherwise. All are checked (at once) before any is saved: one refused address saves
 * none of the list, and the refusal names the first refused one (`urls.<i>`).
 */
export async function saveIcsFeeds(ctx: PlatformContext, policy: FeedPolicy, userId: string, urls: string[], readOnly: boolean | undefined): Promise<ConnectedApp[]> {
  const checked = await Promise.allSettled(urls.map((u, i) => checkFeedUrl(u, `urls.${i}`, policy)));
  const refused = checked.find((c) => c.status === 'rejected');
  if (refused) throw refused.reason;
  const saved = checked.map((c) => (c as PromiseFulfilledResult<string>).value);
  const rows = await Promise.all(saved.map((url) => newConnection(ctx, { userId }, ICS_FEED, 'calendar', url, new URL(url).hostname, readOnly ?? true)));
  await insertConnections(ctx, rows);
  return rows;
}

const NO_DELEGATION = 'Gatehouse keeps no delegation credentials: leave it out';

/** A calendar of the user as a selection names it (as GET /v2/calendars lists it). */
export interface CalendarNamed {
  integration: string;
  externalId: string;
  credentialId: string;
  delegationCredentialId?: string;
}

/**
 * The user's calendar that a selection names: the connection of credentialId, whose one
 * calendar must be the one integration and externalId name (as GET /v2/calendars lists it).
 */
async function namedCalendar(ctx: PlatformContext, userId: string, named: CalendarNamed): Promise<ConnectedApp> {
  if (named.delegationCredentialId !== undefined) throw invalid('delegationCredentialId', NO_DELEGATION);
  const found = await ctx.stores.api.connectedApps.find({ userId }, named.credentialId, { category: 'calendar' });
  if (found === undefined) throw notFound('calendar connection (credentialId) of yours');
  const { type } = calendarApp(found.app);
  if (named.integration !== type) throw invalid('integration', `must be ${type}: the integration of connection ${found.id}, as GET /v2/calendars lists it`);
  if (named.externalId !== found.account) throw invalid('externalId', `must be ${found.account}: the one calendar of connection ${found.id}, as GET /v2/calendars lists it`);
  return found;
}

/**
 * docs/integrating.md#calendars: selects the named calendar for conflict checks. Stored and
 * shown by GET /v2/calendars only: busy times come from bookings. Answers it as it was read.
 */
export async function selectCalendar(ctx: PlatformContext, userId: string, named: CalendarNamed): Promise<ConnectedApp> {
  const calendar = await namedCalendar(ctx, userId, named);
  await ctx.stores.api.connectedApps.setSelected(userId, calendar.id, true);
  return calendar;
}

/** Unselects the named calendar; 404 when it is not selected. */
export async function unselectCalendar(ctx: PlatformContext, userId: string, named: CalendarNamed): Promise<ConnectedApp> {
  const calendar = await namedCalendar(ctx, userId, named);
  if (!calendar.selected) throw notFound('selected calendar: that calendar is not selected');
  await ctx.stores.api.connectedApps.setSelected(userId, calendar.id, false);
  return calendar;
}

/** A calendar as PUT /v2/destination-calendars names it: its credential type and account. */
export interface DestinationNamed {
  integration: string;
  externalId: string;
  delegationCredentialId?: string;
}

/**
 * Makes the named calendar the user's one destination (the others not), in one transaction;
 * a read-only calendar is refused. No calendar service is written to.
 */
export async function chooseDestination(ctx: PlatformContext, userId: string, named: DestinationNamed): Promise<ConnectedApp> {
  if (named.delegationCredentialId !== undefined) throw invalid('delegationCredentialId', NO_DELEGATION);
  // The one connection of that app and account (an owner connects an account to an app
  // once), read alone rather than found among all the user's calendars.
  const found = await ctx.stores.api.connectedApps.findAccount({ userId }, calendarAppOfType(named.integration), named.externalId.toLowerCase());
  const calendar = found?.category === 'calendar' ? found : undefined;
  if (calendar === undefined) throw notFound(`${named.integration} calendar ${named.externalId} of yours: connect it first`);
  if (calendar.readOnly) throw invalid('externalId', 'is a read-only calendar: a destination must be one events can be written to');
  const chosen = await ctx.stores.transaction((tx) => tx.api.connectedApps.setDestination(userId, calendar.id));
  // Disconnected meanwhile.
  if (!chosen) throw notFound(`${named.integration} calendar ${named.externalId} of yours: connect it first`);
  return calendar;
}

export function listTeamApps(ctx: PlatformContext, teamId: string): Promise<ConnectedApp[]> {
  return ctx.stores.api.connectedApps.list({ teamId });
}

/** Records an app of TEAM_APPS as connected to the team, to the account given (trimmed), named after the app unless a name is sent. */
export async function connectTeamApp(ctx: PlatformContext, teamId: string, app: string, input: { account: string; name?: string }): Promise<ConnectedApp> {
  const row = await newConnection(ctx, { teamId }, app, TEAM_APPS[app]!, input.account.trim(), input.name ?? app, false);
  await insertConnections(ctx, [row]);
  return row;
}

/** Removes the team's connection of that app and id; 404 when the team has none. Answers its id. */
export async function disconnectTeamApp(ctx: PlatformContext, teamId: string, app: string, id: string): Promise<string> {
  if (!(await ctx.stores.api.connectedApps.delete({ teamId }, app, id))) throw notFound(`${app} connection`);
  return id;
}
