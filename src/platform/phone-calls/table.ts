// The rows of the route registry (src/platform/route-table.ts) this resource serves: method,
// path, scope and membership rule of each route. Pure data.
import { routeRows, teamRule, type ApiRoute } from '../route.ts';

export const phoneCallRoutes: ApiRoute[] = [
  ...routeRows('team', 'Team event types', teamRule, [
    [
      'teamEventTypes.createPhoneCall',
      'POST',
      '/v2/teams/:teamId/event-types/:eventTypeId/create-phone-call',
      'TEAM_EVENT_TYPE_WRITE',
      'Ask for an outbound call offering a team event type: queued for the operator, as Gatehouse runs no phone provider',
    ],
  ]),
];
