// The consent page names what the team and organization scopes reach: the
// user's teams for TEAM_* scopes and the organizations they administer for ORG_* scopes, as
// the access check decides it at each request (docs/rules.md#membership-rules) — every one
// the user belongs to now and later, changes only where they are an admin or owner.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createOrganization, createTeam } from '../../src/services/teams/teams.ts';
import { backends } from '../helpers/backends.ts';
import { loggedIn, textOf } from '../helpers/pages.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';

const AUTHORIZE = '/auth/oauth2/authorize';

describe.each(backends)('the consent page names the teams and organizations on $name', ({ name, available }) => {
  let server: TestServer;
  let dev: TestUser;
  let client: TestClient;
  const path = (scope: string) =>
    `${AUTHORIZE}?${new URLSearchParams({ client_id: client.clientId, redirect_uri: client.redirectUri, response_type: 'code', scope, state: 's' })}`;

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer(name);
    dev = await server.user({ name: 'Dana Developer' });
    client = await server.client(dev, {
      name: 'Org Tools',
      scopes: ['PROFILE_READ', 'TEAM_BOOKING_READ', 'TEAM_MEMBERSHIP_WRITE', 'ORG_MEMBERSHIP_WRITE', 'ORG_BOOKING_READ', 'ORG_WEBHOOK_WRITE'],
    });
  });
  afterAll(async () => server?.close());

  it.skipIf(!available)('an admin of Acme Corp and member of Sales sees both named, and where changes are possible', async () => {
    const { user, browser } = await loggedIn(server, { name: 'Ada Admin' });
    const owner = await server.user({ name: 'Owen Owner' });
    const acme = await createOrganization(server.services, { name: 'Acme Corp', ownerId: owner.id });
    await addMember(server.services, { organizationId: acme.id }, user.id, 'admin');
    const sales = await createTeam(server.services, { name: 'Sales', ownerId: owner.id });
    await addMember(server.services, { teamId: sales.id }, user.id, 'member');
    // Issue 40 item 6: a team of Acme is reached as one of "every team of Acme Corp", not named twice.
    const support = await createTeam(server.services, { name: 'Support', ownerId: owner.id, organizationId: acme.id });
    await addMember(server.services, { teamId: support.id }, user.id, 'member');
    const beta = await createOrganization(server.services, { name: 'Beta Org', ownerId: owner.id });
    await addMember(server.services, { organizationId: beta.id }, user.id, 'member');

    const page = await browser.get(path('PROFILE_READ TEAM_BOOKING_READ TEAM_MEMBERSHIP_WRITE ORG_MEMBERSHIP_WRITE'));
    expect(page.status).toBe(200);
    expect(textOf(page.body, 'reach-team')).toBe(
      'In every team you belong to, now and later. Today: Sales (member) and every team of Acme Corp (organization admin). It can make changes only where you are an admin or owner: today, in the teams of Acme Corp.',
    );
    expect(textOf(page.body, 'reach-organization')).toBe(
      'In every organization where you are an admin or owner, now and later. Today: Acme Corp (admin). Not Beta Org, where you are a member only. Each also counts as the matching team permission, so it reaches every team you belong to as well.',
    );
  });

  it.skipIf(!available)('a user with no team and no organization sees that the scopes reach none today', async () => {
    const { browser } = await loggedIn(server, { name: 'Nora Nobody' });
    const page = await browser.get(path('TEAM_BOOKING_READ ORG_BOOKING_READ'));
    expect(page.status).toBe(200);
    expect(textOf(page.body, 'reach-team')).toBe('You belong to no team today, so these permissions reach none now. They would reach any team you join later, while you are in it.');
    expect(textOf(page.body, 'reach-organization')).toMatch(/^You are an admin or owner of no organization today, so these permissions reach none now/);
    expect(textOf(page.body, 'reach-organization')).toContain('Each also counts as the matching team permission, so it reaches every team you belong to as well.');
    // Organization webhooks have no team counterpart: nothing is said about teams.
    const webhooks = await browser.get(path('ORG_WEBHOOK_WRITE'));
    expect(textOf(webhooks.body, 'reach-organization')).toBe(
      'You are an admin or owner of no organization today, so these permissions reach none now; they would reach one where you become an admin or owner later.',
    );
  });

  it.skipIf(!available)('read-only team scopes say nothing about changes; personal scopes alone name no team', async () => {
    const { user, browser } = await loggedIn(server, { name: 'Tess Teammate' });
    const owner = await server.user();
    const design = await createTeam(server.services, { name: 'Design', ownerId: owner.id });
    await addMember(server.services, { teamId: design.id }, user.id, 'admin');
    const page = await browser.get(path('TEAM_BOOKING_READ'));
    expect(textOf(page.body, 'reach-team')).toBe('In every team you belong to, now and later. Today: Design (admin).');
    const personal = await browser.get(path('PROFILE_READ'));
    expect(textOf(personal.body, 'reach-team')).toBeNull();
    expect(textOf(personal.body, 'reach-organization')).toBeNull();
  });
});
