// The rows of the route registry (src/platform/route-table.ts) this resource serves. Pure data.
import { routeRows, type ApiRoute } from '../route.ts';

export const slotRoutes: ApiRoute[] = [
  // docs/integrating.md#slots: as on the platform, anyone may ask when an event type is free;
  // the answer acts for nobody, so a token, if sent, changes nothing.
  ...routeRows('public', 'Slots', 'none', [['slots.list', 'GET', '/v2/slots', 'public', "An event type's free slots between two dates, in a time zone (no token needed)"]]).map((r) => ({
    ...r,
    scope: 'public' as const,
  })),
];
