// Connected calendars and ICS feeds of a user (APPS_*) and a team's connected apps
// (TEAM_APPS_*). These are records of what was connected: Gatehouse calls no calendar
// service and accepts no third-party credentials, so none are stored.
import type { PlatformDeps } from '../deps.ts';
import { type OutboundPolicy, Refusal } from '../authorization-server.ts';
import type { ConnectedApp } from './store.ts';
import { CALENDAR_PROVIDERS as PROVIDERS, calendarApp, calendarAppOfType, connectCalendar, connecting, ICS_FEED } from './connect.ts';
import { returnAddressCheck, requestConnection } from '../connection-requests/service.ts';
import { route, type HandlerMap } from '../handler.ts';
import { checkOutbound, checkTimeZone, conflict, invalid, iso, notFound, toMillis } from '../input.ts';
import { dateIn, nextDay, startOfDay } from '../zoned-days.ts';
import { arrayOf, bool, dateTime, deletedNumbered, email, numberedId, numberedIdInput, object, str, timeZone, withFields, type JsonSchema } from '../schemas.ts';

/** Apps a team can connect, by category. */
const TEAM_APPS: Record<string, string> = {
  'google-calendar': 'calendar',
  'office365-calendar': 'calendar',
  zoom: 'conferencing',
  'google-meet': 'conferencing',
  'microsoft-teams': 'conferencing',
  'daily-video': 'conferencing',
  stripe: 'payment',
};

const connectionView: JsonSchema = object(
  {
    id: numberedId,
    app: { type: 'string' },
    category: { type: 'string' },
    account: { type: 'string' },
    name: { type: 'string' },
    readOnly: bool,
    createdAt: { type: 'string' },
  },
  ['id', 'app', 'category', 'account', 'name', 'readOnly', 'createdAt'],
);

const connection = (a: ConnectedApp) => ({ id: a.id, app: a.app, category: a.category, account: a.account, name: a.name, readOnly: a.readOnly, createdAt: iso(a.createdAt) });

const text = { type: 'string' };
const nullableText = { type: ['string', 'null'] };

/** A connection as the platform's credential: what a save and a disconnect answer. */
const credentialFields = {
  id: numberedId,
  type: { ...text, description: 'The platform\'s credential type: google_calendar, office365_calendar, apple_calendar or ics-feed_calendar' },
  userId: { ...numberedId, type: ['integer', 'null'] },
  teamId: { ...numberedId, type: ['integer', 'null'] },
  appId: nullableText,
  invalid: { type: ['boolean', 'null'], description: 'Always false: Gatehouse calls no calendar service, so never finds a connection invalid' },
} satisfies Record<string, JsonSchema>;
const credential = (a: ConnectedApp) => ({
  id: a.id,
  type: calendarApp(a.app).type,
  userId: 'userId' in a.owner ? a.owner.userId : null,
  teamId: 'teamId' in a.owner ? a.owner.teamId : null,
  appId: a.app,
  invalid: false,
});
const credentialView = object(credentialFields, Object.keys(credentialFields));
const disconnectedView = withFields(credentialView, { deleted: bool });

/**
 * One connected account as the platform lists it: Gatehouse keeps one calendar per account,
 * the account's own (its address is the calendar's id, as Google and Outlook name a primary
 * calendar). `isSelected` is the user's stored choice (POST/DELETE /v2/selected-calendars); no
 * calendar is read for conflicts even so: busy times come from bookings. The app store's logo,
 * publisher, address and description are not kept: empty.
 */
const calendarFields = {
  externalId: text,
  integration: text,
  name: text,
  primary: { type: ['boolean', 'null'] },
  readOnly: bool,
  email: text,
  isSelected: { ...bool, description: 'Selected for conflict checks by POST /v2/selected-calendars; stored only, as no calendar is read' },
  credentialId: numberedId,
} satisfies Record<string, JsonSchema>;
const calendarView = object(calendarFields, Object.keys(calendarFields));
const integrationFields = {
  name: text,
  title: text,
  description: text,
  type: text,
  variant: text,
  category: text,
  categories: arrayOf(text, 1, 1),
  logo: text,
  publisher: text,
  slug: text,
  url: text,
  email: text,
  installed: bool,
  locationOption: { type: 'null' },
} satisfies Record<string, JsonSchema>;
const connectedCalendarView = object(
  { integration: object(integrationFields, Object.keys(integrationFields)), credentialId: numberedId, primary: calendarView, calendars: arrayOf(calendarView, 1, 1) },
  ['integration', 'credentialId', 'primary', 'calendars'],
);
const destinationFields = {
  id: { ...numberedId, description: 'The connection written to' },
  integration: text,
  externalId: text,
  primaryEmail: nullableText,
  userId: { ...numberedId, type: ['integer', 'null'] },
  eventTypeId: { type: ['integer', 'null'], description: 'Always null: no event type has a calendar of its own' },
  credentialId: { ...numberedId, type: ['integer', 'null'] },
  name: nullableText,
  primary: bool,
  readOnly: bool,
} satisfies Record<string, JsonSchema>;
const calendarsView = object(
  {
    connectedCalendars: arrayOf(connectedCalendarView, 0, 500),
    destinationCalendar: {
      ...object(destinationFields, Object.keys(destinationFields)),
      description:
        'The calendar chosen by PUT /v2/destination-calendars; until one is chosen, the first connected calendar that is not read-only, as the platform makes it the default destination; absent when there is none',
    },
    connections: { ...arrayOf(connectionView, 0, 500), description: 'The same connections in Gatehouse\'s own form' },
  },
  ['connectedCalendars', 'connections'],
);

function calendarOf(a: ConnectedApp) {
  return { externalId: a.account, integration: calendarApp(a.app).type, name: a.name, primary: true, readOnly: a.readOnly, email: a.account, isSelected: a.selected, credentialId: a.id };
}

function calendars(rows: ConnectedApp[], userId: string) {
  const connectedCalendars = rows.map((a) => {
    const { type, title } = calendarApp(a.app);
    const integration = { name: title, title, description: '', type, variant: 'calendar', category: 'calendar', categories: ['calendar'], logo: '', publisher: '', slug: a.app, url: '', email: '', installed: true, locationOption: null };
    return { integration, credentialId: a.id, primary: calendarOf(a), calendars: [calendarOf(a)] };
  });
  const writable = rows.find((a) => a.destination) ?? rows.find((a) => !a.readOnly);
  const destinationCalendar = writable && {
    id: writable.id,
    integration: calendarApp(writable.app).type,
    externalId: writable.account,
    // An ICS feed's account is its address, not a mailbox.
    primaryEmail: writable.app === ICS_FEED ? null : writable.account,
    userId,
    eventTypeId: null,
    credentialId: writable.id,
    name: writable.name,
    primary: true,
    readOnly: false,
  };
  return { connectedCalendars, ...(destinationCalendar ? { destinationCalendar } : {}), connections: rows.map(connection) };
}

/**
 * webcal:// is how calendar apps spell an https feed. A feed is fetched by the service, so
 * it must be on a public address unless OUTBOUND_ALLOW_PRIVATE=1 (docs/rules.md#outbound-urls).
 */
async function checkFeedUrl(value: string, field: string, outbound: OutboundPolicy): Promise<string> {
  const url = await checkOutbound(value.replace(/^webcal:\/\//i, 'https://'), field, outbound);
  return url.toString();
}

export function calendarHandlers(deps: PlatformDeps): HandlerMap {
  return { ...calendarRoutes(deps), ...calendarChoiceRoutes(deps), ...icsFeedRoutes(deps), ...teamAppRoutes(deps) };
}

/** The token's user's provider calendars, and their busy times. */
function calendarRoutes(deps: PlatformDeps): HandlerMap {
  const apps = deps.services.stores.api.connectedApps;
  const { insert, newRow } = connecting(deps.services);
  return {
    'calendars.list': route({
      data: calendarsView,
      handle: async ({ userId }) => calendars(await apps.list({ userId }, { category: 'calendar' }), userId),
    }),
    'calendars.busyTimes': busyTimesRoute(deps),
    'calendars.check': route<unknown, unknown, { provider: string }>({
      params: { provider: { type: 'string', enum: Object.keys(PROVIDERS) } },
      data: object({ provider: { type: 'string' }, connected: bool, accounts: arrayOf({ type: 'string' }, 0, 500) }, ['provider', 'connected', 'accounts']),
      handle: async ({ userId, params }) => {
        const rows = await apps.list({ userId }, { app: PROVIDERS[params.provider]! });
        return { provider: params.provider, connected: rows.length > 0, accounts: rows.map((r) => r.account) };
      },
    }),
    'calendars.connect': route<{ account: string; name?: string; readOnly?: boolean }, unknown, { provider: string }>({
      params: { provider: { type: 'string', enum: Object.keys(PROVIDERS) } },
      body: object({ account: email, name: str(1, 100), readOnly: bool }, ['account']),
      data: connectionView,
      status: 201,
      handle: async ({ userId, params, body }) => connection(await connectCalendar(deps.services, userId, params.provider, body)),
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
    // for nothing. Not stored, not answered, not logged.
    'calendars.saveCredentials': route<{ username: string; password: string }, unknown, { provider: string }>({
      params: { provider: { type: 'string', enum: ['apple'] } },
      body: object({ username: str(1, 254), password: str(1, 1024, { writeOnly: true, description: 'Required, then dropped: never stored or answered' }) }, ['username', 'password']),
      data: connectionView,
      status: 201,
      handle: async ({ userId, params, body }) => {
        const account = body.username.trim().toLowerCase();
        if (account === '') throw invalid('username', 'must not be blank');
        // Before an id is taken: a refusal uses up no number of the series.
        if ((await apps.findAccount({ userId }, PROVIDERS[params.provider]!, account)) !== undefined) throw conflict('that account is already connected');
        const row = await newRow({ userId }, PROVIDERS[params.provider]!, 'calendar', account, account, false);
        await insert([row]);
        return connection(row);
      },
    }),
    // Also removes ICS feeds: they are disconnected through the same route.
    'calendars.disconnect': route<{ id: string }, unknown, { provider: string }>({
      params: { provider: { type: 'string', enum: [...Object.keys(PROVIDERS), ICS_FEED] } },
      body: object({ id: numberedIdInput }, ['id']),
      data: disconnectedView,
      handle: async ({ userId, params, body }) => {
        const provider = PROVIDERS[params.provider] ?? ICS_FEED;
        const current = await apps.find({ userId }, body.id, { app: provider });
        if (current === undefined || !(await apps.delete({ userId }, provider, body.id))) throw notFound(`${params.provider} connection`);
        return { ...credential(current), deleted: true };
      },
    }),
  };
}

/** A calendar of the user as the platform names it in a choice: Selected/DestinationCalendarOutputDto. */
const choiceFields = {
  userId: numberedId,
  integration: text,
  externalId: text,
  credentialId: { ...numberedId, type: ['integer', 'null'] },
} satisfies Record<string, JsonSchema>;
const choiceView = object(choiceFields, Object.keys(choiceFields));
const choice = (a: ConnectedApp, userId: string) => ({ userId, integration: calendarApp(a.app).type, externalId: a.account, credentialId: a.id });

const NO_DELEGATION = 'Gatehouse keeps no delegation credentials: leave it out';
const delegation = { type: 'string', maxLength: 100, description: 'Refused when given: Gatehouse keeps no delegation credentials' };

interface CalendarNamed {
  integration: string;
  externalId: string;
  credentialId: string;
  delegationCredentialId?: string;
}

/**
 * The user's calendar that a selection names: the connection of credentialId, whose one
 * calendar must be the one integration and externalId name (as GET /v2/calendars lists it).
 */
async function namedCalendar(deps: PlatformDeps, userId: string, named: CalendarNamed): Promise<ConnectedApp> {
  if (named.delegationCredentialId !== undefined) throw invalid('delegationCredentialId', NO_DELEGATION);
  const found = await deps.services.stores.api.connectedApps.find({ userId }, named.credentialId, { category: 'calendar' });
  if (found === undefined) throw notFound('calendar connection (credentialId) of yours');
  const { type } = calendarApp(found.app);
  if (named.integration !== type) throw invalid('integration', `must be ${type}: the integration of connection ${found.id}, as GET /v2/calendars lists it`);
  if (named.externalId !== found.account) throw invalid('externalId', `must be ${found.account}: the one calendar of connection ${found.id}, as GET /v2/calendars lists it`);
  return found;
}

/**
 * The user's stored calendar choices (docs/integrating.md#calendars): which calendars are
 * selected for conflict checks and which one is written to. Stored and shown by GET
 * /v2/calendars; no calendar service is asked or written to.
 */
function calendarChoiceRoutes(deps: PlatformDeps): HandlerMap {
  const apps = deps.services.stores.api.connectedApps;
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
      handle: async ({ userId, body }) => {
        const calendar = await namedCalendar(deps, userId, body);
        await apps.setSelected(userId, calendar.id, true);
        return choice(calendar, userId);
      },
    }),
    'selectedCalendars.delete': route<unknown, CalendarNamed>({
      query: object(named, required),
      data: choiceView,
      handle: async ({ userId, query }) => {
        const calendar = await namedCalendar(deps, userId, query);
        if (!calendar.selected) throw notFound('selected calendar: that calendar is not selected');
        await apps.setSelected(userId, calendar.id, false);
        return choice(calendar, userId);
      },
    }),
    'destinationCalendars.update': route<{ integration: string; externalId: string; delegationCredentialId?: string }>({
      body: object(
        {
          integration: { type: 'string', enum: ['apple_calendar', 'google_calendar', 'office365_calendar'], description: 'As GET /v2/calendars lists the calendar' },
          externalId: { ...str(1, 2048), description: 'As GET /v2/calendars lists the calendar' },
          delegationCredentialId: delegation,
        },
        ['integration', 'externalId'],
      ),
      data: choiceView,
      handle: async ({ userId, body }) => {
        if (body.delegationCredentialId !== undefined) throw invalid('delegationCredentialId', NO_DELEGATION);
        // The one connection of that app and account (an owner connects an account to an app
        // once), read alone rather than found among all the user's calendars.
        const found = await apps.findAccount({ userId }, calendarAppOfType(body.integration), body.externalId.toLowerCase());
        const calendar = found?.category === 'calendar' ? found : undefined;
        if (calendar === undefined) throw notFound(`${body.integration} calendar ${body.externalId} of yours: connect it first`);
        if (calendar.readOnly) throw invalid('externalId', 'is a read-only calendar: a destination must be one events can be written to');
        const chosen = await deps.services.stores.transaction((tx) => tx.api.connectedApps.setDestination(userId, calendar.id));
        // Disconnected meanwhile.
        if (!chosen) throw notFound(`${body.integration} calendar ${body.externalId} of yours: connect it first`);
        return choice(calendar, userId);
      },
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
interface BusyQuery {
  start?: string;
  end?: string;
  dateFrom?: string;
  dateTo?: string;
  timeZone?: string;
  loggedInUsersTz?: string;
}

function periodOf(q: BusyQuery, now: number): { from: number; to: number } {
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

/** Busy times come from the user's bookings only: no calendar service is asked. */
function busyTimesRoute(deps: PlatformDeps) {
  const bookings = deps.services.stores.bookings;
  return route<unknown, BusyQuery>({
    query: busyQuery,
    data: arrayOf(object({ start: { type: 'string' }, end: { type: 'string' }, source: { type: 'string' }, bookingUid: { type: 'string' } }, ['start', 'end', 'source']), 0, 1000),
    handle: async ({ userId, query }) => {
      const { from, to } = periodOf(query, deps.services.clock());
      const endField = query.start !== undefined ? 'end' : 'dateTo';
      if (to <= from) throw invalid(endField, `must be later than ${endField === 'end' ? 'start' : 'dateFrom'}`);
      if (to - from > 62 * 24 * 3600_000) throw invalid(endField, 'the period may span at most 62 days');
      return (await bookings.busyTimes(userId, from, to)).map((b) => ({ start: iso(b.start), end: iso(b.end), source: 'booking', bookingUid: b.uid }));
    },
  });
}

/** The token's user's ICS feeds: checked, then saved as calendars. */
function icsFeedRoutes(deps: PlatformDeps): HandlerMap {
  const apps = deps.services.stores.api.connectedApps;
  const { insert, newRow } = connecting(deps.services);
  /** An address as it would be saved, or the reason it would not be: a refusal is this check's answer, not its failure. */
  const checkedFeed = async (url: string): Promise<{ url: string; valid: boolean; problem?: string }> => {
    try {
      return { url: await checkFeedUrl(url, 'url', deps.outbound), valid: true };
    } catch (error) {
      if (error instanceof Refusal) return { url, valid: false, problem: error.message };
      throw error;
    }
  };
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
      handle: async ({ userId, query }) => {
        if (query.url === undefined) {
          const feeds = await Promise.all((await apps.list({ userId }, { app: ICS_FEED })).map((row) => checkedFeed(row.account)));
          return { valid: feeds.length > 0 && feeds.every((f) => f.valid), saved: feeds.length > 0, feeds };
        }
        const checked = await checkedFeed(query.url);
        if (!checked.valid) return { ...checked, saved: false };
        const saved = await apps.findAccount({ userId }, ICS_FEED, checked.url);
        return { url: checked.url, valid: true, saved: saved !== undefined };
      },
    }),
    'calendars.saveIcsFeed': route<{ urls: string[]; readOnly?: boolean }>({
      body: object({ urls: { ...arrayOf(str(1, 2048), 1, 10), uniqueItems: true }, readOnly: bool }, ['urls']),
      // The platform saves a list as one credential; Gatehouse keeps a connection per address:
      // the answer is the first one's credential, and every one in `connections`.
      data: withFields(credentialView, { connections: arrayOf(connectionView, 1, 10) }),
      status: 201,
      handle: async ({ userId, body }) => {
        // All checked (at once) before any is saved: one refused address saves none of the
        // list, and the answer names the first refused one.
        const checked = await Promise.allSettled(body.urls.map((u, i) => checkFeedUrl(u, `urls.${i}`, deps.outbound)));
        const refused = checked.find((c) => c.status === 'rejected');
        if (refused) throw refused.reason;
        const urls = checked.map((c) => (c as PromiseFulfilledResult<string>).value);
        const rows = await Promise.all(urls.map((url) => newRow({ userId }, ICS_FEED, 'calendar', url, new URL(url).hostname, body.readOnly ?? true)));
        await insert(rows);
        return { ...credential(rows[0]!), connections: rows.map(connection) };
      },
    }),
  };
}

/** The apps a team has connected (TEAM_APPS_*). */
function teamAppRoutes(deps: PlatformDeps): HandlerMap {
  const apps = deps.services.stores.api.connectedApps;
  const { insert, newRow } = connecting(deps.services);
  return {
    'teamApps.list': route({
      data: arrayOf(connectionView, 0, 500),
      handle: async ({ facts }) => (await apps.list({ teamId: facts.team!.id })).map(connection),
    }),
    'teamApps.connect': route<{ account: string; name?: string }, unknown, { app: string }>({
      params: { app: { type: 'string', enum: Object.keys(TEAM_APPS) } },
      body: object({ account: str(1, 254), name: str(1, 100) }, ['account']),
      data: connectionView,
      status: 201,
      handle: async ({ facts, params, body }) => {
        const row = await newRow({ teamId: facts.team!.id }, params.app, TEAM_APPS[params.app]!, body.account.trim(), body.name ?? params.app, false);
        await insert([row]);
        return connection(row);
      },
    }),
    'teamApps.disconnect': route<{ id: string }, unknown, { app: string }>({
      params: { app: { type: 'string', enum: Object.keys(TEAM_APPS) } },
      body: object({ id: numberedIdInput }, ['id']),
      data: deletedNumbered,
      handle: async ({ facts, params, body }) => {
        if (!(await apps.delete({ teamId: facts.team!.id }, params.app, body.id))) throw notFound(`${params.app} connection`);
        return { id: body.id, deleted: true };
      },
    }),
  };
}
