// The resources of the /v2 platform API, one line each: the rows of the route registry each
// serves (its `table.ts`) and the handlers that serve them (its `routes.ts`). Adding a
// resource is a folder src/platform/<resource>/ and a line here (ARCHITECTURE.md, "How to
// add…"). The order is the order of the reference and of docs/integrating.md's scope tables.
import type { PlatformDeps } from './deps.ts';
import type { HandlerMap } from './handler.ts';
import type { ApiRoute } from './route.ts';
import { bookingHandlers } from './bookings/routes.ts';
import { bookingRoutes } from './bookings/table.ts';
import { calendarHandlers } from './connected-apps/routes.ts';
import { connectedAppRoutes } from './connected-apps/table.ts';
import { conferencingHandlers } from './conferencing/routes.ts';
import { conferencingRoutes } from './conferencing/table.ts';
import { eventTypeHandlers } from './event-types/routes.ts';
import { eventTypeRoutes } from './event-types/table.ts';
import { meHandlers } from './me/routes.ts';
import { meRoutes } from './me/table.ts';
import { membershipHandlers } from './memberships/routes.ts';
import { membershipRoutes } from './memberships/table.ts';
import { outOfOfficeHandlers } from './out-of-office/routes.ts';
import { outOfOfficeRoutes } from './out-of-office/table.ts';
import { phoneCallHandlers } from './phone-calls/routes.ts';
import { phoneCallRoutes } from './phone-calls/table.ts';
import { routingFormHandlers } from './routing-forms/routes.ts';
import { routingFormRoutes } from './routing-forms/table.ts';
import { scheduleHandlers } from './schedules/routes.ts';
import { scheduleRoutes } from './schedules/table.ts';
import { slotHandlers } from './slots/routes.ts';
import { slotRoutes } from './slots/table.ts';
import { teamHandlers } from './teams/routes.ts';
import { teamRoutes } from './teams/table.ts';
import { verifiedResourceHandlers } from './verified-resources/routes.ts';
import { verifiedResourceRoutes } from './verified-resources/table.ts';
import { webhookHandlers } from './webhooks/routes.ts';
import { webhookRoutes } from './webhooks/table.ts';
import { workflowHandlers } from './workflows/routes.ts';
import { workflowRoutes } from './workflows/table.ts';

export interface PlatformResource {
  routes: ApiRoute[];
  handlers: (deps: PlatformDeps) => HandlerMap;
}

export const resources: readonly PlatformResource[] = [
  { routes: meRoutes, handlers: meHandlers },
  { routes: eventTypeRoutes, handlers: eventTypeHandlers },
  { routes: bookingRoutes, handlers: bookingHandlers },
  { routes: scheduleRoutes, handlers: scheduleHandlers },
  { routes: slotRoutes, handlers: slotHandlers },
  { routes: outOfOfficeRoutes, handlers: outOfOfficeHandlers },
  { routes: connectedAppRoutes, handlers: calendarHandlers },
  { routes: conferencingRoutes, handlers: conferencingHandlers },
  { routes: webhookRoutes, handlers: webhookHandlers },
  { routes: phoneCallRoutes, handlers: phoneCallHandlers },
  { routes: verifiedResourceRoutes, handlers: verifiedResourceHandlers },
  { routes: teamRoutes, handlers: teamHandlers },
  { routes: membershipRoutes, handlers: membershipHandlers },
  { routes: routingFormRoutes, handlers: routingFormHandlers },
  { routes: workflowRoutes, handlers: workflowHandlers },
];
