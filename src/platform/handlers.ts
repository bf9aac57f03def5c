// Every handler of the /v2 resource routes, keyed by the registry's handler ids
// (src/platform/route-table.ts). One file per resource; the registrar checks both lists match.
import type { AppContext } from '../context.ts';
import type { HandlerMap } from './handler.ts';
import { bookingHandlers } from './bookings/routes.ts';
import { calendarHandlers } from './calendars/routes.ts';
import { eventTypeHandlers } from './event-types/routes.ts';
import { meHandlers } from './me/routes.ts';
import { membershipHandlers } from './memberships/routes.ts';
import { routingFormHandlers } from './routing-forms/routes.ts';
import { scheduleHandlers } from './schedules/routes.ts';
import { teamHandlers } from './teams/routes.ts';
import { verifiedResourceHandlers } from './verified-resources/routes.ts';
import { webhookHandlers } from './webhooks/routes.ts';
import { workflowHandlers } from './workflows/routes.ts';

export function allHandlers(deps: AppContext): HandlerMap {
  return {
    ...meHandlers(deps),
    ...eventTypeHandlers(deps),
    ...bookingHandlers(deps),
    ...scheduleHandlers(deps),
    ...calendarHandlers(deps),
    ...webhookHandlers(deps),
    ...verifiedResourceHandlers(deps),
    ...teamHandlers(deps),
    ...membershipHandlers(deps),
    ...routingFormHandlers(deps),
    ...workflowHandlers(deps),
  };
}
