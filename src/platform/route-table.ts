// The route registry of the /v2 platform API (SPEC §6): every route with its method, path,
// required scope (or `public`) and the membership rule it needs beyond the scope. The API
// registers its routes from this list and nothing else, so a route without an entry cannot
// exist; the README's scope table and the OpenAPI document are generated from it too.
// Pure data: no framework, no SQL (STYLE practice 1).

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * What the token's user must be, beyond holding the scope (SPEC §6 "rules beyond scope"):
 * - `self`: the route acts on the token's own user only;
 * - `team-member` / `team-admin`: a member (any role) / an admin or owner of `:teamId`,
 *   or an admin or owner of the team's organization;
 * - `org-admin`: an admin or owner of `:orgId`;
 * - `none`: a public route, no token needed (seed §5 rule 6).
 */
export type MembershipRule = 'self' | 'team-member' | 'team-admin' | 'org-admin' | 'none';

export type RouteFamily = 'personal' | 'public' | 'team' | 'organization';

export interface ApiRoute {
  /** Unique; the OpenAPI operationId. */
  id: string;
  /** The handler that serves it: the team routes under an organization share the team route's. */
  handler: string;
  method: HttpMethod;
  path: string;
  scope: string | 'public';
  membership: MembershipRule;
  family: RouteFamily;
  /** Groups routes in the reference (OpenAPI tag). */
  resource: string;
  summary: string;
  /**
   * A public write on an existing booking (SPEC §2 item 26): it acts for the booker, so it
   * needs the booking's `manageToken`, or else an access token with the booking write
   * scope of the booking's family, under that family's membership rule.
   */
  booker?: true;
  /**
   * The MCP tool that offers this route to agents (SPEC §10.6): same scope, same membership
   * rule, same handler. Named in `mcpTools` below.
   */
  tool?: string;
}

type Entry = [id: string, method: HttpMethod, path: string, scope: string, summary: string];

function entries(family: RouteFamily, resource: string, membership: MembershipRule | ((e: Entry) => MembershipRule), list: Entry[]): ApiRoute[] {
  return list.map((e) => {
    const [id, method, path, scope, summary] = e;
    return { id, handler: id, method, path, scope, membership: typeof membership === 'function' ? membership(e) : membership, family, resource, summary };
  });
}

/** SPEC §6: team routes need membership, admin or owner to write. */
const teamRule = ([, method]: Entry): MembershipRule => (method === 'GET' ? 'team-member' : 'team-admin');

const personal: ApiRoute[] = [
  ...entries('personal', 'Profile', 'self', [
    ['me.get', 'GET', '/v2/me', 'PROFILE_READ', "Read the authorized user's profile"],
    ['me.update', 'PATCH', '/v2/me', 'PROFILE_WRITE', "Change the authorized user's name, time zone, week start or time format"],
  ]),
  ...entries('personal', 'Event types', 'self', [
    ['eventTypes.list', 'GET', '/v2/event-types', 'EVENT_TYPE_READ', 'List your event types'],
    ['eventTypes.create', 'POST', '/v2/event-types', 'EVENT_TYPE_WRITE', 'Create an event type'],
    ['eventTypes.get', 'GET', '/v2/event-types/:eventTypeId', 'EVENT_TYPE_READ', 'Read one of your event types'],
    ['eventTypes.update', 'PATCH', '/v2/event-types/:eventTypeId', 'EVENT_TYPE_WRITE', 'Change one of your event types'],
    ['eventTypes.delete', 'DELETE', '/v2/event-types/:eventTypeId', 'EVENT_TYPE_WRITE', 'Delete one of your event types'],
    ['privateLinks.list', 'GET', '/v2/event-types/:eventTypeId/private-links', 'EVENT_TYPE_READ', "List an event type's private links"],
    ['privateLinks.create', 'POST', '/v2/event-types/:eventTypeId/private-links', 'EVENT_TYPE_WRITE', 'Create a private link to book a hidden event type'],
    ['privateLinks.delete', 'DELETE', '/v2/event-types/:eventTypeId/private-links/:linkId', 'EVENT_TYPE_WRITE', 'Delete a private link'],
  ]),
  ...entries('personal', 'Bookings', 'self', [
    ['bookings.list', 'GET', '/v2/bookings', 'BOOKING_READ', 'List the bookings you host'],
    ['bookings.get', 'GET', '/v2/bookings/:bookingUid', 'BOOKING_READ', 'Read one booking you host'],
    ['bookings.calendarLinks', 'GET', '/v2/bookings/:bookingUid/calendar-links', 'BOOKING_READ', 'Add-to-calendar links (Google, Outlook, ICS) of a booking'],
    ['bookings.confirm', 'POST', '/v2/bookings/:bookingUid/confirm', 'BOOKING_WRITE', 'Confirm a booking that awaits confirmation'],
    ['bookings.decline', 'POST', '/v2/bookings/:bookingUid/decline', 'BOOKING_WRITE', 'Decline a booking that awaits confirmation'],
    ['bookings.addGuests', 'POST', '/v2/bookings/:bookingUid/guests', 'BOOKING_WRITE', 'Add guests to a booking'],
    ['bookings.updateLocation', 'PATCH', '/v2/bookings/:bookingUid/location', 'BOOKING_WRITE', "Change a booking's location"],
    ['bookings.reassign', 'POST', '/v2/bookings/:bookingUid/reassign', 'BOOKING_WRITE', 'Hand a team booking over to another member of its team'],
  ]),
  ...entries('personal', 'Schedules', 'self', [
    ['schedules.list', 'GET', '/v2/schedules', 'SCHEDULE_READ', 'List your schedules (availability)'],
    ['schedules.create', 'POST', '/v2/schedules', 'SCHEDULE_WRITE', 'Create a schedule'],
    ['schedules.get', 'GET', '/v2/schedules/:scheduleId', 'SCHEDULE_READ', 'Read one of your schedules'],
    ['schedules.update', 'PATCH', '/v2/schedules/:scheduleId', 'SCHEDULE_WRITE', 'Change one of your schedules'],
    ['schedules.delete', 'DELETE', '/v2/schedules/:scheduleId', 'SCHEDULE_WRITE', 'Delete one of your schedules'],
  ]),
  ...entries('personal', 'Calendars', 'self', [
    ['calendars.list', 'GET', '/v2/calendars', 'APPS_READ', 'List your connected calendars and ICS feeds'],
    ['calendars.busyTimes', 'GET', '/v2/calendars/busy-times', 'APPS_READ', 'Your busy times in a period'],
    ['calendars.checkIcsFeed', 'GET', '/v2/calendars/ics-feed/check', 'APPS_READ', 'Check an ICS feed address before saving it'],
    ['calendars.saveIcsFeed', 'POST', '/v2/calendars/ics-feed/save', 'APPS_WRITE', 'Save ICS feeds'],
    ['calendars.check', 'GET', '/v2/calendars/:provider/check', 'APPS_READ', 'Verify your connection to a calendar provider'],
    ['calendars.connect', 'POST', '/v2/calendars/:provider/connect', 'APPS_WRITE', 'Connect a calendar account'],
    ['calendars.disconnect', 'POST', '/v2/calendars/:provider/disconnect', 'APPS_WRITE', 'Disconnect a calendar account'],
  ]),
  ...entries('personal', 'Webhooks', 'self', [
    ['webhooks.list', 'GET', '/v2/webhooks', 'WEBHOOK_READ', 'List your webhooks'],
    ['webhooks.create', 'POST', '/v2/webhooks', 'WEBHOOK_WRITE', 'Create a webhook'],
    ['webhooks.get', 'GET', '/v2/webhooks/:webhookId', 'WEBHOOK_READ', 'Read one of your webhooks'],
    ['webhooks.update', 'PATCH', '/v2/webhooks/:webhookId', 'WEBHOOK_WRITE', 'Change one of your webhooks'],
    ['webhooks.delete', 'DELETE', '/v2/webhooks/:webhookId', 'WEBHOOK_WRITE', 'Delete one of your webhooks'],
    ['webhooks.deliveries', 'GET', '/v2/webhooks/:webhookId/deliveries', 'WEBHOOK_READ', "One of your webhooks' recent deliveries, newest first"],
    ['webhooks.redeliver', 'POST', '/v2/webhooks/:webhookId/deliveries/:deliveryId/redeliver', 'WEBHOOK_WRITE', 'Send a delivery again, as a new message'],
  ]),
  ...entries('personal', 'Verified resources', 'self', [
    ['verifiedEmails.list', 'GET', '/v2/verified-resources/emails', 'VERIFIED_RESOURCES_READ', 'List your verified email addresses'],
    ['verifiedPhones.list', 'GET', '/v2/verified-resources/phones', 'VERIFIED_RESOURCES_READ', 'List your verified phone numbers'],
    ['verifiedEmails.request', 'POST', '/v2/verified-resources/emails/verification-code/request', 'VERIFIED_RESOURCES_WRITE', 'Send a verification code to an email address'],
    ['verifiedEmails.verify', 'POST', '/v2/verified-resources/emails/verification-code/verify', 'VERIFIED_RESOURCES_WRITE', 'Verify an email address with its code'],
    ['verifiedPhones.request', 'POST', '/v2/verified-resources/phones/verification-code/request', 'VERIFIED_RESOURCES_WRITE', 'Send a verification code to a phone number'],
    ['verifiedPhones.verify', 'POST', '/v2/verified-resources/phones/verification-code/verify', 'VERIFIED_RESOURCES_WRITE', 'Verify a phone number with its code'],
  ]),
  // Creating a team acts on the token's user, who becomes its owner.
  ...entries('personal', 'Teams', 'self', [['teams.create', 'POST', '/v2/teams', 'TEAM_PROFILE_WRITE', 'Create a team you own']]),
];

// Seed §1, §5 rule 6: booking, cancelling and rescheduling need no token; SPEC §2 item 26:
// cancelling and rescheduling need the booker's manageToken instead.
const publicBooking: ApiRoute[] = entries('public', 'Bookings', 'none', [
  ['bookings.create', 'POST', '/v2/bookings', 'public', 'Book an event type (no token needed); the answer carries the manageToken, once'],
  ['bookings.cancel', 'POST', '/v2/bookings/:bookingUid/cancel', 'public', "Cancel a booking with its manageToken (no token needed)"],
  ['bookings.reschedule', 'POST', '/v2/bookings/:bookingUid/reschedule', 'public', 'Move a booking to another time with its manageToken (no token needed)'],
]).map((r) => ({ ...r, scope: 'public' as const, ...(r.id === 'bookings.create' ? {} : { booker: true as const }) }));

/** Team routes, written once under /v2/teams/:teamId; each also exists under an organization. */
const team: ApiRoute[] = [
  ...entries('team', 'Teams', teamRule, [
    ['teams.get', 'GET', '/v2/teams/:teamId', 'TEAM_PROFILE_READ', "Read a team's profile"],
    ['teams.update', 'PATCH', '/v2/teams/:teamId', 'TEAM_PROFILE_WRITE', "Change a team's profile"],
    ['teams.delete', 'DELETE', '/v2/teams/:teamId', 'TEAM_PROFILE_WRITE', 'Delete a team (its owner, or an organization admin)'],
  ]),
  ...entries('team', 'Team event types', teamRule, [
    ['teamEventTypes.list', 'GET', '/v2/teams/:teamId/event-types', 'TEAM_EVENT_TYPE_READ', "List a team's event types"],
    ['teamEventTypes.create', 'POST', '/v2/teams/:teamId/event-types', 'TEAM_EVENT_TYPE_WRITE', 'Create a team event type'],
    ['teamEventTypes.get', 'GET', '/v2/teams/:teamId/event-types/:eventTypeId', 'TEAM_EVENT_TYPE_READ', 'Read a team event type'],
    ['teamEventTypes.update', 'PATCH', '/v2/teams/:teamId/event-types/:eventTypeId', 'TEAM_EVENT_TYPE_WRITE', 'Change a team event type'],
    ['teamEventTypes.delete', 'DELETE', '/v2/teams/:teamId/event-types/:eventTypeId', 'TEAM_EVENT_TYPE_WRITE', 'Delete a team event type'],
  ]),
  ...entries('team', 'Team bookings', teamRule, [
    ['teamBookings.list', 'GET', '/v2/teams/:teamId/bookings', 'TEAM_BOOKING_READ', "List a team's bookings"],
    ['teamBookings.create', 'POST', '/v2/teams/:teamId/bookings', 'TEAM_BOOKING_WRITE', 'Book a team event type on behalf of an attendee'],
    ['teamBookings.get', 'GET', '/v2/teams/:teamId/bookings/:bookingUid', 'TEAM_BOOKING_READ', 'Read a team booking'],
    ['teamBookings.cancel', 'POST', '/v2/teams/:teamId/bookings/:bookingUid/cancel', 'TEAM_BOOKING_WRITE', 'Cancel a team booking'],
  ]),
  ...entries('team', 'Team schedules', teamRule, [
    ['teamSchedules.list', 'GET', '/v2/teams/:teamId/schedules', 'TEAM_SCHEDULE_READ', "List a team's schedules"],
    ['teamSchedules.create', 'POST', '/v2/teams/:teamId/schedules', 'TEAM_SCHEDULE_WRITE', 'Create a team schedule'],
    ['teamSchedules.get', 'GET', '/v2/teams/:teamId/schedules/:scheduleId', 'TEAM_SCHEDULE_READ', 'Read a team schedule'],
    ['teamSchedules.update', 'PATCH', '/v2/teams/:teamId/schedules/:scheduleId', 'TEAM_SCHEDULE_WRITE', 'Change a team schedule'],
    ['teamSchedules.delete', 'DELETE', '/v2/teams/:teamId/schedules/:scheduleId', 'TEAM_SCHEDULE_WRITE', 'Delete a team schedule'],
  ]),
  ...entries('team', 'Team memberships', teamRule, [
    ['teamMemberships.list', 'GET', '/v2/teams/:teamId/memberships', 'TEAM_MEMBERSHIP_READ', "List a team's members and pending invitations, with their roles"],
    ['teamMemberships.create', 'POST', '/v2/teams/:teamId/memberships', 'TEAM_MEMBERSHIP_WRITE', 'Invite a user to a team: a membership once they accept in the web app'],
    ['teamMemberships.get', 'GET', '/v2/teams/:teamId/memberships/:membershipId', 'TEAM_MEMBERSHIP_READ', 'Read one team membership or invitation'],
    ['teamMemberships.update', 'PATCH', '/v2/teams/:teamId/memberships/:membershipId', 'TEAM_MEMBERSHIP_WRITE', "Change a member's or an invitation's role"],
    ['teamMemberships.delete', 'DELETE', '/v2/teams/:teamId/memberships/:membershipId', 'TEAM_MEMBERSHIP_WRITE', 'Remove a member from a team, or withdraw an invitation'],
  ]),
  ...entries('team', 'Team apps', teamRule, [
    ['teamApps.list', 'GET', '/v2/teams/:teamId/apps', 'TEAM_APPS_READ', "List a team's connected apps"],
    ['teamApps.connect', 'POST', '/v2/teams/:teamId/apps/:app/connect', 'TEAM_APPS_WRITE', 'Connect an app to a team'],
    ['teamApps.disconnect', 'POST', '/v2/teams/:teamId/apps/:app/disconnect', 'TEAM_APPS_WRITE', 'Disconnect an app from a team'],
  ]),
  ...entries('team', 'Team routing forms', teamRule, [
    ['teamRoutingForms.list', 'GET', '/v2/teams/:teamId/routing-forms', 'TEAM_ROUTING_FORM_READ', "List a team's routing forms"],
    ['teamRoutingForms.create', 'POST', '/v2/teams/:teamId/routing-forms', 'TEAM_ROUTING_FORM_WRITE', 'Create a team routing form'],
    ['teamRoutingForms.get', 'GET', '/v2/teams/:teamId/routing-forms/:formId', 'TEAM_ROUTING_FORM_READ', 'Read a team routing form'],
    ['teamRoutingForms.listResponses', 'GET', '/v2/teams/:teamId/routing-forms/:formId/responses', 'TEAM_ROUTING_FORM_READ', "List a routing form's responses"],
    ['teamRoutingForms.createResponse', 'POST', '/v2/teams/:teamId/routing-forms/:formId/responses', 'TEAM_ROUTING_FORM_WRITE', 'Record a routing form response'],
    ['teamRoutingForms.updateResponse', 'PATCH', '/v2/teams/:teamId/routing-forms/:formId/responses/:responseId', 'TEAM_ROUTING_FORM_WRITE', 'Change a routing form response'],
    ['teamRoutingForms.deleteResponse', 'DELETE', '/v2/teams/:teamId/routing-forms/:formId/responses/:responseId', 'TEAM_ROUTING_FORM_WRITE', 'Delete a routing form response'],
  ]),
  ...entries('team', 'Team workflows', teamRule, [
    ['teamWorkflows.list', 'GET', '/v2/teams/:teamId/workflows', 'TEAM_WORKFLOW_READ', "List a team's workflows"],
    ['teamWorkflows.create', 'POST', '/v2/teams/:teamId/workflows', 'TEAM_WORKFLOW_WRITE', 'Create a team workflow'],
    ['teamWorkflows.get', 'GET', '/v2/teams/:teamId/workflows/:workflowId', 'TEAM_WORKFLOW_READ', 'Read a team workflow'],
    ['teamWorkflows.update', 'PATCH', '/v2/teams/:teamId/workflows/:workflowId', 'TEAM_WORKFLOW_WRITE', 'Change a team workflow'],
    ['teamWorkflows.delete', 'DELETE', '/v2/teams/:teamId/workflows/:workflowId', 'TEAM_WORKFLOW_WRITE', 'Delete a team workflow'],
  ]),
  ...entries('team', 'Team verified resources', teamRule, [
    ['teamVerifiedEmails.list', 'GET', '/v2/teams/:teamId/verified-resources/emails', 'TEAM_VERIFIED_RESOURCES_READ', "List a team's verified email addresses"],
    ['teamVerifiedPhones.list', 'GET', '/v2/teams/:teamId/verified-resources/phones', 'TEAM_VERIFIED_RESOURCES_READ', "List a team's verified phone numbers"],
    ['teamVerifiedEmails.request', 'POST', '/v2/teams/:teamId/verified-resources/emails/verification-code/request', 'TEAM_VERIFIED_RESOURCES_WRITE', 'Send a verification code to an email address for the team'],
    ['teamVerifiedEmails.verify', 'POST', '/v2/teams/:teamId/verified-resources/emails/verification-code/verify', 'TEAM_VERIFIED_RESOURCES_WRITE', 'Verify an email address for the team'],
    ['teamVerifiedPhones.request', 'POST', '/v2/teams/:teamId/verified-resources/phones/verification-code/request', 'TEAM_VERIFIED_RESOURCES_WRITE', 'Send a verification code to a phone number for the team'],
    ['teamVerifiedPhones.verify', 'POST', '/v2/teams/:teamId/verified-resources/phones/verification-code/verify', 'TEAM_VERIFIED_RESOURCES_WRITE', 'Verify a phone number for the team'],
  ]),
];

const TEAM_PREFIX = '/v2/teams/:teamId';
const ORG_TEAM_PREFIX = '/v2/organizations/:orgId/teams/:teamId';

/** The same team routes under their organization (SPEC §6); a team of another organization is 404. */
const teamInOrganization: ApiRoute[] = team.map((r) => ({
  ...r,
  id: `orgs.${r.id}`,
  path: ORG_TEAM_PREFIX + r.path.slice(TEAM_PREFIX.length),
}));

const organization: ApiRoute[] = entries('organization', 'Organizations', 'org-admin', [
  ['orgTeams.list', 'GET', '/v2/organizations/:orgId/teams', 'ORG_PROFILE_READ', "List the organization's teams"],
  ['orgTeams.create', 'POST', '/v2/organizations/:orgId/teams', 'ORG_PROFILE_WRITE', 'Create a team in the organization'],
  ['orgMemberships.list', 'GET', '/v2/organizations/:orgId/memberships', 'ORG_MEMBERSHIP_READ', "List the organization's memberships and pending invitations"],
  ['orgMemberships.create', 'POST', '/v2/organizations/:orgId/memberships', 'ORG_MEMBERSHIP_WRITE', 'Invite a user to the organization: a membership once they accept in the web app'],
  ['orgMemberships.update', 'PATCH', '/v2/organizations/:orgId/memberships/:membershipId', 'ORG_MEMBERSHIP_WRITE', "Change an organization member's or invitation's role"],
  ['orgMemberships.delete', 'DELETE', '/v2/organizations/:orgId/memberships/:membershipId', 'ORG_MEMBERSHIP_WRITE', 'Remove a user from the organization, or withdraw an invitation'],
  ['orgUsers.list', 'GET', '/v2/organizations/:orgId/users', 'ORG_MEMBERSHIP_READ', "List the organization's users"],
  ['orgUsers.update', 'PATCH', '/v2/organizations/:orgId/users/:userId', 'ORG_MEMBERSHIP_WRITE', "Change an organization user's profile"],
  ['orgEventTypes.list', 'GET', '/v2/organizations/:orgId/event-types', 'ORG_EVENT_TYPE_READ', 'List every event type in the organization'],
  ['orgEventTypes.update', 'PATCH', '/v2/organizations/:orgId/event-types/:eventTypeId', 'ORG_EVENT_TYPE_WRITE', 'Change any event type in the organization'],
  ['orgEventTypes.delete', 'DELETE', '/v2/organizations/:orgId/event-types/:eventTypeId', 'ORG_EVENT_TYPE_WRITE', 'Delete any event type in the organization'],
  ['orgBookings.list', 'GET', '/v2/organizations/:orgId/bookings', 'ORG_BOOKING_READ', 'List every booking in the organization'],
  ['orgBookings.cancel', 'POST', '/v2/organizations/:orgId/bookings/:bookingUid/cancel', 'ORG_BOOKING_WRITE', 'Cancel any booking in the organization'],
  ['orgSchedules.list', 'GET', '/v2/organizations/:orgId/schedules', 'ORG_SCHEDULE_READ', 'List the schedules of the organization'],
  ['orgSchedules.update', 'PATCH', '/v2/organizations/:orgId/schedules/:scheduleId', 'ORG_SCHEDULE_WRITE', 'Change any schedule in the organization'],
  ['orgSchedules.delete', 'DELETE', '/v2/organizations/:orgId/schedules/:scheduleId', 'ORG_SCHEDULE_WRITE', 'Delete any schedule in the organization'],
  ['orgRoutingForms.list', 'GET', '/v2/organizations/:orgId/routing-forms', 'ORG_ROUTING_FORM_READ', "List the organization's routing forms"],
  ['orgRoutingForms.create', 'POST', '/v2/organizations/:orgId/routing-forms', 'ORG_ROUTING_FORM_WRITE', 'Create an organization routing form'],
  ['orgRoutingForms.listResponses', 'GET', '/v2/organizations/:orgId/routing-forms/:formId/responses', 'ORG_ROUTING_FORM_READ', "List an organization routing form's responses"],
  ['orgRoutingForms.createResponse', 'POST', '/v2/organizations/:orgId/routing-forms/:formId/responses', 'ORG_ROUTING_FORM_WRITE', 'Record an organization routing form response'],
  ['orgWebhooks.list', 'GET', '/v2/organizations/:orgId/webhooks', 'ORG_WEBHOOK_READ', "List the organization's webhooks"],
  ['orgWebhooks.create', 'POST', '/v2/organizations/:orgId/webhooks', 'ORG_WEBHOOK_WRITE', 'Create an organization webhook'],
  ['orgWebhooks.get', 'GET', '/v2/organizations/:orgId/webhooks/:webhookId', 'ORG_WEBHOOK_READ', 'Read an organization webhook'],
  ['orgWebhooks.update', 'PATCH', '/v2/organizations/:orgId/webhooks/:webhookId', 'ORG_WEBHOOK_WRITE', 'Change an organization webhook'],
  ['orgWebhooks.delete', 'DELETE', '/v2/organizations/:orgId/webhooks/:webhookId', 'ORG_WEBHOOK_WRITE', 'Delete an organization webhook'],
  ['orgWebhooks.deliveries', 'GET', '/v2/organizations/:orgId/webhooks/:webhookId/deliveries', 'ORG_WEBHOOK_READ', "An organization webhook's recent deliveries, newest first"],
  ['orgWebhooks.redeliver', 'POST', '/v2/organizations/:orgId/webhooks/:webhookId/deliveries/:deliveryId/redeliver', 'ORG_WEBHOOK_WRITE', 'Send an organization webhook delivery again, as a new message'],
]);

/**
 * SPEC §10.6: the routes the MCP server at /mcp offers as tools, by route id. A tool is its
 * route: the registrar's guard decides its scope and membership, its handler serves it.
 */
const mcpTools: Record<string, string> = {
  'me.get': 'get_profile',
  'eventTypes.list': 'list_event_types',
  'eventTypes.get': 'get_event_type',
  'bookings.list': 'list_bookings',
  'bookings.get': 'get_booking',
  'schedules.list': 'list_schedules',
  'schedules.get': 'get_schedule',
  'calendars.busyTimes': 'get_busy_times',
  'bookings.create': 'create_booking',
  'bookings.cancel': 'cancel_booking',
  'bookings.reschedule': 'reschedule_booking',
  'teamEventTypes.list': 'list_team_event_types',
  'teamBookings.list': 'list_team_bookings',
  'teamSchedules.list': 'list_team_schedules',
};

export const apiRoutes: readonly ApiRoute[] = [...personal, ...publicBooking, ...team, ...teamInOrganization, ...organization].map((r) =>
  mcpTools[r.id] === undefined ? r : { ...r, tool: mcpTools[r.id] },
);

/** Path parameters of a route, in order: `/v2/teams/:teamId` → ['teamId']. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
}
