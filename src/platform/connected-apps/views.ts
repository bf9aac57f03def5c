// GET /v2/calendars and the calendar and team apps routes' answers in Cal.com API v2's shape
// (and Gatehouse's own `connections`), from the connections the service returned.
import { iso } from '../input.ts';
import { arrayOf, bool, numberedId, object, withFields, type JsonSchema } from '../schemas.ts';
import { calendarApp, ICS_FEED, type ConnectedApp, type UserCalendars } from './service.ts';
export const connectionView: JsonSchema = object(
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

export const connection = (a: ConnectedApp) => ({ id: a.id, app: a.app, category: a.category, account: a.account, name: a.name, readOnly: a.readOnly, createdAt: iso(a.createdAt) });

export const text = { type: 'string' };
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
export const credential = (a: ConnectedApp) => ({
  id: a.id,
  type: calendarApp(a.app).type,
  userId: 'userId' in a.owner ? a.owner.userId : null,
  teamId: 'teamId' in a.owner ? a.owner.teamId : null,
  appId: a.app,
  invalid: false,
});
export const credentialView = object(credentialFields, Object.keys(credentialFields));
export const disconnectedView = withFields(credentialView, { deleted: bool });

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
export const calendarsView = object(
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

/** GET /v2/calendars: each connection as the platform lists a connected calendar, and the destination the service names. */
export function calendars({ connections: rows, destination }: UserCalendars, userId: string) {
  const connectedCalendars = rows.map((a) => {
    const { type, title } = calendarApp(a.app);
    const integration = { name: title, title, description: '', type, variant: 'calendar', category: 'calendar', categories: ['calendar'], logo: '', publisher: '', slug: a.app, url: '', email: '', installed: true, locationOption: null };
    return { integration, credentialId: a.id, primary: calendarOf(a), calendars: [calendarOf(a)] };
  });
  const destinationCalendar = destination && {
    id: destination.id,
    integration: calendarApp(destination.app).type,
    externalId: destination.account,
    // An ICS feed's account is its address, not a mailbox.
    primaryEmail: destination.app === ICS_FEED ? null : destination.account,
    userId,
    eventTypeId: null,
    credentialId: destination.id,
    name: destination.name,
    primary: true,
    readOnly: false,
  };
  return { connectedCalendars, ...(destinationCalendar ? { destinationCalendar } : {}), connections: rows.map(connection) };
}

/** A calendar of the user as the platform names it in a choice: Selected/DestinationCalendarOutputDto. */
const choiceFields = {
  userId: numberedId,
  integration: text,
  externalId: text,
  credentialId: { ...numberedId, type: ['integer', 'null'] },
} satisfies Record<string, JsonSchema>;
export const choiceView = object(choiceFields, Object.keys(choiceFields));
export const choice = (a: ConnectedApp, userId: string) => ({ userId, integration: calendarApp(a.app).type, externalId: a.account, credentialId: a.id });
