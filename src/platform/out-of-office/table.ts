// The rows of the route registry (src/platform/route-table.ts) this resource serves: method,
// path, scope and membership rule of each route. Pure data. Whose entries a team or an
// organization route reaches is docs/rules.md#out-of-office: the path's user must be an
// accepted member there, which the handlers decide.
import { routeRows, teamRule, type ApiRoute } from '../route.ts';

export const outOfOfficeRoutes: ApiRoute[] = [
  ...routeRows('personal', 'Out of office', 'self', [
    ['ooo.list', 'GET', '/v2/me/ooo', 'SCHEDULE_READ', 'List your out-of-office entries'],
    ['ooo.create', 'POST', '/v2/me/ooo', 'SCHEDULE_WRITE', 'Say when you are out of office, and who covers'],
    ['ooo.update', 'PATCH', '/v2/me/ooo/:oooId', 'SCHEDULE_WRITE', 'Change one of your out-of-office entries'],
    ['ooo.delete', 'DELETE', '/v2/me/ooo/:oooId', 'SCHEDULE_WRITE', 'Delete one of your out-of-office entries'],
  ]),
  ...routeRows('team', 'Team out of office', teamRule, [
    ['teamOoo.list', 'GET', '/v2/teams/:teamId/users/:userId/ooo', 'TEAM_SCHEDULE_READ', "List a team member's out-of-office entries"],
    ['teamOoo.create', 'POST', '/v2/teams/:teamId/users/:userId/ooo', 'TEAM_SCHEDULE_WRITE', 'Create an out-of-office entry for a team member'],
    ['teamOoo.update', 'PATCH', '/v2/teams/:teamId/users/:userId/ooo/:oooId', 'TEAM_SCHEDULE_WRITE', "Change a team member's out-of-office entry"],
    ['teamOoo.delete', 'DELETE', '/v2/teams/:teamId/users/:userId/ooo/:oooId', 'TEAM_SCHEDULE_WRITE', "Delete a team member's out-of-office entry"],
  ]),
  ...routeRows('organization', 'Organizations', 'org-admin', [
    ['orgOoo.listAll', 'GET', '/v2/organizations/:orgId/ooo', 'ORG_SCHEDULE_READ', "List the out-of-office entries of the organization's users"],
    ['orgOoo.list', 'GET', '/v2/organizations/:orgId/users/:userId/ooo', 'ORG_SCHEDULE_READ', "List an organization user's out-of-office entries"],
    ['orgOoo.create', 'POST', '/v2/organizations/:orgId/users/:userId/ooo', 'ORG_SCHEDULE_WRITE', 'Create an out-of-office entry for an organization user'],
    ['orgOoo.update', 'PATCH', '/v2/organizations/:orgId/users/:userId/ooo/:oooId', 'ORG_SCHEDULE_WRITE', "Change an organization user's out-of-office entry"],
    ['orgOoo.delete', 'DELETE', '/v2/organizations/:orgId/users/:userId/ooo/:oooId', 'ORG_SCHEDULE_WRITE', "Delete an organization user's out-of-office entry"],
  ]),
];
