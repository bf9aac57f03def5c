// The rows of the route registry (src/platform/route-table.ts) this resource serves: method,
// path, scope and membership rule of each route. Pure data.
import { routeRows, teamRule, type ApiRoute } from '../route.ts';

export const routingFormRoutes: ApiRoute[] = [
  ...routeRows('team', 'Team routing forms', teamRule, [
    ['teamRoutingForms.list', 'GET', '/v2/teams/:teamId/routing-forms', 'TEAM_ROUTING_FORM_READ', "List a team's routing forms"],
    ['teamRoutingForms.create', 'POST', '/v2/teams/:teamId/routing-forms', 'TEAM_ROUTING_FORM_WRITE', 'Create a team routing form'],
    ['teamRoutingForms.get', 'GET', '/v2/teams/:teamId/routing-forms/:formId', 'TEAM_ROUTING_FORM_READ', 'Read a team routing form'],
    ['teamRoutingForms.listResponses', 'GET', '/v2/teams/:teamId/routing-forms/:formId/responses', 'TEAM_ROUTING_FORM_READ', "List a routing form's responses"],
    ['teamRoutingForms.createResponse', 'POST', '/v2/teams/:teamId/routing-forms/:formId/responses', 'TEAM_ROUTING_FORM_WRITE', 'Record a routing form response'],
    ['teamRoutingForms.updateResponse', 'PATCH', '/v2/teams/:teamId/routing-forms/:formId/responses/:responseId', 'TEAM_ROUTING_FORM_WRITE', 'Change a routing form response'],
    ['teamRoutingForms.deleteResponse', 'DELETE', '/v2/teams/:teamId/routing-forms/:formId/responses/:responseId', 'TEAM_ROUTING_FORM_WRITE', 'Delete a routing form response'],
  ]),
  ...routeRows('organization', 'Organizations', 'org-admin', [
    ['orgRoutingForms.list', 'GET', '/v2/organizations/:orgId/routing-forms', 'ORG_ROUTING_FORM_READ', "List the organization's routing forms"],
    ['orgRoutingForms.create', 'POST', '/v2/organizations/:orgId/routing-forms', 'ORG_ROUTING_FORM_WRITE', 'Create an organization routing form'],
    ['orgRoutingForms.listResponses', 'GET', '/v2/organizations/:orgId/routing-forms/:formId/responses', 'ORG_ROUTING_FORM_READ', "List an organization routing form's responses"],
    ['orgRoutingForms.createResponse', 'POST', '/v2/organizations/:orgId/routing-forms/:formId/responses', 'ORG_ROUTING_FORM_WRITE', 'Record an organization routing form response'],
  ]),
];
