// An event type as Cal.com API v2 (2024-06-14) answers it: EventTypeOutput for a user's,
// TeamEventTypeOutput for a team's, Gatehouse's own fields beside them. What Gatehouse keeps
// comes from the event type, its owner, its team and its hosts, as the service read them
// (service.ts); what it has no notion of gets the value that says so
// (docs/integrating.md#event-type-fields).
import { iso } from '../input.ts';
import { arrayOf, bool, nullable, numberedId, object, type JsonSchema } from '../schemas.ts';
import type { EventTypeDetails, StoredEventType } from './service.ts';
import { bookingForm } from './booking-fields.ts';
import { slotSettingsAnswer, slotSettingsView } from './slot-settings.ts';
import type { EventTypeLocation } from './store.ts';

const text: JsonSchema = { type: 'string' };
const nullText = nullable(text);
/** Free-form objects of the platform (metadata): written as they are. */
const anyObject: JsonSchema = { type: 'object', additionalProperties: true };

/** A location the platform's way (`address`, `link`, `phone`, `integration`), with Gatehouse's `value` beside it. */
const locationView = object(
  {
    type: text,
    address: text,
    link: text,
    phone: text,
    integration: text,
    public: bool,
    value: text,
  },
  ['type', 'value'],
);

/**
 * A booking field the platform's way (its output variants): a default field or a custom one
 * (docs/integrating.md#booking-fields); placeholder and options where its kind has them.
 */
const bookingFieldView = object(
  {
    type: text,
    slug: text,
    label: text,
    placeholder: text,
    options: arrayOf(text, 1, 100),
    required: bool,
    hidden: bool,
    isDefault: bool,
    disableOnPrefill: bool,
  },
  ['type', 'slug', 'label', 'required', 'hidden', 'isDefault'],
);

const personView = (idName: 'id' | 'userId') =>
  object({ [idName]: numberedId, name: text, username: text, avatarUrl: nullText, weekStart: text }, [idName, 'name', 'username', 'avatarUrl']);

const teamView = object(
  {
    id: numberedId,
    slug: text,
    name: text,
    bannerUrl: nullText,
    logoUrl: nullText,
    weekStart: nullText,
    brandColor: nullText,
    darkBrandColor: nullText,
    theme: nullText,
  },
  ['id', 'slug', 'name', 'bannerUrl', 'logoUrl', 'weekStart', 'brandColor', 'darkBrandColor', 'theme'],
);

const common = [
  'id', 'title', 'slug', 'description', 'lengthInMinutes', 'lengthInMinutesOptions', 'locations', 'bookingFields', 'disableGuests',
  'slotInterval', 'minimumBookingNotice', 'beforeEventBuffer', 'afterEventBuffer', 'recurrence', 'metadata', 'price', 'currency',
  'lockTimeZoneToggleOnBookingPage', 'seatsPerTimeSlot', 'forwardParamsSuccessRedirect', 'successRedirectUrl', 'isInstantEvent',
  'seatsShowAvailabilityCount', 'onlyShowFirstAvailableSlot', 'offsetStart', 'scheduleId', 'hidden', 'bookingRequiresAuthentication', 'requiresConfirmation', 'schedulingType',
  'ownerId', 'teamId', 'createdAt', 'updatedAt',
];

/**
 * One schema for both kinds, so that an organization's list (its members' and its teams') is
 * one list: a user's carries `users` and `bookingUrl`, a team's `hosts`, `team` and
 * `assignAllTeamMembers`.
 */
export const eventTypeView: JsonSchema = object(
  {
    id: numberedId,
    title: text,
    slug: text,
    description: text,
    lengthInMinutes: { type: 'integer' },
    lengthInMinutesOptions: arrayOf({ type: 'integer' }, 0, 1),
    locations: arrayOf(locationView, 0, 10),
    bookingFields: arrayOf(bookingFieldView, 0, 60),
    disableGuests: bool,
    minimumBookingNotice: { type: 'integer' },
    ...slotSettingsView,
    recurrence: { type: 'null' },
    metadata: anyObject,
    price: { type: 'integer' },
    currency: text,
    lockTimeZoneToggleOnBookingPage: bool,
    forwardParamsSuccessRedirect: { type: 'null' },
    successRedirectUrl: { type: 'null' },
    isInstantEvent: bool,
    scheduleId: { type: 'null' },
    hidden: bool,
    bookingRequiresAuthentication: bool,
    requiresConfirmation: bool,
    schedulingType: nullText,
    ownerId: nullable(numberedId),
    teamId: nullable(numberedId),
    parentEventTypeId: { type: 'null' },
    users: arrayOf(personView('id'), 0, 1),
    bookingUrl: text,
    hosts: arrayOf(personView('userId'), 0, 1000),
    assignAllTeamMembers: bool,
    team: teamView,
    createdAt: text,
    updatedAt: text,
  },
  common,
);

/** The platform's answer to a delete: what the event type was. */
export const deletedEventTypeView: JsonSchema = object(
  { id: numberedId, lengthInMinutes: { type: 'integer' }, title: text, slug: text, deleted: bool },
  ['id', 'lengthInMinutes', 'title', 'slug', 'deleted'],
);

export const deletedEventType = (e: StoredEventType) => ({ id: e.id, lengthInMinutes: e.lengthMinutes, title: e.title, slug: e.slug, deleted: true });

/** Gatehouse's `{type, value}` as the platform writes that type, `value` kept beside it. */
function location(l: EventTypeLocation) {
  switch (l.type) {
    case 'address': return { type: 'address', address: l.value, public: false, value: l.value };
    case 'link': return { type: 'link', link: l.value, public: false, value: l.value };
    case 'phone': return { type: 'phone', phone: l.value, public: false, value: l.value };
    case 'integration': return { type: 'integration', integration: l.value, value: l.value };
  }
}

/** Gatehouse keeps no pictures of people. */
const person = (u: { name: string; username: string }) => ({ name: u.name, username: u.username, avatarUrl: null });

/** The answer for an event type, from what the service read of it; `appUrl` (APP_URL) addresses the booking page. */
export function eventTypeAnswer(appUrl: string, { eventType: e, owner, team, hosts }: EventTypeDetails) {
  const base = {
    id: e.id,
    title: e.title,
    slug: e.slug,
    description: e.description,
    lengthInMinutes: e.lengthMinutes,
    lengthInMinutesOptions: [e.lengthMinutes],
    locations: e.locations.map(location),
    bookingFields: bookingForm(e.bookingFields, e.locations.length),
    disableGuests: false,
    minimumBookingNotice: e.minimumBookingNotice,
    ...slotSettingsAnswer(e),
    recurrence: null,
    metadata: {},
    price: 0,
    currency: 'usd',
    lockTimeZoneToggleOnBookingPage: false,
    forwardParamsSuccessRedirect: null,
    successRedirectUrl: null,
    isInstantEvent: false,
    scheduleId: null,
    hidden: e.hidden,
    bookingRequiresAuthentication: false,
    requiresConfirmation: e.requiresConfirmation,
    schedulingType: e.schedulingType,
    ownerId: e.ownerId,
    teamId: e.teamId,
    createdAt: iso(e.createdAt),
    updatedAt: iso(e.updatedAt),
  };
  if (e.teamId === null) {
    return {
      ...base,
      users: owner ? [{ id: owner.id, ...person(owner), weekStart: owner.weekStart }] : [],
      bookingUrl: `${appUrl}/${encodeURIComponent(owner?.username ?? e.ownerId!)}/${e.slug}`,
    };
  }
  return {
    ...base,
    parentEventTypeId: null,
    // Every member of the team hosts its event types (the booking picks among them).
    hosts: hosts.map((h) => ({ userId: h.userId, ...person({ name: h.name, username: h.username ?? '' }) })),
    assignAllTeamMembers: true,
    ...(team
      ? { team: { id: team.id, slug: team.slug, name: team.name, bannerUrl: null, logoUrl: null, weekStart: null, brandColor: team.brandColor || null, darkBrandColor: null, theme: null } }
      : {}),
  };
}
