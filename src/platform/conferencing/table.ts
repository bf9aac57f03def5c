// The rows of the route registry (src/platform/route-table.ts) this resource serves: method,
// path, scope and membership rule of each route. Pure data.
import { routeRows } from '../route.ts';

export const conferencingRoutes = routeRows('personal', 'Conferencing', 'self', [
  ['conferencing.list', 'GET', '/v2/conferencing', 'APPS_READ', 'List your conferencing apps'],
  ['conferencing.getDefault', 'GET', '/v2/conferencing/default', 'APPS_READ', 'Your default conferencing app'],
  ['conferencing.connect', 'POST', '/v2/conferencing/:app/connect', 'APPS_WRITE', 'Connect a conferencing app (recorded: Gatehouse runs no video provider)'],
  ['conferencing.authUrl', 'GET', '/v2/conferencing/:app/oauth/auth-url', 'APPS_WRITE', "The address of a page where your user confirms connecting Zoom or Microsoft Teams (in place of the provider's OAuth, which Gatehouse does not run)"],
  ['conferencing.setDefault', 'POST', '/v2/conferencing/:app/default', 'APPS_WRITE', 'Make a connected conferencing app your default'],
  ['conferencing.disconnect', 'DELETE', '/v2/conferencing/:app/disconnect', 'APPS_WRITE', 'Disconnect a conferencing app'],
]);
