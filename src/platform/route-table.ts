// The route registry of the /v2 platform API (docs/rules.md#scope-registry): every route with its method, path,
// required scope (or `public`) and the membership rule it needs beyond the scope, gathered
// from the `table.ts` of each resource (src/platform/resources.ts). The API registers its
// routes from this list and nothing else, so a route without an entry cannot exist; the
// scope table of docs/integrating.md and the OpenAPI document are generated from it too.
import type { ApiRoute, RouteFamily } from './route.ts';
import { resources } from './resources.ts';
import { organizationScopesOfTeamRoutes } from './teams/table.ts';

export { pathParams, type ApiRoute, type HttpMethod, type MembershipRule, type RouteFamily } from './route.ts';

/** The routes of one family, resource by resource in the order resources.ts lists them. */
const ofFamily = (family: RouteFamily): ApiRoute[] => resources.flatMap((r) => r.routes.filter((route) => route.family === family));

const TEAM_PREFIX = '/v2/teams/:teamId';
const ORG_TEAM_PREFIX = '/v2/organizations/:orgId/teams/:teamId';

/** The same team routes under their organization (docs/rules.md#scope-registry); a team of another organization is 404. */
const teamInOrganization: ApiRoute[] = ofFamily('team').map((r) => ({
  ...r,
  id: `orgs.${r.id}`,
  path: ORG_TEAM_PREFIX + r.path.slice(TEAM_PREFIX.length),
  ...organizationScopesOfTeamRoutes[r.id],
}));

/**
 * docs/rules.md#mcp-server: the routes the MCP server at /mcp offers as tools, by route id. A tool is its
 * route: the registrar's guard decides its scope and membership, its handler serves it.
 */
const mcpTools: Record<string, string> = {
  'me.get': 'get_profile',
  'eventTypes.list': 'list_event_types',
  'eventTypes.get': 'get_event_type',
  'bookings.list': 'list_bookings',
  'bookings.get': 'get_booking',
  'bookings.attendees': 'list_booking_attendees',
  'schedules.list': 'list_schedules',
  'schedules.get': 'get_schedule',
  'ooo.list': 'list_out_of_office',
  'calendars.busyTimes': 'get_busy_times',
  // Public as its route is, like create_booking: an agent finds a free time before it books one.
  'slots.list': 'list_free_slots',
  'bookings.create': 'create_booking',
  'bookings.cancel': 'cancel_booking',
  'bookings.reschedule': 'reschedule_booking',
  'bookings.markAbsent': 'mark_booking_absent',
  'teamEventTypes.list': 'list_team_event_types',
  'teamBookings.list': 'list_team_bookings',
  'teamSchedules.list': 'list_team_schedules',
};

export const apiRoutes: readonly ApiRoute[] = [...ofFamily('personal'), ...ofFamily('public'), ...ofFamily('team'), ...teamInOrganization, ...ofFamily('organization')].map((r) =>
  mcpTools[r.id] === undefined ? r : { ...r, tool: mcpTools[r.id] },
);
