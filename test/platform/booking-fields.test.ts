// docs/integrating.md#booking-fields over HTTP: Cal.com API v2's own requests, with their
// cal-api-version, set an event type's booking fields (personal, team and organization routes)
// and answer them when booking; the answers are validated against Cal.com's response schema
// when the reference is beside the project (test/helpers/calcom-reference.ts). The rules
// themselves are tested in process (test/services/platform/event-types.test.ts, bookings.test.ts).
import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { loadReference, referenceAvailable } from '../helpers/calcom-reference.ts';
import type { TestServer } from '../helpers/server.ts';
import { futureStart, mint, uniq, useWorld, type World } from './fixtures.ts';

const EVENT_TYPES_VERSION = { 'cal-api-version': '2024-06-14' };
const BOOKINGS_VERSION = { 'cal-api-version': '2024-08-13' };

/**
 * A booking field of each kind, as the examples of Cal.com's input variants write them
 * (CreateEventTypeInput_2024_06_14's bookingFields), each custom field under a slug of its own.
 */
const documentedFields = [
  { type: 'name', label: 'Your name', placeholder: 'John Doe' },
  { type: 'email', label: 'Your email', placeholder: 'john@example.com' },
  { slug: 'location', label: 'Where should we meet?' },
  { slug: 'notes', required: false, hidden: false, label: 'Anything we should know?', placeholder: 'Notes' },
  { type: 'phone', slug: 'attendeePhoneNumber', label: 'Phone', required: true, placeholder: '+1 415 555 0123', hidden: false },
  { type: 'address', slug: 'address-field', label: 'Please enter your address', required: false, placeholder: 'e.g., 1234 Main St', hidden: false },
  { type: 'text', slug: 'customField', label: 'Please enter your text', required: true, placeholder: 'e.g., Enter text here', hidden: false },
  { type: 'number', slug: 'number-field', label: 'Please enter a number', required: false, placeholder: 'e.g., 100', hidden: false },
  { type: 'textarea', slug: 'textarea-field', label: 'Please enter detailed information', required: false, placeholder: 'e.g., Detailed description here...', hidden: false },
  { type: 'select', slug: 'select-field', label: 'Please select an option', required: false, placeholder: 'Select...', options: ['Option 1', 'Option 2'], hidden: false },
  { type: 'multiselect', slug: 'multiselect-field', label: 'Please select multiple options', required: false, options: ['Option 1', 'Option 2'], hidden: false },
  { type: 'multiemail', slug: 'multiemail-field', label: 'Please enter multiple emails', required: false, placeholder: 'e.g., example@example.com', hidden: false },
  { type: 'checkbox', slug: 'checkbox-field', label: 'Select all that apply', required: false, options: ['Checkbox 1', 'Checkbox 2'], hidden: false },
  { type: 'radio', slug: 'radio-field', label: 'Select one option', required: false, options: ['Radio 1', 'Radio 2'], hidden: false },
  { type: 'boolean', slug: 'boolean-field', label: 'Agree to terms?', required: false, hidden: false },
  { type: 'url', slug: 'url-field', label: 'Please enter your text', required: false, placeholder: 'e.g., Enter url here', hidden: false },
];

/** Validates an answer against Cal.com's response schema of the operation (a scoped or a public one); a no-op without the reference. */
function conformsTo(method: string, path: string, status: number, body: unknown): void {
  if (!referenceAvailable) return;
  const reference = loadReference();
  const op = reference.operations.find((o) => o.method === method && o.path === path) ?? reference.publicOperation(method, path);
  expect(op, `${method} ${path} in Cal.com's description`).toBeDefined();
  expect(reference.checkResponse(op!, status, body), `${method} ${path} against Cal.com's schema`).toBeNull();
}

describe.each(backends)('booking fields on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  useWorld(name, available, (started) => ({ server, w } = started));

  const places = [
    { type: 'address', address: '1 Main St', public: true },
    { type: 'link', link: 'https://meet.example.com/intro', public: true },
  ];
  const eventTypeBody = (bookingFields: unknown[] = documentedFields) => ({ title: 'Intro', slug: `intro-${uniq().toLowerCase()}`, lengthInMinutes: 30, locations: places, bookingFields });
  const attendee = { name: 'Ann Attendee', email: 'ann@example.com', timeZone: 'Europe/Rome' };
  const bookingCount = async () => (await server.services.stores.bookings.count({ userId: w.owner.id }, {})) + (await server.services.stores.bookings.count({ teamId: w.team.id }, {}));

  it.skipIf(!available)("POST /v2/event-types with Cal.com's booking fields → 201, each field answered in Cal.com's shape between the default ones; GET reads the same", async () => {
    const token = await mint(server, w, w.owner, ['EVENT_TYPE_READ', 'EVENT_TYPE_WRITE']);
    const made = await server.api('POST', '/v2/event-types', token, eventTypeBody(), EVENT_TYPES_VERSION);
    expect(made.status).toBe(201);
    const fields = made.body.data.bookingFields;
    expect(fields.map((f: { slug: string }) => f.slug)).toEqual([
      'name', 'email', 'location',
      ...documentedFields.slice(4).map((f) => f.slug),
      'title', 'notes', 'guests', 'rescheduleReason',
    ]);
    expect(fields[0]).toEqual({ type: 'name', slug: 'name', label: 'Your name', placeholder: 'John Doe', required: true, hidden: false, isDefault: true });
    expect(fields[2]).toEqual({ type: 'radioInput', slug: 'location', label: 'Where should we meet?', required: false, hidden: false, isDefault: true });
    expect(fields.find((f: { slug: string }) => f.slug === 'select-field')).toEqual({ type: 'select', slug: 'select-field', label: 'Please select an option', placeholder: 'Select...', options: ['Option 1', 'Option 2'], required: false, hidden: false, isDefault: false });
    expect(fields.find((f: { slug: string }) => f.slug === 'boolean-field')).toEqual({ type: 'boolean', slug: 'boolean-field', label: 'Agree to terms?', required: false, hidden: false, isDefault: false });
    expect(fields.find((f: { slug: string }) => f.slug === 'notes')).toEqual({ type: 'textarea', slug: 'notes', label: 'Anything we should know?', placeholder: 'Notes', required: false, hidden: false, isDefault: true });
    conformsTo('POST', '/v2/event-types', 201, made.body);

    const read = await server.api('GET', `/v2/event-types/${made.body.data.id}`, token, undefined, EVENT_TYPES_VERSION);
    expect(read.body.data.bookingFields).toEqual(fields);
    conformsTo('GET', '/v2/event-types/{eventTypeId}', 200, read.body);
  });

  it.skipIf(!available)('a client that sends back the fields it read changes nothing; a change replaces them', async () => {
    const token = await mint(server, w, w.owner, ['EVENT_TYPE_READ', 'EVENT_TYPE_WRITE']);
    const made = await server.api('POST', '/v2/event-types', token, eventTypeBody(), EVENT_TYPES_VERSION);
    const path = `/v2/event-types/${made.body.data.id}`;
    const again = await server.api('PATCH', path, token, { bookingFields: made.body.data.bookingFields }, EVENT_TYPES_VERSION);
    expect(again.status).toBe(200);
    expect(again.body.data.bookingFields).toEqual(made.body.data.bookingFields);
    const one = await server.api('PATCH', path, token, { bookingFields: [{ type: 'text', slug: 'company', label: 'Company', required: true, placeholder: '', hidden: false }] }, EVENT_TYPES_VERSION);
    expect(one.status).toBe(200);
    expect(one.body.data.bookingFields.map((f: { slug: string }) => f.slug)).toEqual(['name', 'email', 'location', 'company', 'title', 'notes', 'guests', 'rescheduleReason']);
    conformsTo('PATCH', '/v2/event-types/{eventTypeId}', 200, one.body);
  });

  it.skipIf(!available)("a team's and an organization's team event types take them too, at the team's and the organization's addresses", async () => {
    const admin = await mint(server, w, w.teamAdmin, ['TEAM_EVENT_TYPE_READ', 'TEAM_EVENT_TYPE_WRITE']);
    const teamPath = `/v2/teams/${w.team.id}/event-types`;
    const made = await server.api('POST', teamPath, admin, { ...eventTypeBody(), schedulingType: 'collective' }, EVENT_TYPES_VERSION);
    expect(made.status).toBe(201);
    expect(made.body.data.bookingFields).toContainEqual(expect.objectContaining({ slug: 'customField', type: 'text', required: true, isDefault: false }));
    conformsTo('POST', '/v2/teams/{teamId}/event-types', 201, made.body);

    const orgPath = `/v2/organizations/${w.org.id}/teams/${w.team.id}/event-types`;
    const orgMade = await server.api('POST', orgPath, admin, { ...eventTypeBody(), schedulingType: 'roundRobin' }, EVENT_TYPES_VERSION);
    expect(orgMade.status).toBe(201);
    const changed = await server.api('PATCH', `${orgPath}/${orgMade.body.data.id}`, admin, { bookingFields: [{ type: 'checkbox', slug: 'needs', label: 'Needs', required: false, options: ['Projector'], hidden: false }] }, EVENT_TYPES_VERSION);
    expect(changed.status).toBe(200);
    expect(changed.body.data.bookingFields.filter((f: { isDefault: boolean }) => !f.isDefault)).toEqual([{ type: 'checkbox', slug: 'needs', label: 'Needs', options: ['Projector'], required: false, hidden: false, isDefault: false }]);
    conformsTo('PATCH', '/v2/organizations/{orgId}/teams/{teamId}/event-types/{eventTypeId}', 200, changed.body);
    const listed = await server.api('GET', `${teamPath}?limit=100`, admin, undefined, EVENT_TYPES_VERSION);
    conformsTo('GET', '/v2/teams/{teamId}/event-types', 200, listed.body);
  });

  it.skipIf(!available)('a field that is wrong is 400 naming it, on create and change, and nothing is made or changed', async () => {
    const token = await mint(server, w, w.owner, ['EVENT_TYPE_READ', 'EVENT_TYPE_WRITE']);
    const cases: Array<[unknown[], RegExp]> = [
      [[{ type: 'select', slug: 'pick', label: 'Pick', required: true, placeholder: '', hidden: false }], /^bookingFields\.0\.options: a select field needs its options/],
      [[{ type: 'date', slug: 'day', label: 'Day', required: true }], /^bookingFields\.0\.type: /],
      [[{ type: 'text', slug: 'has space', label: 'x', required: true }], /^bookingFields\.0\.slug: /],
      [[{ type: 'text', slug: 'a', label: 'A', required: true }, { type: 'number', slug: 'a', label: 'B', required: false }], /^bookingFields\.1\.slug: "a" is already the slug of bookingFields\.0/],
      [[{ type: 'email', label: 'Email', placeholder: '', required: false, hidden: true }], /^bookingFields\.0\.required: the booker's email is always asked/],
    ];
    const slugs = async () => (await server.services.stores.api.eventTypes.list({ userId: w.owner.id }, 1000, 0)).map((e) => e.slug);
    const existing = await server.api('POST', '/v2/event-types', token, eventTypeBody([]), EVENT_TYPES_VERSION);
    const before = await slugs();
    for (const [bookingFields, message] of cases) {
      const made = await server.api('POST', '/v2/event-types', token, eventTypeBody(bookingFields), EVENT_TYPES_VERSION);
      expect(made.status, JSON.stringify(bookingFields)).toBe(400);
      expect(made.body.error).toMatchObject({ code: 'validation_error', message: expect.stringMatching(message) });
      const changed = await server.api('PATCH', `/v2/event-types/${existing.body.data.id}`, token, { bookingFields }, EVENT_TYPES_VERSION);
      expect(changed.status, JSON.stringify(bookingFields)).toBe(400);
      expect(changed.body.error.message).toMatch(message);
    }
    // A change refuses a property no booking field has, as every PATCH refuses what it cannot change.
    const unknown = await server.api('PATCH', `/v2/event-types/${existing.body.data.id}`, token, { bookingFields: [{ type: 'text', slug: 'a', label: 'A', required: true, colour: 'red' }] }, EVENT_TYPES_VERSION);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/^bookingFields\.0.*colour/);
    expect(await slugs()).toEqual(before);
    expect((await server.services.stores.api.eventTypes.findOwned({ userId: w.owner.id }, String(existing.body.data.id)))!.bookingFields).toEqual([]);
  });

  it.skipIf(!available)("POST /v2/bookings with Cal.com's documented example (bookingFieldsResponses: {customField: 'customValue'}) → 201, the answers shown in the booking and kept", async () => {
    const token = await mint(server, w, w.owner, ['EVENT_TYPE_WRITE', 'BOOKING_READ']);
    const et = await server.api('POST', '/v2/event-types', token, eventTypeBody(), EVENT_TYPES_VERSION);
    const booked = await server.api('POST', '/v2/bookings', undefined, {
      start: new Date(futureStart(server)).toISOString(),
      eventTypeId: et.body.data.id,
      attendee,
      bookingFieldsResponses: { customField: 'customValue', attendeePhoneNumber: '+39 06 1234 5678', 'checkbox-field': ['Checkbox 2'], 'boolean-field': true, 'number-field': 3, notes: 'See you' },
    }, BOOKINGS_VERSION);
    expect(booked.status).toBe(201);
    const answers = { customField: 'customValue', attendeePhoneNumber: '+390612345678', 'checkbox-field': ['Checkbox 2'], 'boolean-field': true, 'number-field': 3 };
    expect(booked.body.data.bookingFieldsResponses).toEqual({ ...answers, name: 'Ann Attendee', email: 'ann@example.com', guests: [], notes: 'See you' });
    expect(booked.body.data.description).toBe('See you');
    expect((await server.services.stores.bookings.find(booked.body.data.uid))!.responses).toEqual(answers);
    conformsTo('POST', '/v2/bookings', 201, booked.body);

    const read = await server.api('GET', `/v2/bookings/${booked.body.data.uid}`, token, undefined, BOOKINGS_VERSION);
    expect(read.body.data.bookingFieldsResponses).toEqual(booked.body.data.bookingFieldsResponses);
    conformsTo('GET', '/v2/bookings/{bookingUid}', 200, read.body);
    const listed = await server.api('GET', '/v2/bookings?limit=100', token, undefined, BOOKINGS_VERSION);
    expect(listed.body.data.find((b: { uid: string }) => b.uid === booked.body.data.uid).bookingFieldsResponses).toEqual(booked.body.data.bookingFieldsResponses);
    conformsTo('GET', '/v2/bookings', 200, listed.body);
  });

  it.skipIf(!available)('POST /v2/bookings missing a required answer, answering with the wrong kind or naming a field the event type has not → 400 naming it, nothing booked', async () => {
    const token = await mint(server, w, w.owner, ['EVENT_TYPE_WRITE']);
    const et = await server.api('POST', '/v2/event-types', token, eventTypeBody(), EVENT_TYPES_VERSION);
    const bare = await server.api('POST', '/v2/event-types', token, eventTypeBody([]), EVENT_TYPES_VERSION);
    const required = { customField: 'customValue', attendeePhoneNumber: '+14155550123' };
    const cases: Array<[string, Record<string, unknown>, string | RegExp]> = [
      [et.body.data.id, { customField: 'customValue' }, 'bookingFieldsResponses.attendeePhoneNumber: is required by this event type ("Phone")'],
      [et.body.data.id, { ...required, 'number-field': 'many' }, 'bookingFieldsResponses.number-field: must be a number'],
      [et.body.data.id, { ...required, 'select-field': 'Option 3' }, 'bookingFieldsResponses.select-field: must be one of its options: "Option 1", "Option 2"'],
      [et.body.data.id, { ...required, 'url-field': 'not a url' }, 'bookingFieldsResponses.url-field: must be an http(s) URL'],
      [et.body.data.id, { ...required, company: 'Acme' }, /^bookingFieldsResponses\.company: this event type has no booking field "company"; its own are attendeePhoneNumber, address-field, customField/],
      [bare.body.data.id, { customField: 'customValue' }, 'bookingFieldsResponses.customField: this event type has no booking field "customField"; it has none of its own, beside notes and title'],
    ];
    const before = await bookingCount();
    for (const [eventTypeId, bookingFieldsResponses, message] of cases) {
      const res = await server.api('POST', '/v2/bookings', undefined, { start: new Date(futureStart(server)).toISOString(), eventTypeId, attendee, bookingFieldsResponses }, BOOKINGS_VERSION);
      expect(res.status, JSON.stringify(bookingFieldsResponses)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'validation_error', message: typeof message === 'string' ? message : expect.stringMatching(message) });
    }
    expect(await bookingCount()).toBe(before);
  });

  it.skipIf(!available)("a team books on an attendee's behalf with the same answers", async () => {
    const admin = await mint(server, w, w.teamAdmin, ['TEAM_EVENT_TYPE_WRITE', 'TEAM_BOOKING_WRITE']);
    const et = await server.api('POST', `/v2/teams/${w.team.id}/event-types`, admin, { ...eventTypeBody([{ type: 'radio', slug: 'size', label: 'Size', required: true, options: ['S', 'M'], hidden: false }]), schedulingType: 'collective' }, EVENT_TYPES_VERSION);
    const missing = await server.api('POST', `/v2/teams/${w.team.id}/bookings`, admin, { start: new Date(futureStart(server)).toISOString(), eventTypeId: et.body.data.id, attendee });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('bookingFieldsResponses.size: is required by this event type ("Size")');
    const booked = await server.api('POST', `/v2/teams/${w.team.id}/bookings`, admin, { start: new Date(futureStart(server)).toISOString(), eventTypeId: et.body.data.id, attendee, bookingFieldsResponses: { size: 'M' } });
    expect(booked.status).toBe(201);
    expect(booked.body.data.bookingFieldsResponses).toMatchObject({ size: 'M', name: 'Ann Attendee' });
  });
});
