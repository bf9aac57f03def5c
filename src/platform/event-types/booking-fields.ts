// docs/integrating.md#booking-fields: an event type's booking form, the questions a booker
// answers, in Cal.com API v2's terms. Every event type has the default fields; its owner sets
// their words and whether they are asked, and adds custom fields of the platform's kinds.
// The rules of setting them (service.ts) and of answering them (bookings/answers.ts) read the
// form made here, as the answers show it (view.ts).
import { invalid } from '../input.ts';
import type { BookingField } from './store.ts';

/** The kinds of custom field, Cal.com API v2's. */
export const CUSTOM_FIELD_TYPES = ['phone', 'address', 'text', 'number', 'textarea', 'select', 'multiselect', 'multiemail', 'checkbox', 'radio', 'boolean', 'url'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** The kinds whose answer is chosen among the field's options. */
export const WITH_OPTIONS: ReadonlySet<string> = new Set(['select', 'multiselect', 'checkbox', 'radio']);
/** The kinds the platform shows no placeholder for. */
const WITHOUT_PLACEHOLDER: ReadonlySet<string> = new Set(['multiselect', 'checkbox', 'radio', 'boolean']);

/**
 * The default fields as a new event type has them, as the platform words them. The title
 * ("what is this meeting about?") is hidden until its owner shows it; the reason for a
 * reschedule is asked when a booking is moved, not when it is made.
 */
const DEFAULT_FIELDS = {
  name: { slug: 'name', type: 'name', label: 'Your name', placeholder: '', required: true, hidden: false, isDefault: true },
  email: { slug: 'email', type: 'email', label: 'Email address', placeholder: '', required: true, hidden: false, isDefault: true },
  location: { slug: 'location', type: 'radioInput', label: 'Location', required: false, hidden: false, isDefault: true },
  title: { slug: 'title', type: 'text', label: 'What is this meeting about?', placeholder: '', required: false, hidden: true, isDefault: true },
  notes: { slug: 'notes', type: 'textarea', label: 'Additional notes', placeholder: '', required: false, hidden: false, isDefault: true },
  guests: { slug: 'guests', type: 'multiemail', label: 'Add guests', placeholder: '', required: false, hidden: false, isDefault: true },
  rescheduleReason: { slug: 'rescheduleReason', type: 'textarea', label: 'Reason for reschedule', placeholder: '', required: false, hidden: false, isDefault: true },
} satisfies Record<string, BookingField>;
export type DefaultFieldSlug = keyof typeof DEFAULT_FIELDS;

const isDefaultSlug = (slug: string): slug is DefaultFieldSlug => Object.hasOwn(DEFAULT_FIELDS, slug);

/** The platform's order: the booker and the place before the custom fields, the rest after. */
const BEFORE: DefaultFieldSlug[] = ['name', 'email', 'location'];
const AFTER: DefaultFieldSlug[] = ['title', 'notes', 'guests', 'rescheduleReason'];

/**
 * The form a booker fills: the default fields as set (or as they come), the custom fields
 * between them in their order. The location field only when there are two places or more to
 * choose from, as the platform lists it.
 */
export function bookingForm(set: readonly BookingField[], placeCount: number): BookingField[] {
  const defaults = new Map(set.filter((f) => f.isDefault).map((f) => [f.slug, f]));
  const at = (slug: DefaultFieldSlug): BookingField => defaults.get(slug) ?? DEFAULT_FIELDS[slug];
  return [...BEFORE.filter((slug) => slug !== 'location' || placeCount > 1).map(at), ...set.filter((f) => !f.isDefault), ...AFTER.map(at)];
}

/** A booking field as Cal.com's request writes it (its input variants, one object with every field optional). */
export interface BookingFieldInput {
  type?: string;
  slug?: string;
  label?: string;
  required?: boolean;
  placeholder?: string;
  options?: string[];
  hidden?: boolean;
  disableOnPrefill?: boolean;
  /** What the answers say of a field; a request may send it back, and it is decided by the slug. */
  isDefault?: boolean;
}

/**
 * The fields of a create or change, checked: each a default field's settings (known by its
 * type, name or email, or its slug) or a custom field with what its kind needs, no slug
 * twice. A change replaces the fields set before, as the platform's does.
 */
export function readBookingFields(input: readonly BookingFieldInput[]): BookingField[] {
  const seen = new Map<string, number>();
  return input.map((given, i) => {
    const field = readField(given, (property) => `bookingFields.${i}.${property}`);
    const earlier = seen.get(field.slug);
    if (earlier !== undefined) throw invalid(`bookingFields.${i}.slug`, `"${field.slug}" is already the slug of bookingFields.${earlier}; each field has its own`);
    seen.set(field.slug, i);
    return field;
  });
}

type At = (property: string) => string;

function readField(given: BookingFieldInput, at: At): BookingField {
  // The platform knows the booker's name and address by their type, the other default fields by their slug.
  const slug = given.type === 'name' || given.type === 'email' ? given.type : given.slug;
  if (slug !== undefined && isDefaultSlug(slug) && (slug === given.type || (slug !== 'name' && slug !== 'email'))) return readDefaultField(DEFAULT_FIELDS[slug], given, at);
  return readCustomField(given, at);
}

/** Settings of a default field: what the platform lets its owner change of it, each else refused naming it. */
function readDefaultField(standard: BookingField, given: BookingFieldInput, at: At): BookingField {
  const { slug } = standard;
  if (given.slug !== undefined && given.slug !== slug) throw invalid(at('slug'), `the ${slug} field's slug is ${slug}`);
  if (given.type !== undefined && given.type !== standard.type) throw invalid(at('type'), `the ${slug} field is of type ${standard.type}`);
  if (given.options !== undefined) throw invalid(at('options'), `the ${slug} field has no options`);
  if (slug === 'location') {
    // Which places it offers are the event type's locations; only its words are the field's.
    for (const property of ['required', 'hidden', 'placeholder', 'disableOnPrefill'] as const) {
      if (given[property] !== undefined && given[property] !== standard[property]) throw invalid(at(property), 'the location field takes only its label: the places it offers are the event type\'s locations');
    }
  }
  if (slug === 'name' || slug === 'email') {
    // docs/integrating.md#booking-fields: Gatehouse books for a named person at an e-mail address.
    if (given.required === false) throw invalid(at('required'), `the booker's ${slug} is always asked`);
    if (given.hidden === true) throw invalid(at('hidden'), `the booker's ${slug} is always asked`);
  }
  return {
    ...standard,
    ...(given.label !== undefined ? { label: given.label } : {}),
    ...(given.placeholder !== undefined ? { placeholder: given.placeholder } : {}),
    ...(given.required !== undefined ? { required: given.required } : {}),
    ...(given.hidden !== undefined ? { hidden: given.hidden } : {}),
    ...(given.disableOnPrefill !== undefined ? { disableOnPrefill: given.disableOnPrefill } : {}),
  };
}

function readCustomField(given: BookingFieldInput, at: At): BookingField {
  const { type, slug, label, required } = given;
  if (type === undefined) throw invalid(at('type'), `is required: one of ${CUSTOM_FIELD_TYPES.join(', ')}, or a default field (type name or email, or slug ${[...BEFORE, ...AFTER].filter((s) => s !== 'name' && s !== 'email').join(', ')})`);
  if (!(CUSTOM_FIELD_TYPES as readonly string[]).includes(type)) throw invalid(at('type'), `a custom field is one of ${CUSTOM_FIELD_TYPES.join(', ')}`);
  if (slug === undefined) throw invalid(at('slug'), 'is required: the key of the answer to this field when booking');
  if (slug === 'name' || slug === 'email') throw invalid(at('slug'), `"${slug}" is the booker's ${slug} field's; give this field another`);
  if (label === undefined || label.trim() === '') throw invalid(at('label'), 'is required: the question the booker sees');
  if (required === undefined) throw invalid(at('required'), 'is required: whether the booker must answer');
  const options = readOptions(type, given.options, at);
  if (given.placeholder !== undefined && WITHOUT_PLACEHOLDER.has(type)) throw invalid(at('placeholder'), `a ${type} field shows no placeholder`);
  return {
    slug,
    type,
    label,
    required,
    hidden: given.hidden ?? false,
    ...(WITHOUT_PLACEHOLDER.has(type) ? {} : { placeholder: given.placeholder ?? '' }),
    ...(options !== undefined ? { options } : {}),
    ...(given.disableOnPrefill !== undefined ? { disableOnPrefill: given.disableOnPrefill } : {}),
    isDefault: false,
  };
}

function readOptions(type: string, options: string[] | undefined, at: At): string[] | undefined {
  if (!WITH_OPTIONS.has(type)) {
    if (options !== undefined) throw invalid(at('options'), `a ${type} field has no options; only ${[...WITH_OPTIONS].join(', ')} fields do`);
    return undefined;
  }
  if (options === undefined || options.length === 0) throw invalid(at('options'), `a ${type} field needs its options, the choices the booker picks from`);
  const twice = options.findIndex((o, j) => options.indexOf(o) !== j);
  if (twice !== -1) throw invalid(at(`options.${twice}`), `"${options[twice]}" is already an option`);
  return options;
}
