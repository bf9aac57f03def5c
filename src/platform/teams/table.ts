// The rows of the route registry (src/platform/route-table.ts) this resource serves: method,
// path, scope and membership rule of each route. Pure data.
import { routeRows, teamRule, type ApiRoute } from '../route.ts';

export const teamRoutes: ApiRoute[] = [
  // Creating a team acts on the token's user, who becomes its owner. A team's token lists its one team.
  ...routeRows('personal', 'Teams', 'self', [
    ['teams.list', 'GET', '/v2/teams', 'TEAM_PROFILE_READ', 'List the teams you are a member of'],
    ['teams.create', 'POST', '/v2/teams', 'TEAM_PROFILE_WRITE', 'Create a team you own'],
  ]).map((r) => (r.id === 'teams.list' ? { ...r, teamTokens: 'own-team' as const } : r)),
  ...routeRows('team', 'Teams', teamRule, [
    ['teams.get', 'GET', '/v2/teams/:teamId', 'TEAM_PROFILE_READ', "Read a team's profile"],
    ['teams.update', 'PATCH', '/v2/teams/:teamId', 'TEAM_PROFILE_WRITE', "Change a team's profile"],
    ['teams.delete', 'DELETE', '/v2/teams/:teamId', 'TEAM_PROFILE_WRITE', 'Delete a team (its owner, or an organization admin)'],
  ]),
  ...routeRows('organization', 'Organizations', 'org-admin', [
    ['orgTeams.list', 'GET', '/v2/organizations/:orgId/teams', 'ORG_PROFILE_READ', "List the organization's teams"],
    ['orgTeams.create', 'POST', '/v2/organizations/:orgId/teams', 'ORG_PROFILE_WRITE', 'Create a team in the organization'],
  ]),
  // A member's own view of the organization: any member may ask which of its teams they are in.
  // A fixed segment beside the parameter: the router serves it before …/teams/:teamId.
  ...routeRows('organization', 'Organizations', 'org-member', [
    ['orgTeams.mine', 'GET', '/v2/organizations/:orgId/teams/me', 'ORG_PROFILE_READ', 'List the teams of the organization you are a member of'],
  ]),
];

/**
 * The team routes that need an organization scope at the organization's address
 * (/v2/organizations/:orgId/teams/:teamId): renaming or deleting a team there takes
 * ORG_PROFILE_WRITE, as Cal.com API v2 does (docs/rules.md#scope-registry), so a team-only
 * token changes its team at /v2/teams/:teamId alone. Who may act stays the team rule: an
 * admin or owner of the team or of its organization.
 */
export const organizationScopesOfTeamRoutes: Record<string, Pick<ApiRoute, 'scope'>> = {
  'teams.update': { scope: 'ORG_PROFILE_WRITE' },
  'teams.delete': { scope: 'ORG_PROFILE_WRITE' },
};
