// The rules of a user's conferencing apps (docs/integrating.md#conferencing-apps) and every
// store call they make: connections of category 'conferencing' in connected_apps, once per app
// and user, and the one of them that is the user's default. For the /v2 conferencing routes,
// and for the connect page, which records an app the user confirms as POST
// /v2/conferencing/:app/connect does (docs/rules.md#connect-pages), through the same function.
// Records only: Gatehouse runs no video provider and none of their OAuth, so it keeps no
// provider token and never reports a connection it did not record.
import type { ConnectedApp, NewConnectedApp } from '../connected-apps/store.ts';
import { conflict, invalid, notFound } from '../input.ts';
import type { PlatformContext } from '../stores.ts';

export type { NewConnectedApp } from '../connected-apps/store.ts';

export const CATEGORY = 'conferencing';

/**
 * The apps by the platform's slug (its path's `app`): the name connected_apps keeps (a team's
 * apps use the same names), the platform's credential type, and whether the platform connects
 * it through the provider's OAuth (which Gatehouse does not run: the connect page stands in).
 */
export const CONFERENCING_APPS: Record<string, { app: string; type: string; title: string; oauth: boolean }> = {
  'google-meet': { app: 'google-meet', type: 'google_video', title: 'Google Meet', oauth: false },
  zoom: { app: 'zoom', type: 'zoom_video', title: 'Zoom', oauth: true },
  msteams: { app: 'microsoft-teams', type: 'office365_video', title: 'Microsoft Teams', oauth: true },
  'daily-video': { app: 'daily-video', type: 'daily_video', title: 'Cal Video (Daily)', oauth: false },
};

/** The user's connection of the app of that slug, if any. */
async function connectionOf(ctx: PlatformContext, userId: string, slug: string): Promise<ConnectedApp | undefined> {
  return (await ctx.stores.api.connectedApps.list({ userId }, { category: CATEGORY, app: CONFERENCING_APPS[slug]!.app }))[0];
}

/** The user's conferencing apps, and the id of their default among them (undefined when none is chosen). */
export async function listConferencingApps(ctx: PlatformContext, userId: string): Promise<{ connections: ConnectedApp[]; defaultId: string | undefined }> {
  const apps = ctx.stores.api.connectedApps;
  const [connections, chosen] = await Promise.all([apps.list({ userId }, { category: CATEGORY }), apps.defaultOf(userId)]);
  return { connections, defaultId: chosen?.id };
}

/** The user's default conferencing app; undefined when none is chosen, a state of the account and no refusal. */
export function defaultConferencingApp(ctx: PlatformContext, userId: string): Promise<ConnectedApp | undefined> {
  return ctx.stores.api.connectedApps.defaultOf(userId);
}

/**
 * Records the app of that slug as connected for the user, once per user: 409 when it is.
 * Checked before an id is taken, so that a refusal uses up no number of the series; the insert
 * still refuses a connection made meanwhile.
 */
export async function connectConferencingApp(ctx: PlatformContext, userId: string, slug: string): Promise<NewConnectedApp> {
  const { app, title } = CONFERENCING_APPS[slug]!;
  if ((await connectionOf(ctx, userId, slug)) !== undefined) throw conflict(`${slug} is already connected`);
  // The provider's account is the provider's to know: the connection records the app itself, once per user.
  const row: NewConnectedApp = { id: await ctx.stores.ids.next('connected_apps'), owner: { userId }, app, category: CATEGORY, account: app, name: title, readOnly: false, createdAt: ctx.clock() };
  if (!(await ctx.stores.api.connectedApps.insertAll([row]))) throw conflict(`${slug} is already connected`);
  return row;
}

/** Makes the user's connection of that app their default, in place of any other; an app not connected is refused naming `app`. */
export async function setDefaultConferencingApp(ctx: PlatformContext, userId: string, slug: string): Promise<ConnectedApp> {
  const connection = await connectionOf(ctx, userId, slug);
  // A connection removed between the read and the write is as good as never connected.
  if (connection === undefined || !(await ctx.stores.api.connectedApps.setDefault(userId, connection.id, ctx.clock()))) {
    throw invalid('app', `${slug} is not connected: connect it before making it your default`);
  }
  return connection;
}

/** Removes the user's connection of that app (and with it the default, if it was); 404 when there is none. */
export async function disconnectConferencingApp(ctx: PlatformContext, userId: string, slug: string): Promise<ConnectedApp> {
  const connection = await connectionOf(ctx, userId, slug);
  if (connection === undefined || !(await ctx.stores.api.connectedApps.delete({ userId }, connection.app, connection.id))) throw notFound(`${slug} connection`);
  return connection;
}
