// The rows of the route registry (src/platform/route-table.ts) this resource serves: method,
// path, scope and membership rule of each route. Pure data.
import { routeRows, teamRule, type ApiRoute } from '../route.ts';

export const eventTypeRoutes: ApiRoute[] = [
  ...routeRows('personal', 'Event types', 'self', [
    ['eventTypes.list', 'GET', '/v2/event-types', 'EVENT_TYPE_READ', 'List your event types'],
    ['eventTypes.create', 'POST', '/v2/event-types', 'EVENT_TYPE_WRITE', 'Create an event type'],
    ['eventTypes.get', 'GET', '/v2/event-types/:eventTypeId', 'EVENT_TYPE_READ', 'Read one of your event types'],
    ['eventTypes.update', 'PATCH', '/v2/event-types/:eventTypeId', 'EVENT_TYPE_WRITE', 'Change one of your event types'],
    ['eventTypes.delete', 'DELETE', '/v2/event-types/:eventTypeId', 'EVENT_TYPE_WRITE', 'Delete one of your event types'],
    ['privateLinks.list', 'GET', '/v2/event-types/:eventTypeId/private-links', 'EVENT_TYPE_READ', "List an event type's private links"],
    ['privateLinks.create', 'POST', '/v2/event-types/:eventTypeId/private-links', 'EVENT_TYPE_WRITE', 'Create a private link to book a hidden event type'],
    ['privateLinks.update', 'PATCH', '/v2/event-types/:eventTypeId/private-links/:linkId', 'EVENT_TYPE_WRITE', "Change a private link's expiry or uses allowed"],
    ['privateLinks.delete', 'DELETE', '/v2/event-types/:eventTypeId/private-links/:linkId', 'EVENT_TYPE_WRITE', 'Delete a private link'],
  ]),
  ...routeRows('team', 'Team event types', teamRule, [
    ['teamEventTypes.list', 'GET', '/v2/teams/:teamId/event-types', 'TEAM_EVENT_TYPE_READ', "List a team's event types"],
    ['teamEventTypes.create', 'POST', '/v2/teams/:teamId/event-types', 'TEAM_EVENT_TYPE_WRITE', 'Create a team event type'],
    ['teamEventTypes.get', 'GET', '/v2/teams/:teamId/event-types/:eventTypeId', 'TEAM_EVENT_TYPE_READ', 'Read a team event type'],
    ['teamEventTypes.update', 'PATCH', '/v2/teams/:teamId/event-types/:eventTypeId', 'TEAM_EVENT_TYPE_WRITE', 'Change a team event type'],
    ['teamEventTypes.delete', 'DELETE', '/v2/teams/:teamId/event-types/:eventTypeId', 'TEAM_EVENT_TYPE_WRITE', 'Delete a team event type'],
    ['teamPrivateLinks.list', 'GET', '/v2/teams/:teamId/event-types/:eventTypeId/private-links', 'TEAM_EVENT_TYPE_READ', "List a team event type's private links"],
    ['teamPrivateLinks.create', 'POST', '/v2/teams/:teamId/event-types/:eventTypeId/private-links', 'TEAM_EVENT_TYPE_WRITE', 'Create a private link to book a hidden team event type'],
    ['teamPrivateLinks.update', 'PATCH', '/v2/teams/:teamId/event-types/:eventTypeId/private-links/:linkId', 'TEAM_EVENT_TYPE_WRITE', "Change a team private link's expiry or uses allowed"],
    ['teamPrivateLinks.delete', 'DELETE', '/v2/teams/:teamId/event-types/:eventTypeId/private-links/:linkId', 'TEAM_EVENT_TYPE_WRITE', 'Delete a team private link'],
  ]),
  ...routeRows('organization', 'Organizations', 'org-admin', [
    ['orgEventTypes.list', 'GET', '/v2/organizations/:orgId/event-types', 'ORG_EVENT_TYPE_READ', 'List every event type in the organization'],
    // Cal.com API v2's address for its teams' event types; a fixed segment served before …/teams/:teamId.
    ['orgTeamEventTypes.list', 'GET', '/v2/organizations/:orgId/teams/event-types', 'ORG_EVENT_TYPE_READ', "List the event types of the organization's teams"],
    ['orgEventTypes.update', 'PATCH', '/v2/organizations/:orgId/event-types/:eventTypeId', 'ORG_EVENT_TYPE_WRITE', 'Change any event type in the organization'],
    ['orgEventTypes.delete', 'DELETE', '/v2/organizations/:orgId/event-types/:eventTypeId', 'ORG_EVENT_TYPE_WRITE', 'Delete any event type in the organization'],
  ]),
];
