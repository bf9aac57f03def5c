// A user's conferencing apps (docs/integrating.md#conferencing-apps): connections of category
// 'conferencing' in connected_apps, and the one of them that is the user's default. Records
// only: Gatehouse runs no video provider and none of their OAuth, so it keeps no provider
// token and never reports a connection it did not record.
import type { PlatformDeps } from '../deps.ts';
import { returnAddressCheck, requestConnection } from '../connection-requests/service.ts';
import { route, type HandlerMap } from '../handler.ts';
import { iso } from '../input.ts';
import { arrayOf, bool, numberedId, object, type JsonSchema } from '../schemas.ts';
import {
  CONFERENCING_APPS as APPS,
  connectConferencingApp,
  defaultConferencingApp,
  disconnectConferencingApp,
  listConferencingApps,
  setDefaultConferencingApp,
  type NewConnectedApp,
} from './service.ts';

const slugOf = (app: string) => Object.keys(APPS).find((slug) => APPS[slug]!.app === app) ?? app;
const returnAddress: JsonSchema = { type: 'string', minLength: 1, maxLength: 2048 };
const appParam = (slugs: string[]): Record<string, JsonSchema> => ({ app: { type: 'string', enum: slugs, description: 'The conferencing app, by the platform\'s slug' } });

const appFields = {
  id: { ...numberedId, description: 'The connection (the platform\'s credential id)' },
  type: { type: 'string', description: 'The platform\'s credential type: google_video, zoom_video, office365_video or daily_video' },
  userId: numberedId,
  invalid: { type: ['boolean', 'null'], description: 'Always false: Gatehouse calls no video provider, so never finds a connection broken' },
  appSlug: { type: 'string', description: 'The app as the paths name it: google-meet, zoom, msteams or daily-video' },
  isDefault: bool,
  createdAt: { type: 'string' },
} satisfies Record<string, JsonSchema>;
const appView = object(appFields, Object.keys(appFields));

const view = (a: NewConnectedApp, defaultId: string | undefined) => ({
  id: a.id,
  type: APPS[slugOf(a.app)]?.type ?? a.app.replaceAll('-', '_'),
  userId: 'userId' in a.owner ? a.owner.userId : '',
  invalid: false,
  appSlug: slugOf(a.app),
  isDefault: a.id === defaultId,
  createdAt: iso(a.createdAt),
});

export function conferencingHandlers(deps: PlatformDeps): HandlerMap {
  const ctx = deps.services;
  return {
    'conferencing.list': route({
      data: arrayOf(appView, 0, 500),
      handle: async ({ userId }) => {
        const { connections, defaultId } = await listConferencingApps(ctx, userId);
        return connections.map((a) => view(a, defaultId));
      },
    }),
    // Nothing chosen: an empty object, as the platform answers a user without one. No app
    // link: Gatehouse keeps none of a provider's personal meeting links.
    'conferencing.getDefault': route({
      data: object({ appSlug: { type: 'string' }, appLink: { type: 'string' }, connection: appView }),
      handle: async ({ userId }) => {
        const chosen = await defaultConferencingApp(ctx, userId);
        return chosen === undefined ? {} : { appSlug: slugOf(chosen.app), connection: view(chosen, chosen.id) };
      },
    }),
    // The platform connects only Google Meet this way, Zoom and Teams through their OAuth,
    // which Gatehouse does not run (auth-url below answers its connect page instead): here each
    // is recorded as connected, as a team's apps and a user's calendars are, with no provider
    // token behind it.
    'conferencing.connect': route<unknown, unknown, { app: string }>({
      params: appParam(Object.keys(APPS)),
      data: appView,
      handle: async ({ userId, params }) => view(await connectConferencingApp(ctx, userId, params.app), undefined),
    }),
    // docs/rules.md#connect-pages: the platform answers Zoom's or Microsoft's authorization
    // address; Gatehouse runs neither, so it answers its own connect page, where the user
    // confirms what POST /v2/conferencing/:app/connect would record.
    'conferencing.authUrl': route<unknown, { returnTo: string; onErrorReturnTo: string }, { app: string }>({
      params: appParam(['zoom', 'msteams']),
      query: object(
        {
          returnTo: { ...returnAddress, description: 'Where the user is sent once the app is connected: https, on the origin of one of your redirect URIs' },
          onErrorReturnTo: { ...returnAddress, description: 'Where the user is sent, with error=access_denied or error=already_connected, when it is not: https, on the origin of one of your redirect URIs' },
        },
        ['returnTo', 'onErrorReturnTo'],
      ),
      data: object({ url: { type: 'string', description: "The connect page to send the user to: it works once, for 10 minutes, for the token's user" } }, ['url']),
      noStore: true,
      handle: async ({ params, query, principal }) => {
        const check = await returnAddressCheck(deps, principal!.clientId);
        const asked = { kind: 'conferencing' as const, provider: params.app, returnTo: check(query.returnTo, 'returnTo'), onErrorReturnTo: check(query.onErrorReturnTo, 'onErrorReturnTo') };
        return { url: await requestConnection(deps, principal!, asked, { dryRun: false }) };
      },
    }),
    'conferencing.setDefault': route<unknown, unknown, { app: string }>({
      params: appParam(Object.keys(APPS)),
      data: object({ appSlug: { type: 'string' }, connection: appView }, ['appSlug', 'connection']),
      handle: async ({ userId, params }) => {
        const connection = await setDefaultConferencingApp(ctx, userId, params.app);
        return { appSlug: params.app, connection: view(connection, connection.id) };
      },
    }),
    // Disconnecting the default app leaves no default (the default goes with its connection).
    'conferencing.disconnect': route<unknown, unknown, { app: string }>({
      params: appParam(Object.keys(APPS)),
      data: object({ id: numberedId, appSlug: { type: 'string' }, deleted: bool }, ['id', 'appSlug', 'deleted']),
      handle: async ({ userId, params }) => ({ id: (await disconnectConferencingApp(ctx, userId, params.app)).id, appSlug: params.app, deleted: true }),
    }),
  };
}
