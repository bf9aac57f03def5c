// The rows of the route registry (src/platform/route-table.ts) this resource serves: method,
// path, scope and membership rule of each route. Pure data.
import { routeRows, teamRule, type ApiRoute } from '../route.ts';

export const membershipRoutes: ApiRoute[] = [
  ...routeRows('team', 'Team memberships', teamRule, [
    ['teamMemberships.list', 'GET', '/v2/teams/:teamId/memberships', 'TEAM_MEMBERSHIP_READ', "List a team's members and pending invitations, with their roles"],
    ['teamMemberships.create', 'POST', '/v2/teams/:teamId/memberships', 'TEAM_MEMBERSHIP_WRITE', 'Invite a user to a team: a membership once they accept in the web app'],
    ['teamMemberships.get', 'GET', '/v2/teams/:teamId/memberships/:membershipId', 'TEAM_MEMBERSHIP_READ', 'Read one team membership or invitation'],
    ['teamMemberships.update', 'PATCH', '/v2/teams/:teamId/memberships/:membershipId', 'TEAM_MEMBERSHIP_WRITE', "Change a member's or an invitation's role"],
    ['teamMemberships.delete', 'DELETE', '/v2/teams/:teamId/memberships/:membershipId', 'TEAM_MEMBERSHIP_WRITE', 'Remove a member from a team, or withdraw an invitation'],
    ['teamInvite.create', 'POST', '/v2/teams/:teamId/invite', 'TEAM_MEMBERSHIP_WRITE', "Make an invite link: whoever opens it signed in may join the team as a member, for 7 days, while its maker administers the team and this token's grant stands"],
  ]),
  ...routeRows('organization', 'Organizations', 'org-admin', [
    ['orgMemberships.list', 'GET', '/v2/organizations/:orgId/memberships', 'ORG_MEMBERSHIP_READ', "List the organization's memberships and pending invitations"],
    ['orgMemberships.create', 'POST', '/v2/organizations/:orgId/memberships', 'ORG_MEMBERSHIP_WRITE', 'Invite a user to the organization: a membership once they accept in the web app'],
    ['orgMemberships.get', 'GET', '/v2/organizations/:orgId/memberships/:membershipId', 'ORG_MEMBERSHIP_READ', 'Read one organization membership or invitation'],
    ['orgMemberships.update', 'PATCH', '/v2/organizations/:orgId/memberships/:membershipId', 'ORG_MEMBERSHIP_WRITE', "Change an organization member's or invitation's role"],
    ['orgMemberships.delete', 'DELETE', '/v2/organizations/:orgId/memberships/:membershipId', 'ORG_MEMBERSHIP_WRITE', 'Remove a user from the organization, or withdraw an invitation'],
    ['orgUsers.list', 'GET', '/v2/organizations/:orgId/users', 'ORG_MEMBERSHIP_READ', "List the organization's users"],
    ['orgUsers.create', 'POST', '/v2/organizations/:orgId/users', 'ORG_MEMBERSHIP_WRITE', 'Create an account as a member of the organization; it has no password until an operator sets one'],
    ['orgUsers.update', 'PATCH', '/v2/organizations/:orgId/users/:userId', 'ORG_MEMBERSHIP_WRITE', "Change an organization user's profile"],
    ['orgUsers.delete', 'DELETE', '/v2/organizations/:orgId/users/:userId', 'ORG_MEMBERSHIP_WRITE', "Delete an account the organization made and that belongs nowhere else; any other user is removed from the organization"],
  ]),
];
