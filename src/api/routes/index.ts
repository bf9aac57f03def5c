// Every handler of the /v2 resource routes, keyed by the registry's handler ids
// (src/api/route-table.ts). One file per resource; the registrar checks both lists match.
import type { AppContext } from '../../http/context.ts';
import type { HandlerMap } from '../handler.ts';
import { bookingHandlers } from './bookings.ts';
import { calendarHandlers } from './calendars.ts';
import { eventTypeHandlers } from './event-types.ts';
import { meHandlers } from './me.ts';
import { membershipHandlers } from './memberships.ts';
import { routingFormHandlers } from './routing-forms.ts';
import { scheduleHandlers } from './schedules.ts';
import { teamHandlers } from './teams.ts';
import { verifiedResourceHandlers } from './verified-resources.ts';
import { webhookHandlers } from './webhooks.ts';
import { workflowHandlers } from './workflows.ts';

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
