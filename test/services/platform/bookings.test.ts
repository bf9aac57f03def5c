// The bookings service's reads (src/platform/bookings/service.ts), called in process: what the
// routes read themselves before, now the service's: the event type a request names, a booking
// in the caller's scope (another's is 404), a page with its total and the relations its answers
// show, and a booking's attendees; and the answers to an event type's booking fields. The
// other booking rules (notice, lengths, hosts, manageToken, transitions) are tested over HTTP
// in test/platform/booking*.test.ts.
import { describe, expect } from 'vitest';
import {
  book,
  bookingRecordings,
  bookingReferences,
  bookingTranscripts,
  eventTypeOf,
  findAttendee,
  findBooking,
  listAttendees,
  listBookings,
  listMemberBookings,
  recordRecording,
  recordReference,
  recordTranscript,
  rescheduleBooking,
  shownOne,
  type NewBooking,
} from '../../../src/platform/bookings/service.ts';
import { createEventType, type BookingFieldInput } from '../../../src/platform/event-types/service.ts';
import { it, workday, type PlatformWorld } from './world.ts';

const HOUR = 3_600_000;
/** A booking `hoursIn` hours into the hosts' next working day (workday: a slot of theirs). */
const bookOf = (world: PlatformWorld, eventTypeId: string, hoursIn: number, email = 'ana@example.com') =>
  book(world.ctx, { eventTypeId, start: workday(world) + hoursIn * HOUR, attendee: { name: 'Ana', email, timeZone: 'Europe/Berlin' } });

describe('bookings', () => {
  it('the event type is named by id, or by slug with exactly one of username and teamSlug; an unknown slug is 404', async ({ world }) => {
    const host = await world.user();
    const id = await world.eventType({ userId: host });
    const { slug } = (await world.ctx.stores.api.eventTypes.findOwned({ userId: host }, id))!;
    expect(await eventTypeOf(world.ctx, { eventTypeId: '42' })).toBe('42');
    expect(await eventTypeOf(world.ctx, { eventTypeSlug: slug, username: `user-${host}` })).toBe(id);
    await expect(eventTypeOf(world.ctx, {})).rejects.toMatchObject({ kind: 'validation', message: 'eventTypeId: is required, or eventTypeSlug with username or teamSlug' });
    await expect(eventTypeOf(world.ctx, { eventTypeSlug: slug })).rejects.toMatchObject({ kind: 'validation', message: 'eventTypeSlug: needs exactly one of username and teamSlug beside it' });
    await expect(eventTypeOf(world.ctx, { eventTypeSlug: slug, username: 'x', teamSlug: 'y' })).rejects.toMatchObject({ kind: 'validation' });
    await expect(eventTypeOf(world.ctx, { eventTypeSlug: 'nope', username: `user-${host}` })).rejects.toMatchObject({ kind: 'not_found', message: 'no such event type' });
  });

  it("a booking is found in its host's or team's scope only; another's is 404", async ({ world }) => {
    const host = await world.user();
    const other = await world.user();
    const teamId = await world.team(host);
    const { booking } = await bookOf(world, await world.eventType({ userId: host }), 2);
    const { booking: teamBooking } = await bookOf(world, await world.eventType({ teamId }), 3);
    expect(await findBooking(world.ctx, { userId: host }, booking.uid)).toEqual(booking);
    expect(await findBooking(world.ctx, { teamId }, teamBooking.uid)).toEqual(teamBooking);
    await expect(findBooking(world.ctx, { userId: other }, booking.uid)).rejects.toMatchObject({ kind: 'not_found', message: 'no such booking' });
    await expect(findBooking(world.ctx, { teamId }, booking.uid)).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('a page holds its total and the relations its answers show: the host, the event type and the attendees', async ({ world }) => {
    const host = await world.user({ name: 'Hana' });
    const et = await world.eventType({ userId: host });
    const first = await bookOf(world, et, 2);
    const second = await bookOf(world, et, 5, 'bo@example.com');
    const page = await listBookings(world.ctx, { userId: host }, {}, 1, 0);
    expect(page.total).toBe(2);
    expect(page.bookings.map((b) => b.uid)).toEqual([first.booking.uid]);
    expect(page.relations.eventTypes.get(et)).toMatchObject({ slug: (await world.ctx.stores.api.eventTypes.findOwned({ userId: host }, et))!.slug });
    expect([...page.relations.attendees.keys()]).toEqual([first.booking.uid]);
    const one = await shownOne(world.ctx, second.booking);
    expect(one.bookings).toEqual([second.booking]);
    expect(one.relations.attendees.get(second.booking.uid)?.map((a) => a.email)).toEqual(['bo@example.com']);
  });

  it("a member's bookings, as the organization sees them: those they host, their own and its teams', never another organization's team's; paged with their total", async ({ world }) => {
    const owner = await world.user();
    const organizationId = await world.organization(owner);
    const member = await world.user();
    await world.join({ organizationId }, member);
    const colleague = await world.user();
    await world.join({ organizationId }, colleague);
    const own = await bookOf(world, await world.eventType({ userId: member }), 2);
    const ofTeam = await bookOf(world, await world.eventType({ teamId: await world.team(member, { organizationId }) }), 3);
    const rival = await world.organization(await world.user(), 'Rival');
    await bookOf(world, await world.eventType({ teamId: await world.team(member, { organizationId: rival }) }), 4);
    await bookOf(world, await world.eventType({ userId: colleague }), 5);
    expect([own, ofTeam].map((b) => b.booking.hostId)).toEqual([member, member]);

    const all = await listMemberBookings(world.ctx, organizationId, member, {}, 10, 0);
    expect(all.bookings.map((b) => b.uid)).toEqual([own.booking.uid, ofTeam.booking.uid]);
    expect(all.total).toBe(2);
    const second = await listMemberBookings(world.ctx, organizationId, member, { afterStart: workday(world) + 2.5 * HOUR }, 1, 0);
    expect([second.bookings.map((b) => b.uid), second.total]).toEqual([[ofTeam.booking.uid], 1]);
    expect([...(await listMemberBookings(world.ctx, organizationId, member, {}, 1, 1)).relations.attendees.keys()]).toEqual([ofTeam.booking.uid]);
  });

  it("a user who is not an accepted member of the organization has no bookings there: 404, as an unknown user, whatever they host", async ({ world }) => {
    const owner = await world.user();
    const organizationId = await world.organization(owner);
    const outsider = await world.user();
    await bookOf(world, await world.eventType({ userId: outsider }), 2);
    const invited = await world.user();
    await world.ctx.stores.invitations.insert({ id: await world.ctx.stores.ids.next('memberships'), teamId: null, organizationId, email: null, userId: invited, role: 'member', invitedBy: owner, createdAt: world.now(), updatedAt: world.now() });
    await bookOf(world, await world.eventType({ userId: invited }), 3);
    for (const userId of [outsider, invited, '999999']) {
      await expect(listMemberBookings(world.ctx, organizationId, userId, {}, 10, 0), userId).rejects.toMatchObject({ kind: 'not_found', message: 'no such user in this organization' });
    }
  });

  it("a booking's attendees are its host's to read; another's booking and another booking's attendee are 404", async ({ world }) => {
    const host = await world.user();
    const et = await world.eventType({ userId: host });
    const { booking } = await bookOf(world, et, 2);
    const { booking: otherBooking } = await bookOf(world, et, 4, 'bo@example.com');
    const attendees = await listAttendees(world.ctx, host, booking.uid);
    expect(attendees.map((a) => a.email)).toEqual(['ana@example.com']);
    expect(await findAttendee(world.ctx, host, booking.uid, attendees[0]!.id)).toEqual(attendees[0]);
    await expect(listAttendees(world.ctx, await world.user(), booking.uid)).rejects.toMatchObject({ kind: 'not_found', message: 'no such booking' });
    const otherAttendee = (await listAttendees(world.ctx, host, otherBooking.uid))[0]!;
    await expect(findAttendee(world.ctx, host, booking.uid, otherAttendee.id)).rejects.toMatchObject({ kind: 'not_found', message: 'no such attendee' });
  });

  it("what an operator records is the booking's, read in its scope only: an unknown booking, a bad address and a taken provider id are refused", async ({ world }) => {
    const host = await world.user();
    const { booking } = await bookOf(world, await world.eventType({ userId: host }), 2);
    await expect(recordReference(world.ctx, { bookingUid: 'no-such-uid', type: 'google_calendar', eventUid: 'g1' })).rejects.toMatchObject({ kind: 'not_found', message: 'no booking has the uid no-such-uid' });
    await expect(recordTranscript(world.ctx, { bookingUid: booking.uid, url: 'ftp://files.example.com/t.txt' })).rejects.toMatchObject({ kind: 'validation', message: expect.stringMatching(/^url: /) });
    const reference = await recordReference(world.ctx, { bookingUid: booking.uid, type: 'google_calendar', eventUid: 'g1', destinationCalendarId: 'primary' });
    expect(reference).toMatchObject({ bookingUid: booking.uid, type: 'google_calendar', eventUid: 'g1', destinationCalendarId: 'primary', createdAt: world.now() });
    await recordReference(world.ctx, { bookingUid: booking.uid, type: 'zoom_video', eventUid: 'z1' });
    expect(await bookingReferences(world.ctx, { userId: host }, booking.uid, 'google_calendar')).toEqual([reference]);
    const recording = await recordRecording(world.ctx, { bookingUid: booking.uid, id: 'rec-1', roomName: 'room', startTs: 1_700_000_000, duration: 60, shareToken: 'share' });
    await expect(recordRecording(world.ctx, { bookingUid: booking.uid, id: 'rec-1', roomName: 'room', startTs: 1_700_000_000, duration: 60, shareToken: 'share' })).rejects.toMatchObject({ kind: 'conflict', message: 'id: a recording of id rec-1 is already recorded' });
    expect(await bookingRecordings(world.ctx, { userId: host }, booking.uid)).toEqual([recording]);
    await recordTranscript(world.ctx, { bookingUid: booking.uid, url: 'https://files.example.com/t.txt' });
    expect(await bookingTranscripts(world.ctx, { userId: host }, booking.uid)).toEqual(['https://files.example.com/t.txt']);
    await expect(bookingReferences(world.ctx, { userId: await world.user() }, booking.uid)).rejects.toMatchObject({ kind: 'not_found', message: 'no such booking' });
  });
});

// docs/integrating.md#booking-fields: a booking answers its event type's booking fields.
describe('booking field answers', () => {
  const fields: BookingFieldInput[] = [
    { type: 'text', slug: 'company', label: 'Company', required: true },
    { type: 'phone', slug: 'phone', label: 'Phone', required: false },
    { type: 'number', slug: 'seats', label: 'Seats', required: false },
    { type: 'address', slug: 'office', label: 'Office', required: false },
    { type: 'textarea', slug: 'agenda', label: 'Agenda', required: false },
    { type: 'select', slug: 'language', label: 'Language', required: false, options: ['English', 'Italian'] },
    { type: 'radio', slug: 'size', label: 'Size', required: false, options: ['S', 'M'] },
    { type: 'multiselect', slug: 'topics', label: 'Topics', required: false, options: ['Pricing', 'Support'] },
    { type: 'checkbox', slug: 'needs', label: 'Needs', required: false, options: ['Projector', 'Coffee'] },
    { type: 'multiemail', slug: 'cc', label: 'Copy to', required: false },
    { type: 'boolean', slug: 'newsletter', label: 'Newsletter?', required: false },
    { type: 'url', slug: 'site', label: 'Website', required: false },
    { type: 'text', slug: 'internal', label: 'Internal', required: true, hidden: true },
  ];

  async function eventTypeWith(world: PlatformWorld, bookingFields: BookingFieldInput[] = fields): Promise<string> {
    const host = await world.user();
    return (await createEventType(world.ctx, { userId: host }, { title: 'Intro', slug: 'intro', lengthInMinutes: 30, bookingFields })).eventType.id;
  }
  const bookWith = (world: PlatformWorld, eventTypeId: string, answers: Partial<NewBooking>) =>
    book(world.ctx, { eventTypeId, start: workday(world) + 2 * HOUR, attendee: { name: 'Ana', email: 'ana@example.com', timeZone: 'Europe/Berlin' }, ...answers });

  it('the answers are kept by slug as each kind takes them, with the notes and the title, and read back with the booking', async ({ world }) => {
    const eventTypeId = await eventTypeWith(world);
    const { booking } = await bookWith(world, eventTypeId, {
      responses: {
        company: 'Acme',
        phone: '+1 (415) 555-0123',
        seats: '12',
        office: '1 Main St',
        agenda: 'Prices\nDates',
        language: 'Italian',
        size: 'M',
        topics: ['Support', 'Pricing', 'Support'],
        needs: [],
        cc: ['Boss@Example.com'],
        newsletter: false,
        site: 'https://acme.example.com',
        notes: 'Bring the contract',
        title: 'Renewal',
      },
    });
    const responses = { company: 'Acme', phone: '+14155550123', seats: 12, office: '1 Main St', agenda: 'Prices\nDates', language: 'Italian', size: 'M', topics: ['Support', 'Pricing'], cc: ['boss@example.com'], newsletter: false, site: 'https://acme.example.com/', title: 'Renewal' };
    expect(booking).toMatchObject({ description: 'Bring the contract', responses });
    expect((await listBookings(world.ctx, { userId: booking.hostId! }, {}, 10, 0)).bookings[0]!.responses).toEqual(responses);
  });

  it('a required field left unanswered is refused naming it, and nothing is booked; a hidden one is never required', async ({ world }) => {
    const eventTypeId = await eventTypeWith(world);
    await expect(bookWith(world, eventTypeId, {})).rejects.toMatchObject({ kind: 'validation', message: 'bookingFieldsResponses.company: is required by this event type ("Company")' });
    await expect(bookWith(world, eventTypeId, { responses: { company: '  ' } })).rejects.toMatchObject({ message: 'bookingFieldsResponses.company: is required by this event type ("Company")' });
    // The refusals booked nothing and used up no number of the series.
    const { booking } = await bookWith(world, eventTypeId, { responses: { company: 'Acme' } });
    expect(booking).toMatchObject({ id: '1', responses: { company: 'Acme' } });
  });

  it.for([
    ['company', 42, 'bookingFieldsResponses.company: must be text'],
    ['phone', '415-555', 'bookingFieldsResponses.phone: must be a phone number in international form, such as +14155550123'],
    ['seats', 'twelve', 'bookingFieldsResponses.seats: must be a number'],
    ['seats', true, 'bookingFieldsResponses.seats: must be a number'],
    ['language', 'German', 'bookingFieldsResponses.language: must be one of its options: "English", "Italian"'],
    ['size', ['S'], 'bookingFieldsResponses.size: must be text'],
    ['topics', 'Pricing', 'bookingFieldsResponses.topics: must be a list'],
    ['needs', ['Coffee', 'Tea'], 'bookingFieldsResponses.needs.1: must be one of its options: "Projector", "Coffee"'],
    ['cc', ['not-an-address'], 'bookingFieldsResponses.cc.0: must be an e-mail address'],
    ['newsletter', 'yes', 'bookingFieldsResponses.newsletter: must be true or false'],
    ['site', 'javascript:alert(1)', 'bookingFieldsResponses.site: must be an http(s) URL'],
    ['agenda', { text: 'x' }, 'bookingFieldsResponses.agenda: must be text'],
  ] as [string, unknown, string][])('an answer of the wrong kind (%s: %j) is refused naming the field', async ([slug, value, message], { world }) => {
    const eventTypeId = await eventTypeWith(world);
    await expect(bookWith(world, eventTypeId, { responses: { company: 'Acme', [slug]: value } })).rejects.toMatchObject({ kind: 'validation', message });
  });

  it('a slug the form does not have is refused; the booker, the guests and the place are answered in their own fields', async ({ world }) => {
    const eventTypeId = await eventTypeWith(world, fields.slice(0, 2));
    await expect(bookWith(world, eventTypeId, { responses: { company: 'Acme', customField: 'customValue' } })).rejects.toMatchObject({
      message: 'bookingFieldsResponses.customField: this event type has no booking field "customField"; its own are company, phone, beside notes and title',
    });
    const bare = await eventTypeWith(world, []);
    await expect(bookWith(world, bare, { responses: { customField: 'customValue' } })).rejects.toMatchObject({ message: 'bookingFieldsResponses.customField: this event type has no booking field "customField"; it has none of its own, beside notes and title' });
    await expect(bookWith(world, bare, { responses: { name: 'Ana' } })).rejects.toMatchObject({ message: "bookingFieldsResponses.name: give the booker's name as attendee.name" });
    await expect(bookWith(world, bare, { responses: { email: 'ana@example.com' } })).rejects.toMatchObject({ message: "bookingFieldsResponses.email: give the booker's address as attendee.email" });
    await expect(bookWith(world, bare, { responses: { guests: ['bo@example.com'] } })).rejects.toMatchObject({ message: 'bookingFieldsResponses.guests: give the guests as guests' });
    await expect(bookWith(world, bare, { responses: { location: 'Here' } })).rejects.toMatchObject({ message: 'bookingFieldsResponses.location: give the place as location' });
    await expect(bookWith(world, bare, { responses: { rescheduleReason: 'Busy' } })).rejects.toMatchObject({ message: 'bookingFieldsResponses.rescheduleReason: is asked when the booking is rescheduled: send it as reschedulingReason then' });
    // Names of the objects' own machinery are slugs like any other.
    await expect(bookWith(world, bare, { responses: { constructor: 'x' } })).rejects.toMatchObject({ message: /^bookingFieldsResponses\.constructor: this event type has no booking field/ });
  });

  it('notes, guests and a yes-or-no field the form requires must be given; the notes of the request win over its answers', async ({ world }) => {
    const eventTypeId = await eventTypeWith(world, [{ slug: 'notes', required: true }, { slug: 'guests', required: true }, { type: 'boolean', slug: 'terms', label: 'Agree to terms?', required: true }]);
    const all = { guests: ['bo@example.com'], responses: { notes: 'Hello', terms: true } };
    await expect(bookWith(world, eventTypeId, { ...all, responses: { terms: true } })).rejects.toMatchObject({ message: 'bookingFieldsResponses.notes: is required by this event type ("Additional notes")' });
    await expect(bookWith(world, eventTypeId, { ...all, guests: [] })).rejects.toMatchObject({ message: 'guests: is required by this event type ("Add guests")' });
    await expect(bookWith(world, eventTypeId, { ...all, responses: { notes: 'Hello', terms: false } })).rejects.toMatchObject({ message: 'bookingFieldsResponses.terms: must be true: this event type requires it ("Agree to terms?")' });
    const { booking } = await bookWith(world, eventTypeId, { ...all, notes: 'From the request' });
    expect(booking).toMatchObject({ description: 'From the request', guests: ['bo@example.com'], responses: { terms: true } });
  });

  it('a reschedule of an event type that requires its reason needs one', async ({ world }) => {
    const eventTypeId = await eventTypeWith(world, [{ slug: 'rescheduleReason', required: true, label: 'Why move it?' }]);
    const { booking } = await bookWith(world, eventTypeId, {});
    await expect(rescheduleBooking(world.ctx, booking.uid, workday(world) + 5 * HOUR, undefined)).rejects.toMatchObject({ kind: 'validation', message: 'reschedulingReason: is required by this event type ("Why move it?")' });
    expect((await findBooking(world.ctx, { userId: booking.hostId! }, booking.uid)).status).toBe('accepted');
    const moved = await rescheduleBooking(world.ctx, booking.uid, workday(world) + 5 * HOUR, 'Travel');
    // The answers move with the booking.
    expect(moved).toMatchObject({ rescheduledFrom: booking.uid, responses: booking.responses });
  });
});
