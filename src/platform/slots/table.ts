// The rows of the route registry (src/platform/route-table.ts) this resource serves. Pure data.
import { routeRows, type ApiRoute } from '../route.ts';

export const slotRoutes: ApiRoute[] = [
  // docs/integrating.md#slots: as on the platform, anyone may ask when an event type is free;
  // the answer acts for nobody, so a token, if sent, changes nothing.
  ...routeRows('public', 'Slots', 'none', [['slots.list', 'GET', '/v2/slots', 'public', "An event type's free slots between two dates, in a time zone (no token needed)"]]).map((r) => ({
    ...r,
    scope: 'public' as const,
  })),
  // docs/integrating.md#slot-reservations: public as on the platform; the hold's uid is its holder's proof.
  ...routeRows('public', 'Slots', 'none', [
    ['slotReservations.create', 'POST', '/v2/slots/reservations', 'public', 'Hold a free slot for a few minutes: nobody else is offered or books it meanwhile (no token needed)'],
    ['slotReservations.get', 'GET', '/v2/slots/reservations/:uid', 'public', 'Read a hold by its uid (no token needed)'],
    ['slotReservations.update', 'PATCH', '/v2/slots/reservations/:uid', 'public', 'Move a hold to another free slot, held afresh (no token needed)'],
    ['slotReservations.delete', 'DELETE', '/v2/slots/reservations/:uid', 'public', 'Release a hold (no token needed)'],
  ]).map((r) => ({ ...r, scope: 'public' as const })),
];
