// One valid request per handler of the route registry: the registry-driven suite calls every
// route with it. `actor` owns the personal resources, `teamId`/`orgId` own the team and
// organization ones, so the same example can build a resource of someone else to prove
// that it is out of reach.
import type { TestServer, TestUser } from '../helpers/server.ts';
import { createTeam } from '../../src/services/teams/teams.ts';
import { fixtures, futureStart, quickUser, randomPhone, uniq, type World } from './fixtures.ts';
import { reserveSlot } from '../../src/platform/slots/reservations.ts';

export interface ExampleContext {
  server: TestServer;
  w: World;
  f: ReturnType<typeof fixtures>;
  actor: TestUser;
  teamId: string;
  orgId: string;
}

export interface ExampleRequest {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

type Example = (c: ExampleContext) => Promise<ExampleRequest>;

/**
 * A live hold of a free slot, as POST /v2/slots/reservations makes one, of a host of its own:
 * the world's owner may have been given another zone or week by an earlier request of the
 * fuzzer (me.update moves them to Berlin, where futureStart's 15:00 UTC is 17:00 in summer).
 */
async function hold({ server, f }: ExampleContext) {
  const host = await quickUser(server, 'Holding Host');
  const eventTypeId = (await f.eventType({ userId: host.id })).id;
  return reserveSlot(server.services, { eventTypeId, slotStart: futureStart(server), authenticated: false });
}

const iso = (ms: number) => new Date(ms).toISOString();
const attendee = { name: 'Ann Attendee', email: 'ann@example.com', timeZone: 'Europe/Paris' };
/**
 * A user's first schedule becomes their default, so its week is when they may be booked
 * (docs/rules.md#booking-availability): the default week itself, Monday to Friday 09:00-17:00
 * in UTC, where futureStart's starts lie, so the booking examples that follow still book.
 */
const scheduleBody = { name: 'Work', timeZone: 'UTC', availability: [{ days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'], startTime: '09:00', endTime: '17:00' }] };
const webhookBody = { subscriberUrl: 'https://hooks.example.com/new', triggers: ['BOOKING_CREATED', 'BOOKING_CANCELLED'] };
const formBody = { name: 'Intake', fields: [{ id: 'email', label: 'Email', type: 'email', required: true }] };
/** docs/integrating.md#booking-fields: a custom field and a default one's settings, as Cal.com API v2 writes them. */
const bookingFields = [
  { type: 'select', slug: 'language', label: 'Language', required: true, placeholder: 'Pick one', options: ['English', 'Italian'], hidden: false },
  { slug: 'notes', label: 'Agenda', required: false },
];
/** The language field as an event type keeps it, which a booking of it must answer. */
const languageField = { type: 'select', slug: 'language', label: 'Language', required: true, placeholder: '', options: ['English', 'Italian'], hidden: false, isDefault: false };

/** An absence of half an hour at a distinct future time, so a user's examples never overlap. */
const oooBody = (server: TestServer) => {
  const start = futureStart(server);
  return { start: iso(start), end: iso(start + 30 * 60_000), notes: 'Dentist', reason: 'unspecified' };
};

const none: Example = async () => ({});

/** A member of the organization and one of their own schedules. */
async function memberSchedule({ f, orgId }: ExampleContext): Promise<ExampleRequest> {
  const { user } = await f.membership({ organizationId: orgId });
  return { params: { userId: user.id, scheduleId: (await f.schedule({ userId: user.id })).id } };
}

/** An event type of the owner and one webhook of it. */
async function eventTypeWebhook(f: ExampleContext['f'], owner: { userId: string } | { teamId: string }): Promise<ExampleRequest> {
  const et = await f.eventType(owner);
  return { params: { eventTypeId: et.id, webhookId: (await f.webhook({ eventTypeId: et.id })).id } };
}

/** The request with a delivery of its webhook named beside it, to send again. */
async function withDelivery(f: ExampleContext['f'], request: ExampleRequest): Promise<ExampleRequest> {
  const params = request.params as { webhookId: string };
  return { ...request, params: { ...params, deliveryId: (await f.delivery(params.webhookId)).id } };
}

export const examples: Record<string, Example> = {
  'me.get': none,
  'me.update': async () => ({ body: { name: 'Renamed', timeZone: 'Europe/Berlin' } }),

  'eventTypes.list': none,
  'eventTypes.create': async () => ({ body: { title: 'Intro', slug: `intro-${uniq().toLowerCase()}`, lengthInMinutes: 30, bookingFields } }),
  'eventTypes.get': async ({ f, actor }) => ({ params: { eventTypeId: (await f.eventType({ userId: actor.id })).id } }),
  'eventTypes.update': async ({ f, actor }) => ({ params: { eventTypeId: (await f.eventType({ userId: actor.id })).id }, body: { title: 'Longer intro', lengthInMinutes: 45, bookingFields } }),
  'eventTypes.delete': async ({ f, actor }) => ({ params: { eventTypeId: (await f.eventType({ userId: actor.id })).id } }),
  'privateLinks.list': async ({ f, actor }) => ({ params: { eventTypeId: (await f.eventType({ userId: actor.id })).id } }),
  'privateLinks.create': async ({ f, actor }) => ({ params: { eventTypeId: (await f.eventType({ userId: actor.id }, { hidden: true })).id }, body: { maxUsageCount: 3 } }),
  'privateLinks.update': async ({ f, actor }) => {
    const et = await f.eventType({ userId: actor.id });
    return { params: { eventTypeId: et.id, linkId: (await f.privateLink(et.id)).id }, body: { maxUsageCount: 5 } };
  },
  'teamPrivateLinks.list': async ({ f, teamId }) => ({ params: { eventTypeId: (await f.eventType({ teamId })).id } }),
  'teamPrivateLinks.create': async ({ f, teamId }) => ({ params: { eventTypeId: (await f.eventType({ teamId }, { hidden: true })).id }, body: { maxUsageCount: 2 } }),
  'teamPrivateLinks.update': async ({ f, teamId }) => {
    const et = await f.eventType({ teamId });
    return { params: { eventTypeId: et.id, linkId: (await f.privateLink(et.id)).id }, body: { maxUsageCount: 4 } };
  },
  'teamPrivateLinks.delete': async ({ f, teamId }) => {
    const et = await f.eventType({ teamId });
    return { params: { eventTypeId: et.id, linkId: (await f.privateLink(et.id)).id } };
  },
  'eventTypeWebhooks.list': async ({ f, actor }) => ({ params: { eventTypeId: (await f.eventType({ userId: actor.id })).id } }),
  'eventTypeWebhooks.create': async ({ f, actor }) => ({ params: { eventTypeId: (await f.eventType({ userId: actor.id })).id }, body: webhookBody }),
  'eventTypeWebhooks.deleteAll': async ({ f, actor }) => ({ params: { eventTypeId: (await f.eventType({ userId: actor.id })).id } }),
  'eventTypeWebhooks.get': async ({ f, actor }) => eventTypeWebhook(f, { userId: actor.id }),
  'eventTypeWebhooks.update': async ({ f, actor }) => ({ ...(await eventTypeWebhook(f, { userId: actor.id })), body: { active: false } }),
  'eventTypeWebhooks.delete': async ({ f, actor }) => eventTypeWebhook(f, { userId: actor.id }),
  'eventTypeWebhooks.deliveries': async ({ f, actor }) => eventTypeWebhook(f, { userId: actor.id }),
  'eventTypeWebhooks.redeliver': async ({ f, actor }) => withDelivery(f, await eventTypeWebhook(f, { userId: actor.id })),
  'teamEventTypeWebhooks.list': async ({ f, teamId }) => ({ params: { eventTypeId: (await f.eventType({ teamId })).id } }),
  'teamEventTypeWebhooks.create': async ({ f, teamId }) => ({ params: { eventTypeId: (await f.eventType({ teamId })).id }, body: webhookBody }),
  'teamEventTypeWebhooks.deleteAll': async ({ f, teamId }) => ({ params: { eventTypeId: (await f.eventType({ teamId })).id } }),
  'teamEventTypeWebhooks.get': async ({ f, teamId }) => eventTypeWebhook(f, { teamId }),
  'teamEventTypeWebhooks.update': async ({ f, teamId }) => ({ ...(await eventTypeWebhook(f, { teamId })), body: { triggers: ['BOOKING_CANCELLED'] } }),
  'teamEventTypeWebhooks.delete': async ({ f, teamId }) => eventTypeWebhook(f, { teamId }),
  'teamEventTypeWebhooks.deliveries': async ({ f, teamId }) => eventTypeWebhook(f, { teamId }),
  'teamEventTypeWebhooks.redeliver': async ({ f, teamId }) => withDelivery(f, await eventTypeWebhook(f, { teamId })),
  'teamEventTypes.createPhoneCall': async ({ f, teamId }) => ({
    params: { eventTypeId: (await f.eventType({ teamId })).id },
    body: { yourPhoneNumber: randomPhone(), numberToCall: randomPhone(), calApiKey: `cal_${uniq()}`, enabled: true, templateType: 'CUSTOM_TEMPLATE', guestName: 'Gil Guest' },
  }),
  'privateLinks.delete': async ({ f, actor }) => {
    const et = await f.eventType({ userId: actor.id });
    return { params: { eventTypeId: et.id, linkId: (await f.privateLink(et.id)).id } };
  },

  'bookings.list': async () => ({ query: { status: 'accepted', limit: '10' } }),
  'bookings.get': async ({ f, actor }) => ({ params: { bookingUid: (await f.booking({ hostId: actor.id })).uid } }),
  'bookings.calendarLinks': async ({ f, actor }) => ({ params: { bookingUid: (await f.booking({ hostId: actor.id })).uid } }),
  'bookings.confirm': async ({ f, actor }) => ({ params: { bookingUid: (await f.booking({ hostId: actor.id, status: 'pending' })).uid } }),
  'bookings.decline': async ({ f, actor }) => ({ params: { bookingUid: (await f.booking({ hostId: actor.id, status: 'pending' })).uid }, body: { reason: 'Travelling' } }),
  'bookings.addGuests': async ({ f, actor }) => ({ params: { bookingUid: (await f.booking({ hostId: actor.id })).uid }, body: { guests: ['guest@example.com'] } }),
  'bookings.updateLocation': async ({ f, actor }) => ({ params: { bookingUid: (await f.booking({ hostId: actor.id })).uid }, body: { location: 'Room 4' } }),
  'bookings.attendees': async ({ f, actor }) => ({ params: { bookingUid: (await f.booking({ hostId: actor.id })).uid } }),
  'bookings.attendee': async ({ server, f, actor }) => {
    const { uid } = await f.booking({ hostId: actor.id });
    return { params: { bookingUid: uid, attendeeId: (await server.services.stores.api.bookingAttendees.list(uid))[0]!.id } };
  },
  'bookings.addAttendee': async ({ f, actor }) => ({ params: { bookingUid: (await f.booking({ hostId: actor.id })).uid }, body: { name: 'Bo Booked', email: 'bo@example.com', timeZone: 'America/New_York', language: 'en' } }),
  'bookings.markAbsent': async ({ f, actor }) => ({ params: { bookingUid: (await f.booking({ hostId: actor.id })).uid }, body: { host: false, attendees: [{ email: attendee.email, absent: true }] } }),
  'bookings.references': async ({ f, actor }) => ({ params: { bookingUid: (await f.booking({ hostId: actor.id })).uid }, query: { type: 'google_calendar' } }),
  'bookings.recordings': async ({ f, actor }) => ({ params: { bookingUid: (await f.booking({ hostId: actor.id })).uid } }),
  'bookings.transcripts': async ({ f, actor }) => ({ params: { bookingUid: (await f.booking({ hostId: actor.id })).uid } }),
  'bookings.conferencingSessions': async ({ f, actor }) => ({ params: { bookingUid: (await f.booking({ hostId: actor.id })).uid } }),
  'bookings.reassign': async ({ f, actor, teamId, w }) => ({
    params: { bookingUid: (await f.booking({ hostId: actor.id, teamId })).uid },
    body: { userId: actor.id === w.member.id ? w.teamAdmin.id : w.member.id },
  }),
  'bookings.reassignTo': async ({ f, actor, teamId, w }) => ({
    params: { bookingUid: (await f.booking({ hostId: actor.id, teamId })).uid, userId: actor.id === w.member.id ? w.teamAdmin.id : w.member.id },
    body: { reason: 'Out sick' },
  }),

  'schedules.list': none,
  'schedules.create': async () => ({ body: scheduleBody }),
  'schedules.default': none,
  'schedules.get': async ({ f, actor }) => ({ params: { scheduleId: (await f.schedule({ userId: actor.id })).id } }),
  'schedules.update': async ({ f, actor }) => ({ params: { scheduleId: (await f.schedule({ userId: actor.id })).id }, body: { name: 'Summer hours' } }),
  'schedules.delete': async ({ f, actor }) => ({ params: { scheduleId: (await f.schedule({ userId: actor.id })).id } }),

  'ooo.list': async () => ({ query: { sortStart: 'desc', take: '10' } }),
  'ooo.create': async ({ server }) => ({ body: oooBody(server) }),
  'ooo.update': async ({ f, actor }) => ({ params: { oooId: (await f.ooo(actor.id)).id }, body: { reason: 'travel', notes: 'Conference' } }),
  'ooo.delete': async ({ f, actor }) => ({ params: { oooId: (await f.ooo(actor.id)).id } }),

  'conferencing.list': none,
  'conferencing.getDefault': none,
  // Google Meet connects once per user: an earlier example's connection goes first.
  'conferencing.connect': async ({ server, actor }) => {
    const apps = server.services.stores.api.connectedApps;
    for (const a of await apps.list({ userId: actor.id }, { app: 'google-meet' })) await apps.delete({ userId: actor.id }, a.app, a.id);
    return { params: { app: 'google-meet' } };
  },
  'conferencing.authUrl': async () => ({ params: { app: 'zoom' }, query: { returnTo: 'https://app.example.com/ok', onErrorReturnTo: 'https://app.example.com/failed' } }),
  'conferencing.setDefault': async ({ f, actor }) => {
    await f.app({ userId: actor.id }, 'zoom', 'conferencing');
    return { params: { app: 'zoom' } };
  },
  'conferencing.disconnect': async ({ f, actor }) => {
    await f.app({ userId: actor.id }, 'zoom', 'conferencing');
    return { params: { app: 'zoom' } };
  },

  'calendars.list': none,
  'calendars.busyTimes': async ({ server }) => ({ query: { start: iso(server.clock()), end: iso(server.clock() + 7 * 24 * 3600_000) } }),
  'calendars.checkIcsFeed': async () => ({ query: { url: 'webcal://calendar.example.com/team.ics' } }),
  'calendars.saveIcsFeed': async () => ({ body: { urls: [`https://calendar.example.com/${uniq()}.ics`] } }),
  'calendars.check': async () => ({ params: { provider: 'google' } }),
  'calendars.connect': async () => ({ params: { provider: 'google' }, body: { account: `${uniq()}@gmail.example.com` } }),
  'calendars.oauthConnect': async () => ({ params: { provider: 'google' }, query: { isDryRun: 'false', redir: 'https://app.example.com/calendars' } }),
  'calendars.saveCredentials': async () => ({ params: { provider: 'apple' }, body: { username: `${uniq()}@icloud.example.com`, password: 'app-specific-password' } }),
  'calendars.disconnect': async ({ f, actor }) => ({ params: { provider: 'google' }, body: { id: (await f.app({ userId: actor.id }, 'google-calendar')).id } }),
  'selectedCalendars.add': async ({ f, actor }) => {
    const calendar = await f.app({ userId: actor.id }, 'google-calendar');
    return { body: { integration: 'google_calendar', externalId: calendar.account, credentialId: Number(calendar.id) } };
  },
  'selectedCalendars.delete': async ({ server, f, actor }) => {
    const calendar = await f.app({ userId: actor.id }, 'google-calendar');
    await server.services.stores.api.connectedApps.setSelected(actor.id, calendar.id, true);
    return { query: { integration: 'google_calendar', externalId: calendar.account, credentialId: calendar.id } };
  },
  'destinationCalendars.update': async ({ f, actor }) => ({ body: { integration: 'google_calendar', externalId: (await f.app({ userId: actor.id }, 'google-calendar')).account } }),

  'webhooks.list': none,
  'webhooks.create': async () => ({ body: webhookBody }),
  'webhooks.get': async ({ f, actor }) => ({ params: { webhookId: (await f.webhook({ userId: actor.id })).id } }),
  'webhooks.update': async ({ f, actor }) => ({ params: { webhookId: (await f.webhook({ userId: actor.id })).id }, body: { active: false } }),
  'webhooks.delete': async ({ f, actor }) => ({ params: { webhookId: (await f.webhook({ userId: actor.id })).id } }),
  'webhooks.deliveries': async ({ f, actor }) => ({ params: { webhookId: (await f.webhook({ userId: actor.id })).id } }),
  'webhooks.redeliver': async ({ f, actor }) => {
    const hook = await f.webhook({ userId: actor.id });
    return { params: { webhookId: hook.id, deliveryId: (await f.delivery(hook.id)).id } };
  },

  'verifiedEmails.list': none,
  'verifiedPhones.list': none,
  'verifiedEmails.request': async () => ({ body: { email: `${uniq()}@example.com` } }),
  'verifiedEmails.verify': async ({ f, actor }) => {
    const email = `${uniq()}@example.com`;
    return { body: { email, code: await f.pendingCode({ userId: actor.id }, 'email', email) } };
  },
  'verifiedPhones.request': async () => ({ body: { phoneNumber: randomPhone() } }),
  'verifiedPhones.verify': async ({ f, actor }) => {
    const phoneNumber = randomPhone();
    return { body: { phoneNumber, code: await f.pendingCode({ userId: actor.id }, 'phone', phoneNumber) } };
  },

  'teams.list': none,
  'teams.create': async () => ({ body: { name: 'New team', timeZone: 'Europe/Lisbon' } }),

  'bookings.create': async ({ server, f, w }) => ({
    body: { eventTypeId: (await f.eventType({ userId: w.owner.id }, { bookingFields: [languageField] })).id, start: iso(futureStart(server)), attendee, bookingFieldsResponses: { language: 'Italian', notes: 'Hello' } },
  }),
  'slots.list': async ({ server, f, w }) => {
    const start = futureStart(server);
    return { query: { eventTypeId: (await f.eventType({ userId: w.owner.id })).id, start: iso(start), end: iso(start + 7 * 24 * 3600_000), timeZone: 'Europe/Berlin' } };
  },
  // docs/integrating.md#slot-reservations: a hold of a free slot, by the uid its creation answered.
  'slotReservations.create': async ({ server, f, w }) => ({ body: { eventTypeId: (await f.eventType({ userId: w.owner.id })).id, slotStart: iso(futureStart(server)) } }),
  'slotReservations.get': async (c) => ({ params: { uid: (await hold(c)).uid } }),
  'slotReservations.update': async (c) => {
    const held = await hold(c);
    return { params: { uid: held.uid }, body: { eventTypeId: held.eventTypeId, slotStart: iso(futureStart(c.server)) } };
  },
  'slotReservations.delete': async (c) => ({ params: { uid: (await hold(c)).uid } }),
  // The booker's manageToken is what lets these run without a token (docs/rules.md#public-booking).
  'bookings.cancel': async ({ f, w }) => {
    const b = await f.booking({ hostId: w.owner.id });
    return { params: { bookingUid: b.uid }, body: { cancellationReason: 'Ill', manageToken: b.manageToken } };
  },
  'bookings.reschedule': async ({ server, f, w }) => {
    const b = await f.booking({ hostId: w.owner.id });
    return { params: { bookingUid: b.uid }, body: { start: iso(futureStart(server)), manageToken: b.manageToken } };
  },

  'teams.get': none,
  'teams.update': async () => ({ body: { bio: 'We sell things', brandColor: '#112233' } }),
  // Deleting needs a team of its own, in the organization of the context.
  'teams.delete': async ({ server, w, orgId }) => {
    const team = await createTeam(server.services, { name: 'Short-lived', ownerId: orgId === w.org.id ? w.owner.id : w.outsider.id, organizationId: orgId });
    return { params: { teamId: team.id } };
  },

  'teamEventTypes.list': none,
  'teamEventTypes.create': async () => ({ body: { title: 'Demo', slug: `demo-${uniq().toLowerCase()}`, lengthInMinutes: 60, schedulingType: 'roundRobin', bookingFields } }),
  'teamEventTypes.get': async ({ f, teamId }) => ({ params: { eventTypeId: (await f.eventType({ teamId })).id } }),
  'teamEventTypes.update': async ({ f, teamId }) => ({ params: { eventTypeId: (await f.eventType({ teamId })).id }, body: { hidden: true, bookingFields } }),
  'teamEventTypes.delete': async ({ f, teamId }) => ({ params: { eventTypeId: (await f.eventType({ teamId })).id } }),

  'teamBookings.list': none,
  'teamBookings.create': async ({ server, f, teamId }) => ({ body: { eventTypeId: (await f.eventType({ teamId })).id, start: iso(futureStart(server)), attendee } }),
  'teamBookings.get': async ({ f, w, teamId }) => ({ params: { bookingUid: (await f.booking({ hostId: w.owner.id, teamId })).uid } }),
  'teamBookings.references': async ({ f, w, teamId }) => ({ params: { bookingUid: (await f.booking({ hostId: w.owner.id, teamId })).uid } }),
  'teamBookings.cancel': async ({ f, w, teamId }) => ({ params: { bookingUid: (await f.booking({ hostId: w.owner.id, teamId })).uid }, body: {} }),

  'teamSchedules.list': none,
  'teamSchedules.create': async () => ({ body: scheduleBody }),
  'teamSchedules.get': async ({ f, teamId }) => ({ params: { scheduleId: (await f.schedule({ teamId })).id } }),
  'teamSchedules.update': async ({ f, teamId }) => ({ params: { scheduleId: (await f.schedule({ teamId })).id }, body: { timeZone: 'Asia/Tokyo' } }),
  'teamSchedules.delete': async ({ f, teamId }) => ({ params: { scheduleId: (await f.schedule({ teamId })).id } }),
  'teamUserSchedules.list': async ({ f, teamId }) => ({ params: { userId: (await f.membership({ teamId })).user.id } }),

  'teamOoo.list': async ({ f, teamId }) => {
    const { user } = await f.membership({ teamId });
    await f.ooo(user.id);
    return { params: { userId: user.id } };
  },
  'teamOoo.create': async ({ server, f, teamId }) => ({ params: { userId: (await f.membership({ teamId })).user.id }, body: oooBody(server) }),
  'teamOoo.update': async ({ f, teamId }) => {
    const { user } = await f.membership({ teamId });
    return { params: { userId: user.id, oooId: (await f.ooo(user.id)).id }, body: { reason: 'sick' } };
  },
  'teamOoo.delete': async ({ f, teamId }) => {
    const { user } = await f.membership({ teamId });
    return { params: { userId: user.id, oooId: (await f.ooo(user.id)).id } };
  },

  'teamMemberships.list': none,
  'teamMemberships.create': async ({ server }) => {
    return { body: { userId: (await quickUser(server)).id, role: 'MEMBER' } };
  },
  'teamMemberships.get': async ({ f, teamId }) => ({ params: { membershipId: (await f.membership({ teamId })).membership.id } }),
  'teamMemberships.update': async ({ f, teamId }) => ({ params: { membershipId: (await f.membership({ teamId })).membership.id }, body: { role: 'ADMIN' } }),
  'teamMemberships.delete': async ({ f, teamId }) => ({ params: { membershipId: (await f.membership({ teamId })).membership.id } }),
  'teamInvite.create': none,

  'teamApps.list': none,
  'teamApps.connect': async () => ({ params: { app: 'zoom' }, body: { account: `${uniq()}@zoom.example.com` } }),
  'teamApps.disconnect': async ({ f, teamId }) => ({ params: { app: 'zoom' }, body: { id: (await f.app({ teamId }, 'zoom', 'conferencing')).id } }),

  'teamRoutingForms.list': none,
  'teamRoutingForms.create': async () => ({ body: formBody }),
  'teamRoutingForms.get': async ({ f, teamId }) => ({ params: { formId: (await f.form({ teamId })).id } }),
  'teamRoutingForms.listResponses': async ({ f, teamId }) => ({ params: { formId: (await f.form({ teamId })).id } }),
  'teamRoutingForms.createResponse': async ({ f, teamId }) => ({ params: { formId: (await f.form({ teamId })).id }, body: { response: { email: 'lead@example.com', size: '11-100' } } }),
  'teamRoutingForms.updateResponse': async ({ f, teamId }) => {
    const form = await f.form({ teamId });
    return { params: { formId: form.id, responseId: (await f.response(form.id)).id }, body: { response: { email: 'other@example.com' } } };
  },
  'teamRoutingForms.deleteResponse': async ({ f, teamId }) => {
    const form = await f.form({ teamId });
    return { params: { formId: form.id, responseId: (await f.response(form.id)).id } };
  },

  'teamWorkflows.list': none,
  'teamWorkflows.create': async () => ({ body: { name: 'Remind', trigger: 'BEFORE_EVENT', timeOffsetMinutes: 60, steps: [{ action: 'EMAIL_HOST', body: 'Soon' }] } }),
  'teamWorkflows.get': async ({ f, teamId }) => ({ params: { workflowId: (await f.workflow(teamId)).id } }),
  'teamWorkflows.update': async ({ f, teamId }) => ({ params: { workflowId: (await f.workflow(teamId)).id }, body: { active: false } }),
  'teamWorkflows.delete': async ({ f, teamId }) => ({ params: { workflowId: (await f.workflow(teamId)).id } }),

  'teamVerifiedEmails.list': none,
  'teamVerifiedPhones.list': none,
  'teamVerifiedEmails.request': async () => ({ body: { email: `${uniq()}@example.com` } }),
  'teamVerifiedEmails.verify': async ({ f, teamId }) => {
    const email = `${uniq()}@example.com`;
    return { body: { email, code: await f.pendingCode({ teamId }, 'email', email) } };
  },
  'teamVerifiedPhones.request': async () => ({ body: { phoneNumber: randomPhone() } }),
  'teamVerifiedPhones.verify': async ({ f, teamId }) => {
    const phoneNumber = randomPhone();
    return { body: { phoneNumber, code: await f.pendingCode({ teamId }, 'phone', phoneNumber) } };
  },

  'orgTeams.list': none,
  'orgTeams.mine': none,
  'orgTeams.create': async () => ({ body: { name: 'Org team' } }),
  'orgMemberships.list': none,
  'orgMemberships.create': async ({ server }) => {
    return { body: { email: (await quickUser(server)).email, role: 'MEMBER' } };
  },
  'orgMemberships.get': async ({ f, orgId }) => ({ params: { membershipId: (await f.membership({ organizationId: orgId })).membership.id } }),
  'orgMemberships.update': async ({ f, orgId }) => ({ params: { membershipId: (await f.membership({ organizationId: orgId })).membership.id }, body: { role: 'ADMIN' } }),
  'orgMemberships.delete': async ({ f, orgId }) => ({ params: { membershipId: (await f.membership({ organizationId: orgId })).membership.id } }),
  'orgUsers.list': none,
  'orgUsers.create': async () => ({ body: { email: `${uniq().toLowerCase()}@example.com`, timeZone: 'Europe/Berlin', weekday: 'Sunday', timeFormat: 12 } }),
  'orgUsers.delete': async ({ f, orgId }) => ({ params: { userId: (await f.membership({ organizationId: orgId })).user.id } }),
  'orgUsers.update': async ({ f, orgId }) => ({ params: { userId: (await f.membership({ organizationId: orgId })).user.id }, body: { timeFormat: 12 } }),
  'orgEventTypes.list': none,
  'orgTeamEventTypes.list': none,
  'orgEventTypes.update': async ({ f, teamId }) => ({ params: { eventTypeId: (await f.eventType({ teamId })).id }, body: { minimumBookingNotice: 120, bookingFields } }),
  'orgEventTypes.delete': async ({ f, teamId }) => ({ params: { eventTypeId: (await f.eventType({ teamId })).id } }),
  'orgBookings.list': none,
  'orgUserBookings.list': async ({ f, orgId }) => {
    const { user } = await f.membership({ organizationId: orgId });
    await f.booking({ hostId: user.id });
    return { params: { userId: user.id }, query: { status: 'upcoming', take: '10' } };
  },
  'orgBookings.cancel': async ({ f, w, teamId }) => ({ params: { bookingUid: (await f.booking({ hostId: w.owner.id, teamId })).uid } }),
  'orgSchedules.list': none,
  'orgSchedules.update': async ({ f, teamId }) => ({ params: { scheduleId: (await f.schedule({ teamId })).id }, body: { name: 'Org-wide hours' } }),
  'orgSchedules.delete': async ({ f, teamId }) => ({ params: { scheduleId: (await f.schedule({ teamId })).id } }),
  'orgUserSchedules.list': async ({ f, orgId }) => ({ params: { userId: (await f.membership({ organizationId: orgId })).user.id } }),
  'orgUserSchedules.create': async ({ f, orgId }) => ({ params: { userId: (await f.membership({ organizationId: orgId })).user.id }, body: scheduleBody }),
  'orgUserSchedules.get': async (c) => memberSchedule(c),
  'orgUserSchedules.update': async (c) => ({ ...(await memberSchedule(c)), body: { name: 'Hours set by an admin' } }),
  'orgUserSchedules.delete': async (c) => memberSchedule(c),
  'orgOoo.listAll': async () => ({ query: { sortEnd: 'asc' } }),
  'orgOoo.list': async ({ f, orgId }) => {
    const { user } = await f.membership({ organizationId: orgId });
    await f.ooo(user.id);
    return { params: { userId: user.id } };
  },
  'orgOoo.create': async ({ server, f, orgId }) => ({ params: { userId: (await f.membership({ organizationId: orgId })).user.id }, body: oooBody(server) }),
  'orgOoo.update': async ({ f, orgId }) => {
    const { user } = await f.membership({ organizationId: orgId });
    return { params: { userId: user.id, oooId: (await f.ooo(user.id)).id }, body: { notes: 'Parental leave' } };
  },
  'orgOoo.delete': async ({ f, orgId }) => {
    const { user } = await f.membership({ organizationId: orgId });
    return { params: { userId: user.id, oooId: (await f.ooo(user.id)).id } };
  },
  'orgRoutingForms.list': none,
  'orgRoutingForms.create': async () => ({ body: formBody }),
  'orgRoutingForms.listResponses': async ({ f, orgId }) => ({ params: { formId: (await f.form({ organizationId: orgId })).id } }),
  'orgRoutingForms.createResponse': async ({ f, orgId }) => ({ params: { formId: (await f.form({ organizationId: orgId })).id }, body: { response: { email: 'lead@example.com' } } }),
  'orgWebhooks.list': none,
  'orgWebhooks.create': async () => ({ body: webhookBody }),
  'orgWebhooks.get': async ({ f, orgId }) => ({ params: { webhookId: (await f.webhook({ organizationId: orgId })).id } }),
  'orgWebhooks.update': async ({ f, orgId }) => ({ params: { webhookId: (await f.webhook({ organizationId: orgId })).id }, body: { triggers: ['MEETING_ENDED'] } }),
  'orgWebhooks.delete': async ({ f, orgId }) => ({ params: { webhookId: (await f.webhook({ organizationId: orgId })).id } }),
  'orgWebhooks.deliveries': async ({ f, orgId }) => ({ params: { webhookId: (await f.webhook({ organizationId: orgId })).id } }),
  'orgWebhooks.redeliver': async ({ f, orgId }) => {
    const hook = await f.webhook({ organizationId: orgId });
    return { params: { webhookId: hook.id, deliveryId: (await f.delivery(hook.id)).id } };
  },
};
