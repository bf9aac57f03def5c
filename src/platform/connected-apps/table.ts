// The rows of the route registry (src/platform/route-table.ts) this resource serves: method,
// path, scope and membership rule of each route. Pure data.
import { routeRows, teamRule, type ApiRoute } from '../route.ts';

export const connectedAppRoutes: ApiRoute[] = [
  ...routeRows('personal', 'Calendars', 'self', [
    ['calendars.list', 'GET', '/v2/calendars', 'APPS_READ', 'List your connected calendars and ICS feeds'],
    ['calendars.busyTimes', 'GET', '/v2/calendars/busy-times', 'APPS_READ', 'Your busy times in a period'],
    ['calendars.checkIcsFeed', 'GET', '/v2/calendars/ics-feed/check', 'APPS_READ', 'Check an ICS feed address before saving it'],
    ['calendars.saveIcsFeed', 'POST', '/v2/calendars/ics-feed/save', 'APPS_WRITE', 'Save ICS feeds'],
    ['calendars.check', 'GET', '/v2/calendars/:provider/check', 'APPS_READ', 'Verify your connection to a calendar provider'],
    ['calendars.connect', 'POST', '/v2/calendars/:provider/connect', 'APPS_WRITE', 'Connect a calendar account'],
    ['calendars.oauthConnect', 'GET', '/v2/calendars/:provider/connect', 'APPS_WRITE', "The address of a page where your user confirms the calendar account to connect (in place of the provider's OAuth, which Gatehouse does not run)"],
    ['calendars.saveCredentials', 'POST', '/v2/calendars/:provider/credentials', 'APPS_WRITE', 'Connect an Apple calendar account: its name is kept, its password never'],
    ['calendars.disconnect', 'POST', '/v2/calendars/:provider/disconnect', 'APPS_WRITE', 'Disconnect a calendar account'],
  ]),
  ...routeRows('personal', 'Selected calendars', 'self', [
    ['selectedCalendars.add', 'POST', '/v2/selected-calendars', 'APPS_WRITE', 'Select one of your calendars for conflict checks'],
    ['selectedCalendars.delete', 'DELETE', '/v2/selected-calendars', 'APPS_WRITE', 'Unselect one of your calendars'],
  ]),
  ...routeRows('personal', 'Destination calendars', 'self', [
    ['destinationCalendars.update', 'PUT', '/v2/destination-calendars', 'APPS_WRITE', 'Choose the calendar new events are written to'],
  ]),
  ...routeRows('team', 'Team apps', teamRule, [
    ['teamApps.list', 'GET', '/v2/teams/:teamId/apps', 'TEAM_APPS_READ', "List a team's connected apps"],
    ['teamApps.connect', 'POST', '/v2/teams/:teamId/apps/:app/connect', 'TEAM_APPS_WRITE', 'Connect an app to a team'],
    ['teamApps.disconnect', 'POST', '/v2/teams/:teamId/apps/:app/disconnect', 'TEAM_APPS_WRITE', 'Disconnect an app from a team'],
  ]),
];
