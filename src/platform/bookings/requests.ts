// The two spellings of a booking's guests and location: Gatehouse's (an e-mail address, a line
// of text) and Cal.com API v2's (a guest object, a location object with a type). Both are read;
// the booking keeps one form, the one every answer shows (an address, a line of text).
import { invalid } from '../input.ts';
import { email, object, str, timeZone, type JsonSchema } from '../schemas.ts';

/** A guest: an e-mail address, or the platform's {email, name?, timeZone?, ...}. */
export type GuestInput = string | { email: string };

/**
 * One schema with a list of types, not anyOf (as routing-forms/routes.ts does): an error then
 * names what to fix (a missing email, a malformed address) rather than "must match a schema in
 * anyOf"; string keywords apply to a string, object keywords to an object.
 */
export const guestInput: JsonSchema = {
  ...object({ email, name: str(0, 100), timeZone, phoneNumber: str(0, 50), language: str(0, 10) }, ['email']),
  ...email,
  type: ['string', 'object'],
  description: "A guest's e-mail address, or a guest as Cal.com API v2 sends one ({email, name?, timeZone?, ...}); only the address is kept (a booking lists its guests by address)",
};

export const guestEmail = (guest: GuestInput): string => (typeof guest === 'string' ? guest : guest.email);

/** The platform's location object: its type, and the field that carries its value. */
export interface LocationObject {
  type: string;
  address?: string;
  location?: string;
  phone?: string;
  link?: string;
  integration?: string;
}
export type LocationInput = string | LocationObject;

/** The field of each type that holds the place itself. */
const VALUE_FIELD: Record<string, keyof LocationObject> = {
  address: 'address',
  attendeeAddress: 'address',
  attendeeDefined: 'location',
  attendeePhone: 'phone',
  phone: 'phone',
  link: 'link',
  integration: 'integration',
};
/** Types whose place the attendee names: the value is required. */
const ATTENDEE_TYPES = new Set(['attendeeAddress', 'attendeeDefined', 'attendeePhone']);
/** Organizer types an event type's location (src/platform/event-types) is stored as. */
const OFFERED_TYPE: Record<string, string> = { address: 'address', phone: 'phone', link: 'link', integration: 'integration', organizersDefaultApp: 'integration' };

/** Text, or the platform's object: one schema with a list of types, as guestInput. */
export const locationInput: JsonSchema = {
  ...object(
    {
      type: { type: 'string', enum: [...Object.keys(VALUE_FIELD), 'organizersDefaultApp'] },
      address: str(1, 500),
      location: str(1, 500),
      phone: str(1, 500),
      link: str(1, 500),
      integration: str(1, 100),
    },
    ['type'],
  ),
  ...str(1, 500),
  type: ['string', 'object'],
  description:
    "A line of text, or a location as Cal.com API v2 sends one ({type, address | location | phone | link | integration}), kept as its text. Without its value, an organizer's type (address, phone, link, integration, organizersDefaultApp) takes the event type's location of that type",
};

/**
 * The location's text. `offered` is the event type's locations when booking: an organizer's
 * type sent without its value takes the one offered. Changing a booking's location has no
 * event type to ask, so there every type needs its value. Gatehouse creates no meeting links
 * itself: an integration the event type does not offer is refused, never invented.
 */
export function locationText(input: LocationInput, field: string, offered?: ReadonlyArray<{ type?: string; value: string }>): string {
  if (typeof input === 'string') return input;
  const key = VALUE_FIELD[input.type];
  const given = key === undefined ? undefined : input[key];
  if (input.type !== 'integration' && given !== undefined) return given;
  const needsValue = ATTENDEE_TYPES.has(input.type) || (input.type === 'integration' && given === undefined) || (offered === undefined && key !== undefined && input.type !== 'integration');
  if (needsValue) throw invalid(`${field}.${key}`, `is required for a location of type ${input.type}`);
  if (offered === undefined) {
    throw invalid(`${field}.type`, `a location of type ${input.type} is chosen from the event type when booking; to change it, send the place itself (type address, link or phone with its value)`);
  }
  const kind = OFFERED_TYPE[input.type]!;
  const match = offered.find((l) => (l.type ?? 'address') === kind && (input.type !== 'integration' || l.value === given));
  if (match === undefined) {
    if (input.type === 'integration') {
      throw invalid(`${field}.integration`, `the event type offers no ${given} location, and Gatehouse makes no meeting links of its own: choose a location it offers, or send the place as text`);
    }
    throw invalid(`${field}.type`, `the event type offers no location of type ${input.type}: choose one it offers, or send the place as text`);
  }
  return match.value;
}
