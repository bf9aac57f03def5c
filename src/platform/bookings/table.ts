// The rows of the route registry (src/platform/route-table.ts) this resource serves: method,
// path, scope and membership rule of each route. Pure data.
import { routeRows, teamRule, type ApiRoute } from '../route.ts';

export const bookingRoutes: ApiRoute[] = [
  ...routeRows('personal', 'Bookings', 'self', [
    ['bookings.list', 'GET', '/v2/bookings', 'BOOKING_READ', 'List the bookings you host'],
    ['bookings.get', 'GET', '/v2/bookings/:bookingUid', 'BOOKING_READ', 'Read one booking you host'],
    ['bookings.calendarLinks', 'GET', '/v2/bookings/:bookingUid/calendar-links', 'BOOKING_READ', 'Add-to-calendar links (Google, Outlook, ICS) of a booking'],
    ['bookings.confirm', 'POST', '/v2/bookings/:bookingUid/confirm', 'BOOKING_WRITE', 'Confirm a booking that awaits confirmation'],
    ['bookings.decline', 'POST', '/v2/bookings/:bookingUid/decline', 'BOOKING_WRITE', 'Decline a booking that awaits confirmation'],
    ['bookings.addGuests', 'POST', '/v2/bookings/:bookingUid/guests', 'BOOKING_WRITE', 'Add guests to a booking'],
    ['bookings.updateLocation', 'PATCH', '/v2/bookings/:bookingUid/location', 'BOOKING_WRITE', "Change a booking's location"],
    ['bookings.reassign', 'POST', '/v2/bookings/:bookingUid/reassign', 'BOOKING_WRITE', 'Hand a team booking over to another member of its team'],
    ['bookings.reassignTo', 'POST', '/v2/bookings/:bookingUid/reassign/:userId', 'BOOKING_WRITE', 'Hand a team booking over to the member the path names'],
    ['bookings.attendees', 'GET', '/v2/bookings/:bookingUid/attendees', 'BOOKING_READ', "List a booking's attendees: its booker, guests and those added, each marked absent or not"],
    ['bookings.attendee', 'GET', '/v2/bookings/:bookingUid/attendees/:attendeeId', 'BOOKING_READ', 'Read one attendee of a booking'],
    ['bookings.addAttendee', 'POST', '/v2/bookings/:bookingUid/attendees', 'BOOKING_WRITE', 'Add an attendee to a pending or accepted booking'],
    ['bookings.markAbsent', 'POST', '/v2/bookings/:bookingUid/mark-absent', 'BOOKING_WRITE', 'Mark the host or attendees of an accepted booking absent (or present again)'],
    ['bookings.references', 'GET', '/v2/bookings/:bookingUid/references', 'BOOKING_READ', "A booking's events in outside calendars and video services, as an operator recorded them"],
    ['bookings.recordings', 'GET', '/v2/bookings/:bookingUid/recordings', 'BOOKING_READ', "Recordings of a booking's meeting, as an operator recorded them"],
    ['bookings.transcripts', 'GET', '/v2/bookings/:bookingUid/transcripts', 'BOOKING_READ', "Transcript addresses of a booking's meeting, as an operator recorded them"],
    ['bookings.conferencingSessions', 'GET', '/v2/bookings/:bookingUid/conferencing-sessions', 'BOOKING_READ', "Video sessions of a booking's meeting and who joined, as an operator recorded them"],
  ]),
  ...routeRows('team', 'Team bookings', teamRule, [
    ['teamBookings.list', 'GET', '/v2/teams/:teamId/bookings', 'TEAM_BOOKING_READ', "List a team's bookings"],
    ['teamBookings.create', 'POST', '/v2/teams/:teamId/bookings', 'TEAM_BOOKING_WRITE', 'Book a team event type on behalf of an attendee'],
    ['teamBookings.get', 'GET', '/v2/teams/:teamId/bookings/:bookingUid', 'TEAM_BOOKING_READ', 'Read a team booking'],
    ['teamBookings.references', 'GET', '/v2/teams/:teamId/bookings/:bookingUid/references', 'TEAM_BOOKING_READ', "A team booking's events in outside calendars and video services, as an operator recorded them"],
    ['teamBookings.cancel', 'POST', '/v2/teams/:teamId/bookings/:bookingUid/cancel', 'TEAM_BOOKING_WRITE', 'Cancel a team booking'],
  ]),
  // docs/rules.md#public-booking: booking, cancelling and rescheduling need no token:
  // cancelling and rescheduling need the booker's manageToken instead.
  ...routeRows('public', 'Bookings', 'none', [
    ['bookings.create', 'POST', '/v2/bookings', 'public', 'Book an event type (no token needed); the answer carries the manageToken, once'],
    ['bookings.cancel', 'POST', '/v2/bookings/:bookingUid/cancel', 'public', "Cancel a booking with its manageToken (no token needed)"],
    ['bookings.reschedule', 'POST', '/v2/bookings/:bookingUid/reschedule', 'public', 'Move a booking to another time with its manageToken (no token needed)'],
  ]).map((r) => ({ ...r, scope: 'public' as const, ...(r.id === 'bookings.create' ? {} : { booker: true as const }) })),
  ...routeRows('organization', 'Organizations', 'org-admin', [
    ['orgBookings.list', 'GET', '/v2/organizations/:orgId/bookings', 'ORG_BOOKING_READ', 'List every booking in the organization'],
    ['orgUserBookings.list', 'GET', '/v2/organizations/:orgId/users/:userId/bookings', 'ORG_BOOKING_READ', "List the bookings an organization member hosts in the organization"],
    ['orgBookings.cancel', 'POST', '/v2/organizations/:orgId/bookings/:bookingUid/cancel', 'ORG_BOOKING_WRITE', 'Cancel any booking in the organization'],
  ]),
];
