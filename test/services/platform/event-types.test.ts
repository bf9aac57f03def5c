// The event types service's rules (src/platform/event-types/service.ts), called in process:
// what only HTTP shows (the answer's shape) is tested in test/platform/event-types.test.ts, the
// scopes of every route in test/platform/platform-access.test.ts and team-access.test.ts.
import { describe, expect } from 'vitest';
import { book } from '../../../src/platform/bookings/service.ts';
import {
  createEventType,
  createPrivateLink,
  deleteEventType,
  deletePrivateLink,
  findEventType,
  getEventType,
  listEventTypes,
  listOrganizationTeamEventTypes,
  listPrivateLinks,
  updateEventType,
  updatePrivateLink,
  type BookingFieldInput,
} from '../../../src/platform/event-types/service.ts';
import { bookingForm } from '../../../src/platform/event-types/booking-fields.ts';
import { it, workday } from './world.ts';

const HOUR = 3_600_000;
const intro = { title: ' Intro call ', slug: 'intro', lengthInMinutes: 30 };

describe('event types', () => {
  it("a new event type takes the defaults, a trimmed title and the platform's places as values; a team's is collective", async ({ world }) => {
    const userId = await world.user({ name: 'Ada' });
    const mine = await createEventType(world.ctx, { userId }, { ...intro, locations: [{ type: 'address', address: '1 Main St' }, { type: 'link', value: 'https://meet.example.com/ada' }] });
    expect(mine.eventType).toMatchObject({ ownerId: userId, teamId: null, title: 'Intro call', slug: 'intro', lengthMinutes: 30, hidden: false, schedulingType: null, createdAt: world.now(), updatedAt: world.now() });
    expect(mine.eventType.locations).toEqual([{ type: 'address', value: '1 Main St' }, { type: 'link', value: 'https://meet.example.com/ada' }]);
    expect(mine.owner).toMatchObject({ id: userId, name: 'Ada', username: `user-${userId}` });
    expect(mine.hosts).toEqual([]);

    const teamId = await world.team(userId);
    const ours = await createEventType(world.ctx, { teamId }, intro);
    expect(ours.eventType).toMatchObject({ ownerId: null, teamId, schedulingType: 'collective' });
    expect((await findEventType(world.ctx, { teamId }, ours.eventType.id)).title).toBe('Intro call');
  });

  it("a team event type comes with its team and every member as a host, each with their username", async ({ world }) => {
    const owner = await world.user({ name: 'Olga' });
    const member = await world.user({ name: 'Max' });
    const teamId = await world.team(owner, { name: 'Support' });
    await world.join({ teamId }, member);
    const { eventType } = await createEventType(world.ctx, { teamId }, intro);
    const got = await getEventType(world.ctx, { teamId }, eventType.id);
    expect(got.team).toMatchObject({ id: teamId, name: 'Support' });
    expect(got.owner).toBeUndefined();
    expect(got.hosts).toEqual([
      { userId: owner, name: 'Olga', username: `user-${owner}` },
      { userId: member, name: 'Max', username: `user-${member}` },
    ]);
  });

  it('a slug is the owner\'s once: a second one conflicts naming it, on create and on change; another owner may use it', async ({ world }) => {
    const alice = await world.user();
    const bob = await world.user();
    await createEventType(world.ctx, { userId: alice }, intro);
    await expect(createEventType(world.ctx, { userId: alice }, { ...intro, title: 'Again' })).rejects.toMatchObject({ kind: 'conflict', message: 'slug: an event type with slug "intro" already exists here' });
    const other = await createEventType(world.ctx, { userId: alice }, { ...intro, slug: 'other' });
    await expect(updateEventType(world.ctx, { userId: alice }, other.eventType.id, { slug: 'intro', title: 'Renamed' })).rejects.toMatchObject({ kind: 'conflict' });
    expect((await findEventType(world.ctx, { userId: alice }, other.eventType.id)).title).toBe('Intro call');
    expect((await createEventType(world.ctx, { userId: bob }, intro)).eventType.slug).toBe('intro');
    expect((await listEventTypes(world.ctx, { userId: alice }, 10, 0)).map((d) => d.eventType.slug)).toEqual(['intro', 'other']);
  });

  it('a place without its value, or a link that is no http(s) URL, is refused naming the field', async ({ world }) => {
    const userId = await world.user();
    await expect(createEventType(world.ctx, { userId }, { ...intro, locations: [{ type: 'phone', public: true }] })).rejects.toMatchObject({
      kind: 'validation',
      message: 'locations.0.phone: a phone location needs its phone (or value)',
    });
    const { eventType } = await createEventType(world.ctx, { userId }, intro);
    // The refusal used up no number of the series: the first event type kept is number 1.
    expect(eventType.id).toBe('1');
    await expect(updateEventType(world.ctx, { userId }, eventType.id, { locations: [{ type: 'address', value: 'here' }, { type: 'link', link: 'javascript:alert(1)' }] })).rejects.toMatchObject({
      message: 'locations.1.value: a link location must be an http(s) URL',
    });
    expect((await findEventType(world.ctx, { userId }, eventType.id)).locations).toEqual([]);
  });

  it("another owner's event type is as absent as a missing one, for read, change, delete and its links", async ({ world }) => {
    const alice = await world.user();
    const bob = await world.user();
    const teamId = await world.team(alice);
    const hers = (await createEventType(world.ctx, { userId: alice }, intro)).eventType;
    const team = (await createEventType(world.ctx, { teamId }, intro)).eventType;
    for (const attempt of [
      getEventType(world.ctx, { userId: bob }, hers.id),
      updateEventType(world.ctx, { userId: bob }, hers.id, { title: 'Mine now' }),
      deleteEventType(world.ctx, { userId: bob }, hers.id),
      listPrivateLinks(world.ctx, { userId: bob }, hers.id),
      createPrivateLink(world.ctx, { userId: bob }, hers.id, {}),
      // A team's event type is not its owner's personal one.
      getEventType(world.ctx, { userId: alice }, team.id),
      findEventType(world.ctx, { userId: alice }, '999999'),
    ]) {
      await expect(attempt).rejects.toMatchObject({ kind: 'not_found', message: 'no such event type' });
    }
    expect((await findEventType(world.ctx, { userId: alice }, hers.id)).title).toBe('Intro call');
    expect(await listPrivateLinks(world.ctx, { userId: alice }, hers.id)).toEqual([]);
  });

  it("an organization reaches its teams' and its members' event types, and nobody else's", async ({ world }) => {
    const owner = await world.user();
    const member = await world.user();
    const outsider = await world.user();
    const organizationId = await world.organization(owner);
    await world.join({ organizationId }, member);
    const teamId = await world.team(owner, { organizationId });
    const teams = (await createEventType(world.ctx, { teamId }, intro)).eventType;
    const members = (await createEventType(world.ctx, { userId: member }, intro)).eventType;
    const outsiders = (await createEventType(world.ctx, { userId: outsider }, intro)).eventType;
    const scope = { organizationId };
    expect((await listEventTypes(world.ctx, scope, 10, 0)).map((d) => d.eventType.id).sort()).toEqual([teams.id, members.id].sort());
    expect((await listOrganizationTeamEventTypes(world.ctx, organizationId, 10, 0)).map((d) => d.eventType.id)).toEqual([teams.id]);
    await expect(updateEventType(world.ctx, scope, outsiders.id, { title: 'Taken' })).rejects.toMatchObject({ kind: 'not_found', message: 'no such event type in this organization' });
    await expect(deleteEventType(world.ctx, scope, outsiders.id)).rejects.toMatchObject({ kind: 'not_found' });
    expect((await findEventType(world.ctx, { userId: outsider }, outsiders.id)).title).toBe('Intro call');
  });

  it("how a team picks its host is the team's only: an organization cannot give one to a member's event type", async ({ world }) => {
    const owner = await world.user();
    const organizationId = await world.organization(owner);
    const teamId = await world.team(owner, { organizationId });
    const personal = (await createEventType(world.ctx, { userId: owner }, intro)).eventType;
    const team = (await createEventType(world.ctx, { teamId }, intro)).eventType;
    await expect(updateEventType(world.ctx, { organizationId }, personal.id, { schedulingType: 'roundRobin' })).rejects.toMatchObject({
      kind: 'validation',
      message: 'schedulingType: applies to team event types only',
    });
    expect((await findEventType(world.ctx, { userId: owner }, personal.id)).schedulingType).toBeNull();
    world.advance(60_000);
    const changed = await updateEventType(world.ctx, { organizationId }, team.id, { schedulingType: 'roundRobin' });
    expect(changed.eventType).toMatchObject({ schedulingType: 'roundRobin', updatedAt: world.now(), createdAt: world.now() - 60_000 });
  });

  it('a delete answers what the event type was, and its links go with it', async ({ world }) => {
    const userId = await world.user();
    const { eventType } = await createEventType(world.ctx, { userId }, { ...intro, hidden: true });
    await createPrivateLink(world.ctx, { userId }, eventType.id, {});
    expect(await deleteEventType(world.ctx, { userId }, eventType.id)).toMatchObject({ id: eventType.id, slug: 'intro', title: 'Intro call' });
    expect(await listEventTypes(world.ctx, { userId }, 10, 0)).toEqual([]);
    expect(await world.ctx.stores.api.eventTypes.listPrivateLinks(eventType.id)).toEqual([]);
  });
});

describe('private links', () => {
  it('a link made with neither an expiry nor a number of uses is good for one booking, then expired', async ({ world }) => {
    const userId = await world.user();
    const { eventType } = await createEventType(world.ctx, { userId }, { ...intro, hidden: true });
    const link = await createPrivateLink(world.ctx, { userId }, eventType.id, {});
    expect(link).toMatchObject({ eventTypeId: eventType.id, expiresAt: null, maxUses: 1, useCount: 0, isExpired: false, createdAt: world.now() });
    expect(link.hash).not.toBe(link.id);

    await book(world.ctx, { eventTypeId: eventType.id, start: workday(world), attendee: { name: 'Guest', email: 'guest@example.com', timeZone: 'UTC' }, privateLink: link.hash });
    expect(await listPrivateLinks(world.ctx, { userId }, eventType.id)).toEqual([{ ...link, useCount: 1, isExpired: true }]);
  });

  it('a link with an expiry is expired once the clock passes it; an expiry must be in the future', async ({ world }) => {
    const userId = await world.user();
    const { eventType } = await createEventType(world.ctx, { userId }, intro);
    await expect(createPrivateLink(world.ctx, { userId }, eventType.id, { expiresAt: new Date(world.now()).toISOString() })).rejects.toMatchObject({
      kind: 'validation',
      message: 'expiresAt: must be in the future',
    });
    const link = await createPrivateLink(world.ctx, { userId }, eventType.id, { expiresAt: new Date(world.now() + HOUR).toISOString() });
    expect(link).toMatchObject({ expiresAt: world.now() + HOUR, maxUses: null, isExpired: false });
    world.advance(HOUR);
    expect((await listPrivateLinks(world.ctx, { userId }, eventType.id))[0]!.isExpired).toBe(true);

    const moved = await updatePrivateLink(world.ctx, { userId }, eventType.id, link.id, { expiresAt: new Date(world.now() + HOUR).toISOString(), maxUsageCount: 5 });
    expect(moved).toMatchObject({ expiresAt: world.now() + HOUR, maxUses: 5, isExpired: false });
    await expect(updatePrivateLink(world.ctx, { userId }, eventType.id, link.id, { expiresAt: new Date(world.now() - 1).toISOString() })).rejects.toMatchObject({ message: 'expiresAt: must be in the future' });
    expect((await listPrivateLinks(world.ctx, { userId }, eventType.id))[0]).toMatchObject({ expiresAt: world.now() + HOUR, maxUses: 5 });
    // Cal.com API v2 sends no field at all on some routes: nothing changes, the link is answered as it is.
    expect(await updatePrivateLink(world.ctx, { userId }, eventType.id, link.id, {})).toMatchObject({ id: link.id, expiresAt: world.now() + HOUR, maxUses: 5, isExpired: false });
  });

  it("a link is its event type's: another event type's link is absent, for change and delete", async ({ world }) => {
    const userId = await world.user();
    const teamId = await world.team(userId);
    const first = (await createEventType(world.ctx, { userId }, intro)).eventType;
    const second = (await createEventType(world.ctx, { userId }, { ...intro, slug: 'second' })).eventType;
    const teams = (await createEventType(world.ctx, { teamId }, intro)).eventType;
    const link = await createPrivateLink(world.ctx, { userId }, first.id, { maxUsageCount: 3 });
    const teamLink = await createPrivateLink(world.ctx, { teamId }, teams.id, {});
    await expect(updatePrivateLink(world.ctx, { userId }, second.id, link.id, { maxUsageCount: 9 })).rejects.toMatchObject({ kind: 'not_found', message: 'no such private link' });
    await expect(deletePrivateLink(world.ctx, { userId }, second.id, link.id)).rejects.toMatchObject({ kind: 'not_found', message: 'no such private link' });
    await expect(deletePrivateLink(world.ctx, { userId }, teams.id, teamLink.id)).rejects.toMatchObject({ kind: 'not_found', message: 'no such event type' });
    expect((await listPrivateLinks(world.ctx, { userId }, first.id)).map((l) => l.maxUses)).toEqual([3]);

    expect(await deletePrivateLink(world.ctx, { userId }, first.id, link.id)).toBe(link.id);
    expect(await listPrivateLinks(world.ctx, { userId }, first.id)).toEqual([]);
    expect((await listPrivateLinks(world.ctx, { teamId }, teams.id)).map((l) => l.id)).toEqual([teamLink.id]);
  });
});

// docs/integrating.md#booking-fields: the questions a booker answers, set in Cal.com API v2's words.
describe('booking fields', () => {
  /** A custom field of every kind, as Cal.com's request examples write them. */
  const customFields: BookingFieldInput[] = [
    { type: 'phone', slug: 'phone-field', label: 'Your phone', required: true, placeholder: '+1 415 555 0123', hidden: false },
    { type: 'address', slug: 'address-field', label: 'Please enter your address', required: false, placeholder: 'e.g., 1234 Main St', hidden: false },
    { type: 'text', slug: 'company', label: 'Please enter your text', required: true, placeholder: 'e.g., Enter text here', hidden: false },
    { type: 'number', slug: 'seats', label: 'Please enter a number', required: false, placeholder: 'e.g., 100', hidden: false },
    { type: 'textarea', slug: 'agenda', label: 'Please enter detailed information', required: false, placeholder: 'e.g., Detailed description here...', hidden: false },
    { type: 'select', slug: 'language', label: 'Please select an option', required: true, placeholder: 'Select...', options: ['Option 1', 'Option 2'], hidden: false },
    { type: 'multiselect', slug: 'topics', label: 'Please select multiple options', required: false, options: ['Option 1', 'Option 2'], hidden: false },
    { type: 'multiemail', slug: 'cc', label: 'Please enter multiple emails', required: false, placeholder: 'e.g., example@example.com', hidden: false },
    { type: 'checkbox', slug: 'needs', label: 'Select all that apply', required: false, options: ['Checkbox 1', 'Checkbox 2'], hidden: false },
    { type: 'radio', slug: 'size', label: 'Select one option', required: false, options: ['Radio 1', 'Radio 2'], hidden: false },
    { type: 'boolean', slug: 'terms', label: 'Agree to terms?', required: true, hidden: false },
    { type: 'url', slug: 'site', label: 'Please enter your text', required: false, placeholder: 'e.g., Enter url here', hidden: true, disableOnPrefill: true },
  ];

  it('an event type without fields of its own asks the default fields, the place only when it offers two or more', async ({ world }) => {
    const userId = await world.user();
    const { eventType } = await createEventType(world.ctx, { userId }, intro);
    expect(eventType.bookingFields).toEqual([]);
    const form = bookingForm(eventType.bookingFields, 1);
    expect(form.map((f) => [f.slug, f.type, f.required, f.hidden])).toEqual([
      ['name', 'name', true, false],
      ['email', 'email', true, false],
      ['title', 'text', false, true],
      ['notes', 'textarea', false, false],
      ['guests', 'multiemail', false, false],
      ['rescheduleReason', 'textarea', false, false],
    ]);
    expect(form.every((f) => f.isDefault)).toBe(true);
    expect(bookingForm(eventType.bookingFields, 2).map((f) => f.slug)).toEqual(['name', 'email', 'location', 'title', 'notes', 'guests', 'rescheduleReason']);
  });

  it('custom fields of every kind are kept as set, between the booker and the notes; default fields take their new words', async ({ world }) => {
    const userId = await world.user();
    const { eventType } = await createEventType(world.ctx, { userId }, {
      ...intro,
      bookingFields: [{ type: 'name', label: 'Full name', placeholder: 'Ada Lovelace' }, { slug: 'notes', required: true, label: 'What should we prepare?' }, ...customFields],
    });
    const stored = (await findEventType(world.ctx, { userId }, eventType.id)).bookingFields;
    expect(stored).toEqual(eventType.bookingFields);
    expect(stored[0]).toEqual({ slug: 'name', type: 'name', label: 'Full name', placeholder: 'Ada Lovelace', required: true, hidden: false, isDefault: true });
    expect(stored[1]).toEqual({ slug: 'notes', type: 'textarea', label: 'What should we prepare?', placeholder: '', required: true, hidden: false, isDefault: true });
    // Each kind keeps what it has: options for the choices, a placeholder for the rest but the yes-or-no and the choice lists.
    expect(stored.slice(2)).toEqual(customFields.map((f) => ({ ...f, isDefault: false })));
    expect(bookingForm(stored, 0).map((f) => f.slug)).toEqual(['name', 'email', ...customFields.map((f) => f.slug), 'title', 'notes', 'guests', 'rescheduleReason']);
  });

  it("a change replaces the fields, on a member's, a team's and an organization's event type; the fields a custom field leaves out take their defaults", async ({ world }) => {
    const owner = await world.user();
    const orgId = await world.organization(owner);
    const teamId = await world.team(owner, { organizationId: orgId });
    const ours = (await createEventType(world.ctx, { teamId }, { ...intro, bookingFields: customFields })).eventType;
    const changed = await updateEventType(world.ctx, { teamId }, ours.id, { bookingFields: [{ type: 'text', slug: 'company', label: 'Company', required: false }] });
    expect(changed.eventType.bookingFields).toEqual([{ type: 'text', slug: 'company', label: 'Company', required: false, hidden: false, placeholder: '', isDefault: false }]);
    const byOrganization = await updateEventType(world.ctx, { organizationId: orgId }, ours.id, { bookingFields: [{ type: 'boolean', slug: 'terms', label: 'Agree?', required: true }] });
    expect(byOrganization.eventType.bookingFields).toEqual([{ type: 'boolean', slug: 'terms', label: 'Agree?', required: true, hidden: false, isDefault: false }]);
    const cleared = await updateEventType(world.ctx, { teamId }, ours.id, { bookingFields: [] });
    expect((await findEventType(world.ctx, { teamId }, cleared.eventType.id)).bookingFields).toEqual([]);
  });

  it.for([
    ['a choice field without its options', { type: 'select', slug: 'pick', label: 'Pick', required: true }, 'bookingFields.0.options: a select field needs its options, the choices the booker picks from'],
    ['options on a field that has none', { type: 'text', slug: 'company', label: 'Company', required: true, options: ['a'] }, 'bookingFields.0.options: a text field has no options; only select, multiselect, checkbox, radio fields do'],
    ['an option twice', { type: 'radio', slug: 'size', label: 'Size', required: true, options: ['S', 'M', 'S'] }, 'bookingFields.0.options.2: "S" is already an option'],
    ['a placeholder on a yes-or-no field', { type: 'boolean', slug: 'terms', label: 'Agree?', required: true, placeholder: 'x' }, 'bookingFields.0.placeholder: a boolean field shows no placeholder'],
    ['a custom field without its type', { slug: 'company', label: 'Company', required: true }, /^bookingFields\.0\.type: is required: one of phone, address, /],
    ['a type the platform has not', { type: 'date', slug: 'day', label: 'Day', required: true }, /^bookingFields\.0\.type: a custom field is one of phone, /],
    ['a custom field without its slug', { type: 'text', label: 'Company', required: true }, 'bookingFields.0.slug: is required: the key of the answer to this field when booking'],
    ['a custom field without a label', { type: 'text', slug: 'company', label: '  ', required: true }, 'bookingFields.0.label: is required: the question the booker sees'],
    ['a custom field that does not say whether it is required', { type: 'text', slug: 'company', label: 'Company' }, 'bookingFields.0.required: is required: whether the booker must answer'],
    ["a custom field under the booker's name's slug", { type: 'text', slug: 'name', label: 'Name', required: true }, `bookingFields.0.slug: "name" is the booker's name field's; give this field another`],
    ['an e-mail field that is not required', { type: 'email', label: 'Email', placeholder: '', required: false }, "bookingFields.0.required: the booker's email is always asked"],
    ['a hidden name field', { type: 'name', label: 'Name', placeholder: '', hidden: true } as BookingFieldInput, "bookingFields.0.hidden: the booker's name is always asked"],
    ['a required location field', { slug: 'location', label: 'Where', required: true }, "bookingFields.0.required: the location field takes only its label: the places it offers are the event type's locations"],
    ['a default field of another type', { slug: 'notes', type: 'text' }, 'bookingFields.0.type: the notes field is of type textarea'],
  ] as [string, BookingFieldInput, string | RegExp][])('%s is refused naming the field, and the event type keeps its fields', async ([, field, message], { world }) => {
    const userId = await world.user();
    await expect(createEventType(world.ctx, { userId }, { ...intro, bookingFields: [field] })).rejects.toMatchObject({ kind: 'validation', message });
    const { eventType } = await createEventType(world.ctx, { userId }, { ...intro, bookingFields: customFields.slice(0, 1) });
    await expect(updateEventType(world.ctx, { userId }, eventType.id, { bookingFields: [field] })).rejects.toMatchObject({ kind: 'validation', message });
    expect((await findEventType(world.ctx, { userId }, eventType.id)).bookingFields).toEqual([{ ...customFields[0], isDefault: false }]);
  });

  it('a slug is one field\'s: a second field under it is refused naming both', async ({ world }) => {
    const userId = await world.user();
    const twice: BookingFieldInput[] = [customFields[2]!, { type: 'textarea', slug: 'company', label: 'Again', required: false }];
    await expect(createEventType(world.ctx, { userId }, { ...intro, bookingFields: twice })).rejects.toMatchObject({ message: 'bookingFields.1.slug: "company" is already the slug of bookingFields.0; each field has its own' });
    await expect(createEventType(world.ctx, { userId }, { ...intro, bookingFields: [{ slug: 'guests' }, { slug: 'guests', required: true }] })).rejects.toMatchObject({ message: /^bookingFields\.1\.slug: "guests" is already/ });
  });
});

describe('slot settings (docs/integrating.md#slot-rules)', () => {
  const settings = {
    slotInterval: 15,
    beforeEventBuffer: 10,
    afterEventBuffer: 5,
    bookingWindow: { type: 'businessDays' as const, value: 5, rolling: true },
    bookingLimitsCount: { day: 2, week: 5 },
    seats: { seatsPerTimeSlot: 4, showAttendeeInfo: true, showAvailabilityCount: false },
    bookingLimitsDuration: { day: 120, month: 600 },
    onlyShowFirstAvailableSlot: true,
    offsetStart: 10,
  };

  it("an event type is made without them as Cal.com's defaults, takes them in Cal.com's shapes, keeps them, and a change clears each with {disabled: true} or null", async ({ world }) => {
    const userId = await world.user();
    const plain = (await createEventType(world.ctx, { userId }, intro)).eventType;
    expect(plain).toMatchObject({ slotInterval: null, beforeEventBuffer: 0, afterEventBuffer: 0, bookingWindow: null, bookingLimitsCount: null, seats: null, bookingLimitsDuration: null, onlyShowFirstAvailableSlot: false, offsetStart: 0 });

    const { eventType } = await createEventType(world.ctx, { userId }, { ...intro, slug: 'set', ...settings });
    const kept = { slotInterval: 15, beforeEventBuffer: 10, afterEventBuffer: 5, bookingWindow: { type: 'businessDays', days: 5, rolling: true }, bookingLimitsCount: { day: 2, week: 5 }, seats: { perTimeSlot: 4, showAttendeeInfo: true, showAvailabilityCount: false }, bookingLimitsDuration: { day: 120, month: 600 }, onlyShowFirstAvailableSlot: true, offsetStart: 10 };
    expect(eventType).toMatchObject(kept);
    expect(await findEventType(world.ctx, { userId }, eventType.id)).toMatchObject(kept);

    // A change names only what it changes; the rest stays.
    const ranged = await updateEventType(world.ctx, { userId }, eventType.id, { bookingWindow: { type: 'range', value: ['2030-09-05', '2030-09-09'] }, afterEventBuffer: 0 });
    expect(ranged.eventType).toMatchObject({ ...kept, afterEventBuffer: 0, bookingWindow: { type: 'range', from: '2030-09-05', to: '2030-09-09' } });

    const cleared = await updateEventType(world.ctx, { userId }, eventType.id, { slotInterval: null, bookingWindow: { disabled: true }, bookingLimitsCount: { disabled: true }, seats: { disabled: true }, bookingLimitsDuration: { disabled: true }, onlyShowFirstAvailableSlot: false, offsetStart: 0 });
    const none = { slotInterval: null, bookingWindow: null, bookingLimitsCount: null, seats: null, bookingLimitsDuration: null, onlyShowFirstAvailableSlot: false, offsetStart: 0 };
    expect(cleared.eventType).toMatchObject({ ...none, beforeEventBuffer: 10 });
    expect(await findEventType(world.ctx, { userId }, eventType.id)).toMatchObject(none);
  });

  it.for([
    ['a window without its type', { bookingWindow: { value: 5 } }, 'bookingWindow.type: is required: businessDays, calendarDays or range; or {"disabled": true} for no window'],
    ['a window of days given dates', { bookingWindow: { type: 'calendarDays', value: ['2030-09-05', '2030-09-09'] } }, 'bookingWindow.value: a calendarDays window is a number of days, 1 to 3650'],
    ['a range of one date', { bookingWindow: { type: 'range', value: ['2030-09-05'] } }, 'bookingWindow.value: a range window is two dates, [from, to], such as ["2030-09-05", "2030-09-09"]'],
    ['a range on a day that is not', { bookingWindow: { type: 'range', value: ['2030-02-31', '2030-03-09'] } }, 'bookingWindow.value.0: "2030-02-31" is not a date YYYY-MM-DD'],
    ['a range that ends before it starts', { bookingWindow: { type: 'range', value: ['2030-09-09', '2030-09-05'] } }, 'bookingWindow.value: the range ends before it starts'],
    ['a rolling range', { bookingWindow: { type: 'range', value: ['2030-09-05', '2030-09-09'], rolling: true } }, 'bookingWindow.rolling: applies to businessDays and calendarDays windows'],
    ["a week's limit below the day's", { bookingLimitsCount: { day: 3, week: 2 } }, "bookingLimitsCount.week: must be at least the day's limit (3)"],
    ["a year's minutes below the month's", { bookingLimitsDuration: { month: 600, year: 300 } }, "bookingLimitsDuration.year: must be at least the month's limit (600)"],
    ['seats without their number', { seats: { showAttendeeInfo: true, showAvailabilityCount: true } }, 'seats.seatsPerTimeSlot: is required: the bookers a slot takes, 1 to 1000; or {"disabled": true} for one booker a slot'],
  ] as [string, Record<string, unknown>, string][])('%s is refused naming the field, and the event type keeps its settings', async ([, input, message], { world }) => {
    const userId = await world.user();
    await expect(createEventType(world.ctx, { userId }, { ...intro, ...input })).rejects.toMatchObject({ kind: 'validation', message });
    const { eventType } = await createEventType(world.ctx, { userId }, { ...intro, ...settings });
    await expect(updateEventType(world.ctx, { userId }, eventType.id, input)).rejects.toMatchObject({ kind: 'validation', message });
    expect(await findEventType(world.ctx, { userId }, eventType.id)).toMatchObject({ slotInterval: 15, bookingLimitsCount: { day: 2, week: 5 }, seats: { perTimeSlot: 4 } });
  });
});
