// The rows of the route registry (src/platform/route-table.ts) this resource serves: method,
// path, scope and membership rule of each route. Pure data.
import { routeRows, teamRule, type ApiRoute } from '../route.ts';

export const scheduleRoutes: ApiRoute[] = [
  ...routeRows('personal', 'Schedules', 'self', [
    ['schedules.list', 'GET', '/v2/schedules', 'SCHEDULE_READ', 'List your schedules (availability)'],
    ['schedules.create', 'POST', '/v2/schedules', 'SCHEDULE_WRITE', 'Create a schedule'],
    // A fixed segment beside the parameter: the router serves it before /v2/schedules/:scheduleId.
    ['schedules.default', 'GET', '/v2/schedules/default', 'SCHEDULE_READ', 'Read your default schedule (null when you have none)'],
    ['schedules.get', 'GET', '/v2/schedules/:scheduleId', 'SCHEDULE_READ', 'Read one of your schedules'],
    ['schedules.update', 'PATCH', '/v2/schedules/:scheduleId', 'SCHEDULE_WRITE', 'Change one of your schedules'],
    ['schedules.delete', 'DELETE', '/v2/schedules/:scheduleId', 'SCHEDULE_WRITE', 'Delete one of your schedules'],
  ]),
  ...routeRows('team', 'Team schedules', teamRule, [
    ['teamSchedules.list', 'GET', '/v2/teams/:teamId/schedules', 'TEAM_SCHEDULE_READ', "List a team's schedules"],
    ['teamSchedules.create', 'POST', '/v2/teams/:teamId/schedules', 'TEAM_SCHEDULE_WRITE', 'Create a team schedule'],
    ['teamSchedules.get', 'GET', '/v2/teams/:teamId/schedules/:scheduleId', 'TEAM_SCHEDULE_READ', 'Read a team schedule'],
    ['teamSchedules.update', 'PATCH', '/v2/teams/:teamId/schedules/:scheduleId', 'TEAM_SCHEDULE_WRITE', 'Change a team schedule'],
    ['teamSchedules.delete', 'DELETE', '/v2/teams/:teamId/schedules/:scheduleId', 'TEAM_SCHEDULE_WRITE', 'Delete a team schedule'],
    ['teamUserSchedules.list', 'GET', '/v2/teams/:teamId/users/:userId/schedules', 'TEAM_SCHEDULE_READ', "List a team member's own schedules"],
  ]),
  ...routeRows('organization', 'Organizations', 'org-admin', [
    ['orgSchedules.list', 'GET', '/v2/organizations/:orgId/schedules', 'ORG_SCHEDULE_READ', 'List the schedules of the organization'],
    ['orgSchedules.update', 'PATCH', '/v2/organizations/:orgId/schedules/:scheduleId', 'ORG_SCHEDULE_WRITE', 'Change any schedule in the organization'],
    ['orgSchedules.delete', 'DELETE', '/v2/organizations/:orgId/schedules/:scheduleId', 'ORG_SCHEDULE_WRITE', 'Delete any schedule in the organization'],
    ['orgUserSchedules.list', 'GET', '/v2/organizations/:orgId/users/:userId/schedules', 'ORG_SCHEDULE_READ', "List an organization member's schedules"],
    ['orgUserSchedules.create', 'POST', '/v2/organizations/:orgId/users/:userId/schedules', 'ORG_SCHEDULE_WRITE', 'Create a schedule for an organization member'],
    ['orgUserSchedules.get', 'GET', '/v2/organizations/:orgId/users/:userId/schedules/:scheduleId', 'ORG_SCHEDULE_READ', "Read an organization member's schedule"],
    ['orgUserSchedules.update', 'PATCH', '/v2/organizations/:orgId/users/:userId/schedules/:scheduleId', 'ORG_SCHEDULE_WRITE', "Change an organization member's schedule"],
    ['orgUserSchedules.delete', 'DELETE', '/v2/organizations/:orgId/users/:userId/schedules/:scheduleId', 'ORG_SCHEDULE_WRITE', "Delete an organization member's schedule"],
  ]),
];
