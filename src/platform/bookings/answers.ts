// docs/integrating.md#booking-fields: a booking's answers to its event type's booking form,
// checked against it: bookingFieldsResponses keyed by the fields' slugs, each answer of its
// field's kind, every field the form requires answered. The booker, the guests and the place
// have fields of their own in the request, so their slugs point there.
import type { DefaultFieldSlug } from '../event-types/booking-fields.ts';
import type { BookingField } from '../event-types/store.ts';
import { invalid } from '../input.ts';
import type { FieldAnswer } from './store.ts';

/** What a booking answered: the custom fields' and the title's answers by slug, and the notes. */
export interface ReadAnswers {
  responses: Record<string, FieldAnswer>;
  notes?: string;
}

/** Where the request carries what a default field asks, when not among bookingFieldsResponses. */
const ELSEWHERE: Partial<Record<DefaultFieldSlug, string>> = {
  name: "give the booker's name as attendee.name",
  email: "give the booker's address as attendee.email",
  guests: 'give the guests as guests',
  location: 'give the place as location',
  rescheduleReason: 'is asked when the booking is rescheduled: send it as reschedulingReason then',
};

const LONGEST_TEXT = 5000;

/**
 * The answers of a new booking to the form (event-types/booking-fields.ts: bookingForm).
 * `notes` is the request's own notes, which win over bookingFieldsResponses.notes; `guests`
 * its guests, which a form requiring them must have.
 */
export function readAnswers(form: readonly BookingField[], given: Record<string, unknown>, request: { notes?: string; guests: readonly string[] }): ReadAnswers {
  const fields = new Map(form.map((f) => [f.slug, f]));
  const responses: Record<string, FieldAnswer> = {};
  let notes = request.notes;
  for (const slug of Object.keys(given)) {
    const at = `bookingFieldsResponses.${slug}`;
    const field = fields.get(slug);
    // A custom field never takes these slugs (event-types/booking-fields.ts).
    if (Object.hasOwn(ELSEWHERE, slug)) throw invalid(at, ELSEWHERE[slug as DefaultFieldSlug]!);
    if (field === undefined) {
      const custom = form.filter((f) => !f.isDefault).map((f) => f.slug);
      throw invalid(at, `this event type has no booking field "${slug}"; ${custom.length ? `its own are ${custom.join(', ')}` : 'it has none of its own'}, beside notes and title`);
    }
    const answer = answerOf(field, given[slug], at);
    if (answer === undefined) continue;
    if (slug === 'notes') notes ??= answer as string;
    else responses[slug] = answer;
  }
  for (const field of form) {
    // A hidden field is not shown to the booker, so it cannot be required of them.
    if (!field.required || field.hidden) continue;
    const answered = field.slug === 'notes' ? notes !== undefined && notes.trim() !== '' : field.slug === 'guests' ? request.guests.length > 0 : Object.hasOwn(ELSEWHERE, field.slug) || Object.hasOwn(responses, field.slug);
    if (!answered) throw invalid(field.slug === 'guests' ? 'guests' : `bookingFieldsResponses.${field.slug}`, `is required by this event type ("${field.label}")`);
    // A yes-or-no field that is required is one the booker must agree to.
    if (field.type === 'boolean' && responses[field.slug] !== true) throw invalid(`bookingFieldsResponses.${field.slug}`, `must be true: this event type requires it ("${field.label}")`);
  }
  return { responses, ...(notes !== undefined ? { notes } : {}) };
}

const PHONE = /^\+[1-9][0-9]{6,14}$/;
// As ajv-formats' "email" reads an address, which the request's own addresses pass.
const EMAIL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

/** An empty answer (null, '', []) is no answer. */
function isEmpty(value: unknown): boolean {
  return value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);
}

/** The answer to one field, as its kind takes it; undefined when it is empty. */
function answerOf(field: BookingField, value: unknown, at: string): FieldAnswer | undefined {
  if (isEmpty(value)) return undefined;
  switch (field.type) {
    case 'text':
    case 'textarea':
    case 'address':
      return text(value, at);
    case 'phone': {
      // Written as people write numbers, kept as E.164 (the international form).
      const compact = text(value, at).replace(/[\s().-]/g, '');
      if (!PHONE.test(compact)) throw invalid(at, 'must be a phone number in international form, such as +14155550123');
      return compact;
    }
    case 'url': {
      const url = URL.parse(text(value, at));
      if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw invalid(at, 'must be an http(s) URL');
      return url.href;
    }
    case 'number': {
      const number = typeof value === 'string' && /^-?[0-9]+(\.[0-9]+)?$/.test(value.trim()) ? Number(value) : value;
      if (typeof number !== 'number' || !Number.isFinite(number)) throw invalid(at, 'must be a number');
      return number;
    }
    case 'boolean':
      if (typeof value !== 'boolean') throw invalid(at, 'must be true or false');
      return value;
    case 'select':
    case 'radio': {
      const choice = text(value, at);
      if (!field.options!.includes(choice)) throw invalid(at, `must be one of its options: ${quoted(field.options!)}`);
      return choice;
    }
    case 'multiselect':
    case 'checkbox':
      return list(value, at, (item, itemAt) => {
        if (typeof item !== 'string' || !field.options!.includes(item)) throw invalid(itemAt, `must be one of its options: ${quoted(field.options!)}`);
        return item;
      });
    case 'multiemail':
      return list(value, at, (item, itemAt) => {
        if (typeof item !== 'string' || item.length > 254 || !EMAIL.test(item)) throw invalid(itemAt, 'must be an e-mail address');
        return item.toLowerCase();
      });
    default:
      // No other kind is set (event-types/booking-fields.ts); text is what any other would take.
      return text(value, at);
  }
}

function text(value: unknown, at: string): string {
  if (typeof value !== 'string') throw invalid(at, 'must be text');
  if (value.length > LONGEST_TEXT) throw invalid(at, `must be at most ${LONGEST_TEXT} characters`);
  return value;
}

/** Several answers: each checked, each once, in the order given. */
function list(value: unknown, at: string, item: (value: unknown, at: string) => string): string[] {
  if (!Array.isArray(value)) throw invalid(at, 'must be a list');
  if (value.length > 100) throw invalid(at, 'must have at most 100 items');
  return [...new Set(value.map((v, i) => item(v, `${at}.${i}`)))];
}

const quoted = (options: readonly string[]) => options.map((o) => `"${o}"`).join(', ');
