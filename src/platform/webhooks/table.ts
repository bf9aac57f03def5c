// The rows of the route registry (src/platform/route-table.ts) this resource serves: method,
// path, scope and membership rule of each route. Pure data.
import { routeRows, teamRule, type ApiRoute } from '../route.ts';

/**
 * An event type's webhook hears its bookings, attendees included (docs/rules.md#event-type-webhooks):
 * making or pointing one, and reading or resending what it was sent, needs the booking read
 * scope of the event type's family too.
 */
const HEARS_BOOKINGS: Record<string, string> = {
  'eventTypeWebhooks.create': 'BOOKING_READ',
  'eventTypeWebhooks.update': 'BOOKING_READ',
  'eventTypeWebhooks.deliveries': 'BOOKING_READ',
  'eventTypeWebhooks.redeliver': 'BOOKING_READ',
  'teamEventTypeWebhooks.create': 'TEAM_BOOKING_READ',
  'teamEventTypeWebhooks.update': 'TEAM_BOOKING_READ',
  'teamEventTypeWebhooks.deliveries': 'TEAM_BOOKING_READ',
  'teamEventTypeWebhooks.redeliver': 'TEAM_BOOKING_READ',
};

const rows: ApiRoute[] = [
  ...routeRows('personal', 'Webhooks', 'self', [
    ['webhooks.list', 'GET', '/v2/webhooks', 'WEBHOOK_READ', 'List your webhooks'],
    ['webhooks.create', 'POST', '/v2/webhooks', 'WEBHOOK_WRITE', 'Create a webhook'],
    ['webhooks.get', 'GET', '/v2/webhooks/:webhookId', 'WEBHOOK_READ', 'Read one of your webhooks'],
    ['webhooks.update', 'PATCH', '/v2/webhooks/:webhookId', 'WEBHOOK_WRITE', 'Change one of your webhooks'],
    ['webhooks.delete', 'DELETE', '/v2/webhooks/:webhookId', 'WEBHOOK_WRITE', 'Delete one of your webhooks'],
    ['webhooks.deliveries', 'GET', '/v2/webhooks/:webhookId/deliveries', 'WEBHOOK_READ', "One of your webhooks' recent deliveries, newest first"],
    ['webhooks.redeliver', 'POST', '/v2/webhooks/:webhookId/deliveries/:deliveryId/redeliver', 'WEBHOOK_WRITE', 'Send a delivery again, as a new message'],
  ]),
  // An event type's webhooks go with its scopes and its owner's rules (docs/rules.md#webhooks).
  ...routeRows('personal', 'Event types', 'self', [
    ['eventTypeWebhooks.list', 'GET', '/v2/event-types/:eventTypeId/webhooks', 'EVENT_TYPE_READ', "List an event type's webhooks"],
    ['eventTypeWebhooks.create', 'POST', '/v2/event-types/:eventTypeId/webhooks', 'EVENT_TYPE_WRITE', "Create a webhook that hears of an event type's bookings"],
    ['eventTypeWebhooks.deleteAll', 'DELETE', '/v2/event-types/:eventTypeId/webhooks', 'EVENT_TYPE_WRITE', "Delete all of an event type's webhooks"],
    ['eventTypeWebhooks.get', 'GET', '/v2/event-types/:eventTypeId/webhooks/:webhookId', 'EVENT_TYPE_READ', "Read one of an event type's webhooks"],
    ['eventTypeWebhooks.update', 'PATCH', '/v2/event-types/:eventTypeId/webhooks/:webhookId', 'EVENT_TYPE_WRITE', "Change one of an event type's webhooks"],
    ['eventTypeWebhooks.delete', 'DELETE', '/v2/event-types/:eventTypeId/webhooks/:webhookId', 'EVENT_TYPE_WRITE', "Delete one of an event type's webhooks"],
    ['eventTypeWebhooks.deliveries', 'GET', '/v2/event-types/:eventTypeId/webhooks/:webhookId/deliveries', 'EVENT_TYPE_READ', "An event type webhook's recent deliveries, newest first"],
    ['eventTypeWebhooks.redeliver', 'POST', '/v2/event-types/:eventTypeId/webhooks/:webhookId/deliveries/:deliveryId/redeliver', 'EVENT_TYPE_WRITE', "Send an event type webhook's delivery again, as a new message"],
  ]),
  ...routeRows('team', 'Team event types', teamRule, [
    ['teamEventTypeWebhooks.list', 'GET', '/v2/teams/:teamId/event-types/:eventTypeId/webhooks', 'TEAM_EVENT_TYPE_READ', "List a team event type's webhooks"],
    ['teamEventTypeWebhooks.create', 'POST', '/v2/teams/:teamId/event-types/:eventTypeId/webhooks', 'TEAM_EVENT_TYPE_WRITE', "Create a webhook that hears of a team event type's bookings"],
    ['teamEventTypeWebhooks.deleteAll', 'DELETE', '/v2/teams/:teamId/event-types/:eventTypeId/webhooks', 'TEAM_EVENT_TYPE_WRITE', "Delete all of a team event type's webhooks"],
    ['teamEventTypeWebhooks.get', 'GET', '/v2/teams/:teamId/event-types/:eventTypeId/webhooks/:webhookId', 'TEAM_EVENT_TYPE_READ', "Read one of a team event type's webhooks"],
    ['teamEventTypeWebhooks.update', 'PATCH', '/v2/teams/:teamId/event-types/:eventTypeId/webhooks/:webhookId', 'TEAM_EVENT_TYPE_WRITE', "Change one of a team event type's webhooks"],
    ['teamEventTypeWebhooks.delete', 'DELETE', '/v2/teams/:teamId/event-types/:eventTypeId/webhooks/:webhookId', 'TEAM_EVENT_TYPE_WRITE', "Delete one of a team event type's webhooks"],
    ['teamEventTypeWebhooks.deliveries', 'GET', '/v2/teams/:teamId/event-types/:eventTypeId/webhooks/:webhookId/deliveries', 'TEAM_EVENT_TYPE_READ', "A team event type webhook's recent deliveries, newest first"],
    ['teamEventTypeWebhooks.redeliver', 'POST', '/v2/teams/:teamId/event-types/:eventTypeId/webhooks/:webhookId/deliveries/:deliveryId/redeliver', 'TEAM_EVENT_TYPE_WRITE', "Send a team event type webhook's delivery again, as a new message"],
  ]),
  ...routeRows('organization', 'Organizations', 'org-admin', [
    ['orgWebhooks.list', 'GET', '/v2/organizations/:orgId/webhooks', 'ORG_WEBHOOK_READ', "List the organization's webhooks"],
    ['orgWebhooks.create', 'POST', '/v2/organizations/:orgId/webhooks', 'ORG_WEBHOOK_WRITE', 'Create an organization webhook'],
    ['orgWebhooks.get', 'GET', '/v2/organizations/:orgId/webhooks/:webhookId', 'ORG_WEBHOOK_READ', 'Read an organization webhook'],
    ['orgWebhooks.update', 'PATCH', '/v2/organizations/:orgId/webhooks/:webhookId', 'ORG_WEBHOOK_WRITE', 'Change an organization webhook'],
    ['orgWebhooks.delete', 'DELETE', '/v2/organizations/:orgId/webhooks/:webhookId', 'ORG_WEBHOOK_WRITE', 'Delete an organization webhook'],
    ['orgWebhooks.deliveries', 'GET', '/v2/organizations/:orgId/webhooks/:webhookId/deliveries', 'ORG_WEBHOOK_READ', "An organization webhook's recent deliveries, newest first"],
    ['orgWebhooks.redeliver', 'POST', '/v2/organizations/:orgId/webhooks/:webhookId/deliveries/:deliveryId/redeliver', 'ORG_WEBHOOK_WRITE', 'Send an organization webhook delivery again, as a new message'],
  ]),
];

export const webhookRoutes: ApiRoute[] = rows.map((r) => (HEARS_BOOKINGS[r.id] === undefined ? r : { ...r, alsoNeeds: HEARS_BOOKINGS[r.id] }));
