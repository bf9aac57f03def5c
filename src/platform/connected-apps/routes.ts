// Connected calendars and ICS feeds of a user (APPS_*) and a team's connected apps
// (TEAM_APPS_*). These are records of what was connected: Gatehouse calls no calendar
// service and accepts no third-party credentials, so none are stored.
import type { PlatformDeps } from '../deps.ts';
import { returnAddressCheck, requestConnection } from '../connection-requests/service.ts';
import { route, type HandlerMap } from '../handler.ts';
import { iso } from '../input.ts';
import { arrayOf, bool, dateTime, deletedNumbered, email, numberedIdInput, object, str, timeZone, withFields, type JsonSchema } from '../schemas.ts';
import {
  busyTimes,
  CALENDAR_PROVIDERS as PROVIDERS,
  checkIcsFeed,
  chooseDestination,
  connectCalendar,
  connectTeamApp,
  disconnectCalendar,
  disconnectTeamApp,
  ICS_FEED,
  listCalendars,
  listTeamApps,
  providerConnections,
  saveCalendarCredentials,
  saveIcsFeeds,
  selectCalendar,
  TEAM_APPS,
  unselectCalendar,
  type BusyPeriod,
  type CalendarNamed,
  type DestinationNamed,
} from './service.ts';
import { calendars, calendarsView, choice, choiceView, connection, connectionView, credential, credentialView, disconnectedView, text } from './views.ts';

export function calendarHandlers(deps: PlatformDeps): HandlerMap {
  return { ...calendarRoutes(deps), ...calendarChoiceRoutes(deps), ...icsFeedRoutes(deps), ...teamAppRoutes(deps) };
}

/** The token's user's provider calendars, and their busy times. */
function calendarRoutes(deps: PlatformDeps): HandlerMap {
  const ctx = deps.services;
  return {
    'calendars.list': route({
      data: calendarsView,
      handle: async ({ userId }) => calendars(await listCalendars(ctx, userId), userId),
    }),
    'calendars.busyTimes': busyTimesRoute(deps),
    'calendars.check': route<unknown, unknown, { provider: string }>({
      params: { provider: { type: 'string', enum: Object.keys(PROVIDERS) } },
      data: object({ provider: { type: 'string' }, connected: bool, accounts: arrayOf({ type: 'string' }, 0, 500) }, ['provider', 'connected', 'accounts']),
      handle: async ({ userId, params }) => {
        const rows = await providerConnections(ctx, userId, params.provider);
        return { provider: params.provider, connected: rows.length > 0, accounts: rows.map((r) => r.account) };
      },
    }),
    'calendars.connect': route<{ account: string; name?: string; readOnly?: boolean }, unknown, { provider: string }>({
      params: { provider: { type: 'string', enum: Object.keys(PROVIDERS) } },
      body: object({ account: email, name: str(1, 100), readOnly: bool }, ['account']),
      data: connectionView,
      status: 201,
      handle: async ({ userId, params, body }) => connection(await connectCalendar(ctx, userId, params.provider, body)),
    }),
    // docs/rules.md#connect-pages: the platform answers the provider's authorization address;
    // Gatehouse runs neither provider's OAuth, so it answers its own connect page, where the
    // user confirms the account that POST /v2/calendars/:provider/connect would record.
    'calendars.oauthConnect': route<unknown, { isDryRun: boolean; redir?: string }, { provider: string }>({
      params: { provider: { type: 'string', enum: ['google', 'office365'] } },
      query: object(
        {
          isDryRun: { ...bool, description: 'true: the same answer, and nothing is kept: the address leads to the page of a request that does not work' },
          redir: { ...str(1, 2048), description: 'Where the user is sent after confirming (with error=access_denied after cancelling): https, on the origin of one of your redirect URIs' },
        },
        ['isDryRun'],
      ),
      data: object({ authUrl: { ...text, description: "The connect page to send the user to: it works once, for 10 minutes, for the token's user" } }, ['authUrl']),
      noStore: true,
      handle: async ({ params, query, principal }) => {
        const check = await returnAddressCheck(deps, principal!.clientId);
        const returnTo = query.redir === undefined ? null : check(query.redir, 'redir');
        const authUrl = await requestConnection(deps, principal!, { kind: 'calendar', provider: params.provider, returnTo, onErrorReturnTo: null }, { dryRun: query.isDryRun });
        return { authUrl };
      },
    }),
    // docs/integrating.md#calendar-connections: the Apple ID is kept as the connection's
    // account; the app-specific password is required, as the platform requires it, and then
    // dropped: Gatehouse calls no CalDAV server, so a kept password would be a secret kept
    // for nothing. Not stored, not answered, not logged: the service never sees it.
    'calendars.saveCredentials': route<{ username: string; password: string }, unknown, { provider: string }>({
      params: { provider: { type: 'string', enum: ['apple'] } },
      body: object({ username: str(1, 254), password: str(1, 1024, { writeOnly: true, description: 'Required, then dropped: never stored or answered' }) }, ['username', 'password']),
      data: connectionView,
      status: 201,
      handle: async ({ userId, params, body }) => connection(await saveCalendarCredentials(ctx, userId, params.provider, body.username)),
    }),
    // Also removes ICS feeds: they are disconnected through the same route.
    'calendars.disconnect': route<{ id: string }, unknown, { provider: string }>({
      params: { provider: { type: 'string', enum: [...Object.keys(PROVIDERS), ICS_FEED] } },
      body: object({ id: numberedIdInput }, ['id']),
      data: disconnectedView,
      handle: async ({ userId, params, body }) => ({ ...credential(await disconnectCalendar(ctx, userId, params.provider, body.id)), deleted: true }),
    }),
  };
}

const delegation = { type: 'string', maxLength: 100, description: 'Refused when given: Gatehouse keeps no delegation credentials' };

/**
 * The user's stored calendar choices (docs/integrating.md#calendars): which calendars are
 * selected for conflict checks and which one is written to. Stored and shown by GET
 * /v2/calendars; no calendar service is asked or written to.
 */
function calendarChoiceRoutes(deps: PlatformDeps): HandlerMap {
  const ctx = deps.services;
  const named = {
    integration: str(1, 100),
    externalId: str(1, 2048),
    credentialId: numberedIdInput,
    delegationCredentialId: delegation,
  };
  const required = ['integration', 'externalId', 'credentialId'];
  return {
    'selectedCalendars.add': route<CalendarNamed>({
      body: object(named, required),
      data: choiceView,
      status: 201,
      handle: async ({ userId, body }) => choice(await selectCalendar(ctx, userId, body), userId),
    }),
    'selectedCalendars.delete': route<unknown, CalendarNamed>({
      query: object(named, required),
      data: choiceView,
      handle: async ({ userId, query }) => choice(await unselectCalendar(ctx, userId, query), userId),
    }),
    'destinationCalendars.update': route<DestinationNamed>({
      body: object(
        {
          integration: { type: 'string', enum: ['apple_calendar', 'google_calendar', 'office365_calendar'], description: 'As GET /v2/calendars lists the calendar' },
          externalId: { ...str(1, 2048), description: 'As GET /v2/calendars lists the calendar' },
          delegationCredentialId: delegation,
        },
        ['integration', 'externalId'],
      ),
      data: choiceView,
      handle: async ({ userId, body }) => choice(await chooseDestination(ctx, userId, body), userId),
    }),
  };
}

const date: JsonSchema = { type: 'string', format: 'date', description: 'A day, YYYY-MM-DD' };
const ignored = (what: string): JsonSchema => ({ type: 'string', maxLength: 500, description: `${what}; read and ignored: busy times come from Gatehouse's own bookings, no calendar service is asked` });

/**
 * The period in Gatehouse's words (start and end, instants) or Cal.com API v2's (dateFrom and
 * dateTo, whole days in timeZone or the deprecated loggedInUsersTz; UTC by default). A day
 * left out is today in that zone; dateTo left out is dateFrom: one day.
 */
const busyQuery = object({
  start: dateTime,
  end: dateTime,
  dateFrom: date,
  dateTo: date,
  timeZone,
  loggedInUsersTz: { ...timeZone, deprecated: true },
  credentialId: ignored('The calendar credential'),
  externalId: ignored('The calendar'),
});

/** Busy times come from the user's bookings only: no calendar service is asked. */
function busyTimesRoute(deps: PlatformDeps) {
  return route<unknown, BusyPeriod>({
    query: busyQuery,
    data: arrayOf(object({ start: { type: 'string' }, end: { type: 'string' }, source: { type: 'string' }, bookingUid: { type: 'string' } }, ['start', 'end', 'source']), 0, 1000),
    handle: async ({ userId, query }) => (await busyTimes(deps.services, userId, query)).map((b) => ({ start: iso(b.start), end: iso(b.end), source: 'booking', bookingUid: b.uid })),
  });
}

/** The token's user's ICS feeds: checked, then saved as calendars. */
function icsFeedRoutes(deps: PlatformDeps): HandlerMap {
  const ctx = deps.services;
  return {
    // With a url: that address, before saving it. Without one (Cal.com API v2's request has no
    // parameter): the user's saved feeds, each checked again.
    'calendars.checkIcsFeed': route<unknown, { url?: string }>({
      query: object({ url: str(1, 2048) }),
      data: object(
        {
          url: { type: 'string' },
          valid: { type: 'boolean', description: 'With a url: it may be saved. Without: the user has saved feeds and every one still passes the check' },
          problem: { type: 'string' },
          saved: { type: 'boolean', description: 'With a url: it is saved already. Without: the user has saved feeds' },
          feeds: arrayOf(object({ url: { type: 'string' }, valid: bool, problem: { type: 'string' } }, ['url', 'valid']), 0, 500),
        },
        ['valid', 'saved'],
      ),
      handle: ({ userId, query }) => checkIcsFeed(ctx, deps, userId, query.url),
    }),
    'calendars.saveIcsFeed': route<{ urls: string[]; readOnly?: boolean }>({
      body: object({ urls: { ...arrayOf(str(1, 2048), 1, 10), uniqueItems: true }, readOnly: bool }, ['urls']),
      // The platform saves a list as one credential; Gatehouse keeps a connection per address:
      // the answer is the first one's credential, and every one in `connections`.
      data: withFields(credentialView, { connections: arrayOf(connectionView, 1, 10) }),
      status: 201,
      handle: async ({ userId, body }) => {
        const rows = await saveIcsFeeds(ctx, deps, userId, body.urls, body.readOnly);
        return { ...credential(rows[0]!), connections: rows.map(connection) };
      },
    }),
  };
}

/** The apps a team has connected (TEAM_APPS_*). */
function teamAppRoutes(deps: PlatformDeps): HandlerMap {
  const ctx = deps.services;
  return {
    'teamApps.list': route({
      data: arrayOf(connectionView, 0, 500),
      handle: async ({ facts }) => (await listTeamApps(ctx, facts.team!.id)).map(connection),
    }),
    'teamApps.connect': route<{ account: string; name?: string }, unknown, { app: string }>({
      params: { app: { type: 'string', enum: Object.keys(TEAM_APPS) } },
      body: object({ account: str(1, 254), name: str(1, 100) }, ['account']),
      data: connectionView,
      status: 201,
      handle: async ({ facts, params, body }) => connection(await connectTeamApp(ctx, facts.team!.id, params.app, body)),
    }),
    'teamApps.disconnect': route<{ id: string }, unknown, { app: string }>({
      params: { app: { type: 'string', enum: Object.keys(TEAM_APPS) } },
      body: object({ id: numberedIdInput }, ['id']),
      data: deletedNumbered,
      handle: async ({ facts, params, body }) => ({ id: await disconnectTeamApp(ctx, facts.team!.id, params.app, body.id), deleted: true }),
    }),
  };
}
