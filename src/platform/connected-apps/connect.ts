// Recording a user's calendar connection: what POST /v2/calendars/:provider/connect does, and what
// the connect page does when the user confirms a connection an application asked for
// (docs/rules.md#connect-pages), one function for both so that they record the same row.
// Records only: Gatehouse calls no calendar service and keeps no provider token.
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { PlatformStores } from '../stores.ts';
import type { AppOwner, ConnectedApp } from './store.ts';
import { conflict, invalid } from '../input.ts';
import { email } from '../schemas.ts';

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

/** The stores of the caller (or of its transaction) and its clock. */
export interface Recording {
  stores: PlatformStores;
  clock: () => number;
}

/** Records new connections, all or none; an account connected already is a conflict. */
export function connecting({ stores, clock }: Recording) {
  const apps = stores.api.connectedApps;
  return {
    insert: async (rows: ConnectedApp[]) => {
      if (!(await apps.insertAll(rows))) throw conflict('that account is already connected');
    },
    newRow: async (owner: AppOwner, appName: string, category: string, account: string, name: string, readOnly: boolean): Promise<ConnectedApp> => ({
      id: await stores.ids.next('connected_apps'),
      owner,
      app: appName,
      category,
      account,
      name,
      readOnly,
      createdAt: clock(),
      selected: false,
      destination: false,
    }),
  };
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
export async function connectCalendar(recording: Recording, userId: string, provider: string, input: CalendarAccount): Promise<ConnectedApp> {
  const app = CALENDAR_PROVIDERS[provider]!;
  const account = checkCalendarAccount(input.account).toLowerCase();
  if ((await recording.stores.api.connectedApps.findAccount({ userId }, app, account)) !== undefined) throw conflict('that account is already connected');
  const { insert, newRow } = connecting(recording);
  const row = await newRow({ userId }, app, 'calendar', account, input.name ?? input.account, input.readOnly ?? false);
  await insert([row]);
  return row;
}
