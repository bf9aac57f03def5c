// What a webhook's create and change take, as the request schema states it: shared by the
// webhooks of users and organizations (routes.ts) and of event types (event-type-routes.ts).
// What a schema cannot state (the subscriber's address, the secret) the service checks
// (service.ts).
import { arrayOf, bool, nullable, str } from '../schemas.ts';

const TRIGGERS = [
  'BOOKING_CREATED',
  'BOOKING_REQUESTED',
  'BOOKING_CONFIRMED',
  'BOOKING_REJECTED',
  'BOOKING_RESCHEDULED',
  'BOOKING_CANCELLED',
  'MEETING_STARTED',
  'MEETING_ENDED',
  'FORM_SUBMITTED',
];

export const fields = {
  subscriberUrl: str(1, 2048),
  triggers: { ...arrayOf({ type: 'string', enum: TRIGGERS }, 1, 20), uniqueItems: true },
  active: bool,
  payloadTemplate: nullable(str(0, 10_000)),
};
