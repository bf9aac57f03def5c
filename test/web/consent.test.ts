// A consent page users can trust: the application's logo (served from
// Gatehouse's own origin), name, description, developer and homepage; the account in use
// with "Not you? Switch account", which logs out and comes back to the same request; the
// scopes in plain words grouped by family with the changing ones marked; the host it
// returns to; Allow and Deny. The login page names the application; error pages say what
// happened in words, with the technical reason in small print. The page names what the team
// and organization scopes reach: the user's teams for TEAM_* scopes and the organizations they
// administer for ORG_* scopes, as the access check decides it at each request
// (docs/rules.md#membership-rules) — every one the user belongs to now and later, changes
// only where they are an admin or owner. One server per database serves these suites (and
// is the guarded one of the logo suite); the suite whose server may call loopback starts its own.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createOrganization, createTeam } from '../../src/services/teams/teams.ts';
import { backends } from '../helpers/backends.ts';
import { startCountingServer, type StatementCounter } from '../helpers/counting-server.ts';
import { formFields } from '../helpers/browser.ts';
import { csrfOf, loggedIn, textOf, visibleText } from '../helpers/pages.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';

const AUTHORIZE = '/auth/oauth2/authorize';
/** The smallest PNG: one transparent pixel. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

function authorizePath(client: TestClient, scope: string, extra: Record<string, string> = {}) {
  return `${AUTHORIZE}?${new URLSearchParams({ client_id: client.clientId, redirect_uri: client.redirectUri, response_type: 'code', scope, state: 's1', ...extra })}`;
}

describe.each(backends)('the consent page on $name', ({ name, available }) => {
  let shared: TestServer;
  beforeAll(async () => {
    if (available) shared = await startTestServer(name);
  });
  afterAll(async () => shared?.close());

  describe('the consent and login pages name the application', () => {
    let server: TestServer;
    let dev: TestUser;
    let client: TestClient;
    beforeAll(async () => {
      if (!available) return;
      server = shared;
      dev = await server.user({ name: 'Priya Publisher' });
      client = await server.client(dev, {
        name: 'Team Planner',
        homepageUrl: 'https://planner.example.com/about',
        redirectUris: ['https://return.example.org/oauth/cb'],
        scopes: ['PROFILE_READ', 'BOOKING_READ', 'BOOKING_WRITE', 'TEAM_BOOKING_READ', 'ORG_WEBHOOK_WRITE'],
      });
      await server.services.stores.clients.update(client.clientId, { description: 'Plans your team’s week from everyone’s bookings.' });
    });

    it.skipIf(!available)('the consent page shows logo, name, description, developer, homepage, the account, grouped scopes with changes marked, the return host, Allow and Deny', async () => {
      const { user, browser } = await loggedIn(server, { name: 'Uma User' });
      const res = await browser.get(authorizePath(client, 'BOOKING_WRITE PROFILE_READ BOOKING_READ TEAM_BOOKING_READ ORG_WEBHOOK_WRITE'));
      expect(res.status).toBe(200);
      expect(res.body).toContain(`<img class="app-logo" src="/oauth-clients/${client.clientId}/logo" alt="" width="64" height="64">`);
      expect(textOf(res.body, 'client-name')).toBe('Team Planner');
      expect(textOf(res.body, 'client-description')).toBe('Plans your team’s week from everyone’s bookings.');
      expect(textOf(res.body, 'client-developer')).toBe('Developer: Priya Publisher · planner.example.com');
      expect(res.body).toContain('<a href="https://planner.example.com/about" rel="noopener noreferrer" id="client-homepage">');
      expect(textOf(res.body, 'signed-in-as')).toBe(`You are signed in as Uma User (${user.email}). Not you? Switch account`);
      expect(textOf(res.body, 'return-host')).toBe('return.example.org');

      const groups = [...res.body.matchAll(/<section class="scope-group"><h3>(.*?)<\/h3>(?:<p class="reach[^"]*" id="reach-[a-z]+">.*?<\/p>)?<ul class="scopes">(.*?)<\/ul><\/section>/g)].map((m) => [
        m[1],
        [...m[2]!.matchAll(/<li( class="writes")?>(.*?)<\/li>/g)].map((li) => `${li[1] ? 'CHANGES ' : ''}${visibleText(li[2]!)}`),
      ]);
      expect(groups).toEqual([
        ['Your account', ['List bookings; read recordings, transcripts, calendar links, references.', 'Read the authorized user\'s profile.', 'CHANGES Add guests, change locations, confirm, decline, reassign bookings. Can make changes']],
        ['Your teams', ['Read team bookings.']],
        ['Your organization', ['CHANGES Create, change, delete organization webhooks. Can make changes']],
      ]);
      expect([...res.body.matchAll(/name="decision" value="(\w+)"/g)].map((m) => m[1])).toEqual(['allow', 'deny']);
    });

    it.skipIf(!available)('"Not you? Switch account" logs out and the login page leads back to the same request, for the other account', async () => {
      const { browser } = await loggedIn(server, { name: 'First Person' });
      const path = authorizePath(client, 'PROFILE_READ');
      const consent = await browser.get(path);
      const switchForm = /<form method="post" action="\/logout" class="inline">([\s\S]*?)<\/form>/.exec(consent.body)![1]!;
      const fields = formFields(switchForm);
      expect(fields.next).toBe(path);
      const out = await browser.post('/logout', fields);
      expect(out.status).toBe(303);
      expect(out.location).toBe(`/login?next=${encodeURIComponent(path)}`);
      // The session ended.
      expect(visibleText((await browser.get('/')).body)).not.toContain('You are logged in');

      const login = await browser.get(out.location!);
      expect(login.status).toBe(200);
      expect(textOf(login.body, 'login-for')).toBe('to continue to Team Planner');
      expect(login.body).toContain(`<title>Log in to Team Planner · Gatehouse</title>`);
      const second: TestUser = await server.user({ name: 'Second Person' });
      const back = await browser.post('/login', { _csrf: csrfOf(login.body), email: second.email, password: second.password, next: path });
      expect(back.status).toBe(303);
      expect(back.location).toBe(path);
      const again = await browser.get(back.location!);
      expect(textOf(again.body, 'signed-in-as')).toContain('You are signed in as Second Person');
    });

    it.skipIf(!available)('the login page names the application only for a valid authorization request', async () => {
      const browser = server.browser();
      expect(textOf((await browser.get(`/login?next=${encodeURIComponent(authorizePath(client, 'PROFILE_READ'))}`)).body, 'login-for')).toBe('to continue to Team Planner');
      expect(textOf((await browser.get('/login?next=%2Fsettings%2Fteams')).body, 'login-for')).toBeNull();
      const bogus = `${AUTHORIZE}?client_id=bogus&redirect_uri=https%3A%2F%2Fx.example%2F&response_type=code`;
      expect(textOf((await browser.get(`/login?next=${encodeURIComponent(bogus)}`)).body, 'login-for')).toBeNull();
    });

    it.skipIf(!available)('an invalid link says what happened and what to do, with the technical reason in small print', async () => {
      const browser = server.browser();
      const res = await browser.get(`${AUTHORIZE}?client_id=bogus&response_type=code&redirect_uri=https%3A%2F%2Fx.example%2F`);
      expect(res.status).toBe(400);
      expect(textOf(res.body, 'error-message')).toBe('The link you followed is not valid; go back to the application and try again. If it happens again, tell the application’s developer.');
      expect(visibleText(res.body)).toMatch(/^This sign-in link is not valid · Gatehouse/);
      expect(textOf(res.body, 'error-details')).toBe('Technical details: invalid_request: client_id "bogus" is not a known application');
      expect(res.body).toContain('<p class="small muted" id="error-details">');

      const pending = await server.client(dev, { state: 'pending' });
      const closed = await browser.get(authorizePath(pending, 'PROFILE_READ'));
      expect(closed.status).toBe(400);
      expect(visibleText(closed.body)).toContain('This application cannot be used right now');
      expect(textOf(closed.body, 'error-message')).toMatch(/Go back to the application and try again later, or contact its developer\./);
      expect(textOf(closed.body, 'error-details')).toMatch(/this application is pending and cannot be authorized/);
    });

    it.skipIf(!available)('an application without a logo gets a monogram of its initial, served from this origin and inert', async () => {
      const res = await fetch(`${server.url}/oauth-clients/${client.clientId}/logo`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/svg+xml');
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const svg = await res.text();
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      expect(svg).toContain('>T</text>');
      expect(svg).not.toMatch(/<script|on\w+=/i);
      expect((await fetch(`${server.url}/oauth-clients/no-such-client/logo`)).status).toBe(404);
      expect((await fetch(`${server.url}/oauth-clients//logo`)).status).toBe(404);
    });
  });

  describe('the consent page names the teams and organizations', () => {
    let server: TestServer;
    let dev: TestUser;
    let client: TestClient;
    const path = (scope: string) =>
      `${AUTHORIZE}?${new URLSearchParams({ client_id: client.clientId, redirect_uri: client.redirectUri, response_type: 'code', scope, state: 's' })}`;

    beforeAll(async () => {
      if (!available) return;
      server = shared;
      dev = await server.user({ name: 'Dana Developer' });
      client = await server.client(dev, {
        name: 'Org Tools',
        scopes: ['PROFILE_READ', 'TEAM_BOOKING_READ', 'TEAM_MEMBERSHIP_WRITE', 'ORG_MEMBERSHIP_WRITE', 'ORG_BOOKING_READ', 'ORG_WEBHOOK_WRITE'],
      });
    });

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

  describe('application logos fetched through the outbound guard', () => {
    let server: TestServer;
    let guarded: TestServer;
    let logoHost: Server;
    let logoBase: string;
    const hits: string[] = [];
    beforeAll(async () => {
      if (!available) return;
      // A developer's web server with a good logo, an oversized one and an SVG.
      logoHost = createServer((req, res) => {
        hits.push(req.url!);
        if (req.url === '/logo.png') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
        else if (req.url === '/huge.png') res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(300 * 1024, 1));
        else if (req.url === '/logo.svg') res.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
        else res.writeHead(404).end();
      });
      await new Promise<void>((resolve) => logoHost.listen(0, '127.0.0.1', resolve));
      logoBase = `http://127.0.0.1:${(logoHost.address() as { port: number }).port}`;
      // Registration asks for https; this test server may call loopback over http.
      server = await startTestServer(name, { OUTBOUND_ALLOW_PRIVATE: '1' });
      guarded = shared;
    });
    afterAll(async () => {
      await server?.close();
      await new Promise((resolve) => logoHost?.close(resolve));
    });

    async function clientWithLogo(on: TestServer, logoUrl: string) {
      const owner = await on.user();
      const c = await on.client(owner, { name: 'Logo App' });
      await on.services.stores.clients.update(c.clientId, { logoUrl });
      return c;
    }

    it.skipIf(!available)('the logo is fetched once, served as the image it is, and kept', async () => {
      const c = await clientWithLogo(server, `${logoBase}/logo.png`);
      hits.length = 0;
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${server.url}/oauth-clients/${c.clientId}/logo`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/png');
        expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
      }
      expect(hits).toEqual(['/logo.png']);
    });

    it.skipIf(!available)('a logo over 256 KiB, or an SVG, is not served: the monogram is', async () => {
      for (const path of ['/huge.png', '/logo.svg']) {
        const c = await clientWithLogo(server, `${logoBase}${path}`);
        const res = await fetch(`${server.url}/oauth-clients/${c.clientId}/logo`);
        expect(res.headers.get('content-type'), path).toBe('image/svg+xml');
        const body = await res.text();
        expect(body, path).toContain('>L</text>');
        expect(body, path).not.toContain('script');
      }
    });

    it.skipIf(!available)('a logo on a private address is never fetched where private addresses are refused', async () => {
      hits.length = 0;
      for (const url of [`${logoBase}/logo.png`, 'https://private.example.com/logo.png', 'https://127.0.0.1/logo.png']) {
        const c = await clientWithLogo(guarded, url);
        const res = await fetch(`${guarded.url}/oauth-clients/${c.clientId}/logo`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type'), url).toBe('image/svg+xml');
      }
      expect(hits).toEqual([]);
    });
  });
});

describe.each(backends)('a logo request on $name', ({ name, available }) => {
  const counter: StatementCounter = { n: 0 };
  let server: TestServer;
  let client: TestClient;
  beforeAll(async () => {
    if (!available) return;
    server = await startCountingServer(name, counter);
    client = await server.client(await server.user(), { name: 'Secretive App' });
  });
  afterAll(async () => server?.close());

  // The route is public and only needs the client's name and logo URL: it must not load
  // the client's secrets (least privilege), nor pay a second read for them on every page view.
  it.skipIf(!available)('reads the client alone: one statement, its secrets untouched', async () => {
    counter.n = 0;
    const res = await fetch(`${server.url}/oauth-clients/${client.clientId}/logo`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(counter.n).toBe(1);
  });
});
