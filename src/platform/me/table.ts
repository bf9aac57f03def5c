// The rows of the route registry (src/platform/route-table.ts) this resource serves: method,
// path, scope and membership rule of each route. Pure data.
import { routeRows, type ApiRoute } from '../route.ts';

export const meRoutes: ApiRoute[] = [
  ...routeRows('personal', 'Profile', 'self', [
    ['me.get', 'GET', '/v2/me', 'PROFILE_READ', "Read the authorized user's profile"],
    ['me.update', 'PATCH', '/v2/me', 'PROFILE_WRITE', "Change the authorized user's name, time zone, week start, time format, default schedule, biography, avatar, locale or metadata; ask for a new sign-in address, which the user confirms in the web app"],
  ]),
];
