// Recording a user's conferencing app (docs/integrating.md#conferencing-apps): what POST
// /v2/conferencing/:app/connect does, and what the connect page does when the user confirms a
// connection an application asked for (docs/rules.md#connect-pages), one function for both.
// Records only: Gatehouse runs no video provider and none of their OAuth.
import type { NewConnectedApp } from '../connected-apps/store.ts';
import type { PlatformContext } from '../stores.ts';
import { conflict } from '../input.ts';

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
export async function conferencingConnectionOf({ stores }: PlatformContext, userId: string, slug: string) {
  return (await stores.api.connectedApps.list({ userId }, { category: CATEGORY, app: CONFERENCING_APPS[slug]!.app }))[0];
}

/**
 * Records the app of that slug as connected for the user, once per user: 409 when it is.
 * Checked before an id is taken, so that a refusal uses up no number of the series; the insert
 * still refuses a connection made meanwhile.
 */
export async function connectConferencingApp(recording: PlatformContext, userId: string, slug: string): Promise<NewConnectedApp> {
  const { app, title } = CONFERENCING_APPS[slug]!;
  const apps = recording.stores.api.connectedApps;
  if ((await conferencingConnectionOf(recording, userId, slug)) !== undefined) throw conflict(`${slug} is already connected`);
  // The provider's account is the provider's to know: the connection records the app itself, once per user.
  const row: NewConnectedApp = { id: await recording.stores.ids.next('connected_apps'), owner: { userId }, app, category: CATEGORY, account: app, name: title, readOnly: false, createdAt: recording.clock() };
  if (!(await apps.insertAll([row]))) throw conflict(`${slug} is already connected`);
  return row;
}
