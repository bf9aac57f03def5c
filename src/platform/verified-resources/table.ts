// The rows of the route registry (src/platform/route-table.ts) this resource serves: method,
// path, scope and membership rule of each route. Pure data.
import { routeRows, teamRule, type ApiRoute } from '../route.ts';

export const verifiedResourceRoutes: ApiRoute[] = [
  ...routeRows('personal', 'Verified resources', 'self', [
    ['verifiedEmails.list', 'GET', '/v2/verified-resources/emails', 'VERIFIED_RESOURCES_READ', 'List your verified email addresses'],
    ['verifiedPhones.list', 'GET', '/v2/verified-resources/phones', 'VERIFIED_RESOURCES_READ', 'List your verified phone numbers'],
    ['verifiedEmails.request', 'POST', '/v2/verified-resources/emails/verification-code/request', 'VERIFIED_RESOURCES_WRITE', 'Send a verification code to an email address'],
    ['verifiedEmails.verify', 'POST', '/v2/verified-resources/emails/verification-code/verify', 'VERIFIED_RESOURCES_WRITE', 'Verify an email address with its code'],
    ['verifiedPhones.request', 'POST', '/v2/verified-resources/phones/verification-code/request', 'VERIFIED_RESOURCES_WRITE', 'Send a verification code to a phone number'],
    ['verifiedPhones.verify', 'POST', '/v2/verified-resources/phones/verification-code/verify', 'VERIFIED_RESOURCES_WRITE', 'Verify a phone number with its code'],
  ]),
  ...routeRows('team', 'Team verified resources', teamRule, [
    ['teamVerifiedEmails.list', 'GET', '/v2/teams/:teamId/verified-resources/emails', 'TEAM_VERIFIED_RESOURCES_READ', "List a team's verified email addresses"],
    ['teamVerifiedPhones.list', 'GET', '/v2/teams/:teamId/verified-resources/phones', 'TEAM_VERIFIED_RESOURCES_READ', "List a team's verified phone numbers"],
    ['teamVerifiedEmails.request', 'POST', '/v2/teams/:teamId/verified-resources/emails/verification-code/request', 'TEAM_VERIFIED_RESOURCES_WRITE', 'Send a verification code to an email address for the team'],
    ['teamVerifiedEmails.verify', 'POST', '/v2/teams/:teamId/verified-resources/emails/verification-code/verify', 'TEAM_VERIFIED_RESOURCES_WRITE', 'Verify an email address for the team'],
    ['teamVerifiedPhones.request', 'POST', '/v2/teams/:teamId/verified-resources/phones/verification-code/request', 'TEAM_VERIFIED_RESOURCES_WRITE', 'Send a verification code to a phone number for the team'],
    ['teamVerifiedPhones.verify', 'POST', '/v2/teams/:teamId/verified-resources/phones/verification-code/verify', 'TEAM_VERIFIED_RESOURCES_WRITE', 'Verify a phone number for the team'],
  ]),
];
