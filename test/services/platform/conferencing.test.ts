// The conferencing service's rules (src/platform/conferencing/service.ts), called in process:
// what only HTTP shows (the connect page's address, the views, the platform's app slugs) is tested in
// test/platform/connected-apps.test.ts and test/web/connect-pages.test.ts, the scopes of every route in
// test/platform/platform-access.test.ts.
import { describe, expect } from 'vitest';
import {
  connectConferencingApp,
  defaultConferencingApp,
  disconnectConferencingApp,
  listConferencingApps,
  setDefaultConferencingApp,
} from '../../../src/platform/conferencing/service.ts';
import { connectCalendar, connectTeamApp } from '../../../src/platform/connected-apps/service.ts';
import { it, T0 } from './world.ts';

describe('conferencing apps', () => {
  it("connecting records the app itself under connected_apps' name, once per user: again is 409 and uses up no id", async ({ world }) => {
    const userId = await world.user();
    const teams = await connectConferencingApp(world.ctx, userId, 'msteams');
    expect(teams).toEqual({ id: teams.id, owner: { userId }, app: 'microsoft-teams', category: 'conferencing', account: 'microsoft-teams', name: 'Microsoft Teams', readOnly: false, createdAt: T0 });
    await expect(connectConferencingApp(world.ctx, userId, 'msteams')).rejects.toMatchObject({ kind: 'conflict', message: 'msteams is already connected' });
    const zoom = await connectConferencingApp(world.ctx, userId, 'zoom');
    expect(Number(zoom.id)).toBe(Number(teams.id) + 1);
    // Another user connects the same app of their own.
    expect((await connectConferencingApp(world.ctx, await world.user(), 'zoom')).app).toBe('zoom');
  });

  it("the list holds the user's conferencing connections only, not their calendars nor a team's apps, with no default until one is chosen", async ({ world }) => {
    const userId = await world.user();
    const teamId = await world.team(userId);
    await connectCalendar(world.ctx, userId, 'google', { account: 'ann@example.com' });
    await connectTeamApp(world.ctx, teamId, 'zoom', { account: 'team@example.com' });
    const meet = await connectConferencingApp(world.ctx, userId, 'google-meet');
    expect(await listConferencingApps(world.ctx, userId)).toEqual({ connections: [{ ...meet, selected: false, destination: false }], defaultId: undefined });
    expect(await defaultConferencingApp(world.ctx, userId)).toBeUndefined();
  });

  it('the default is a connected app, one at a time; an app not connected is refused naming app', async ({ world }) => {
    const userId = await world.user();
    await expect(setDefaultConferencingApp(world.ctx, userId, 'zoom')).rejects.toMatchObject({ kind: 'validation', message: 'app: zoom is not connected: connect it before making it your default' });
    const zoom = await connectConferencingApp(world.ctx, userId, 'zoom');
    const meet = await connectConferencingApp(world.ctx, userId, 'google-meet');
    expect((await setDefaultConferencingApp(world.ctx, userId, 'zoom')).id).toBe(zoom.id);
    expect((await listConferencingApps(world.ctx, userId)).defaultId).toBe(zoom.id);
    await setDefaultConferencingApp(world.ctx, userId, 'google-meet');
    expect((await defaultConferencingApp(world.ctx, userId))?.id).toBe(meet.id);
    // Setting it again changes nothing.
    expect((await setDefaultConferencingApp(world.ctx, userId, 'google-meet')).id).toBe(meet.id);
    expect((await listConferencingApps(world.ctx, userId)).defaultId).toBe(meet.id);
    // Disconnecting another app leaves the default as it was.
    await disconnectConferencingApp(world.ctx, userId, 'zoom');
    expect(await listConferencingApps(world.ctx, userId)).toMatchObject({ connections: [{ id: meet.id }], defaultId: meet.id });
  });

  it("disconnecting removes the user's own connection, and the default with it; one not connected is 404; another user's stays", async ({ world }) => {
    const alice = await world.user();
    const bob = await world.user();
    const hers = await connectConferencingApp(world.ctx, alice, 'google-meet');
    await setDefaultConferencingApp(world.ctx, alice, 'google-meet');
    const his = await connectConferencingApp(world.ctx, bob, 'google-meet');
    await setDefaultConferencingApp(world.ctx, bob, 'google-meet');

    await expect(disconnectConferencingApp(world.ctx, alice, 'zoom')).rejects.toMatchObject({ kind: 'not_found', message: 'no such zoom connection' });
    expect((await disconnectConferencingApp(world.ctx, bob, 'google-meet')).id).toBe(his.id);
    expect(await listConferencingApps(world.ctx, bob)).toEqual({ connections: [], defaultId: undefined });
    await expect(disconnectConferencingApp(world.ctx, bob, 'google-meet')).rejects.toMatchObject({ kind: 'not_found' });
    expect(await listConferencingApps(world.ctx, alice)).toMatchObject({ connections: [{ id: hers.id }], defaultId: hers.id });
    // Another user's app is not connected for bob: he cannot make it his default.
    await expect(setDefaultConferencingApp(world.ctx, bob, 'google-meet')).rejects.toMatchObject({ kind: 'validation' });
    expect(await defaultConferencingApp(world.ctx, bob)).toBeUndefined();
  });
});
