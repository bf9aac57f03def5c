// The rows of the route registry (src/platform/route-table.ts) this resource serves: method,
// path, scope and membership rule of each route. Pure data.
import { routeRows, teamRule, type ApiRoute } from '../route.ts';

export const workflowRoutes: ApiRoute[] = [
  ...routeRows('team', 'Team workflows', teamRule, [
    ['teamWorkflows.list', 'GET', '/v2/teams/:teamId/workflows', 'TEAM_WORKFLOW_READ', "List a team's workflows"],
    ['teamWorkflows.create', 'POST', '/v2/teams/:teamId/workflows', 'TEAM_WORKFLOW_WRITE', 'Create a team workflow'],
    ['teamWorkflows.get', 'GET', '/v2/teams/:teamId/workflows/:workflowId', 'TEAM_WORKFLOW_READ', 'Read a team workflow'],
    ['teamWorkflows.update', 'PATCH', '/v2/teams/:teamId/workflows/:workflowId', 'TEAM_WORKFLOW_WRITE', 'Change a team workflow'],
    ['teamWorkflows.delete', 'DELETE', '/v2/teams/:teamId/workflows/:workflowId', 'TEAM_WORKFLOW_WRITE', 'Delete a team workflow'],
  ]),
];
