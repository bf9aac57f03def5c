// The connect pages (docs/rules.md#connect-pages): GET /v2/calendars/{calendar}/connect and GET
// /v2/conferencing/{app}/oauth/auth-url answer the address of a Gatehouse page, where the
// signed-in user confirms what is recorded (as POST …/connect records it) and is sent back to
// the application. Through real HTTP, on both databases: what the application and the user see,
// and the rows left behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken, hashToken, randomId } from '../../src/oauth/token-format.ts';
import { backends } from '../helpers/backends.ts';
import type { Browser } from '../helpers/browser.ts';
import { csrfOf, fieldError, loggedIn, open, postForm, textOf, visibleText } from '../helpers/pages.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';

const SCOPES = ['APPS_READ', 'APPS_WRITE'];
const APP = 'https://sync.example.com';
const GONE = 'This connect link does not work: it expired, was used already, or was never made.';

describe.each(backends)('connect pages on $name', ({ name, available }) => {
  let server: TestServer;
  let client: TestClient;

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer(name);
    const developer = await server.user({ name: 'Dee Developer' });
    client = await server.client(developer, { name: 'Calendar Sync', scopes: SCOPES, redirectUris: [`${APP}/oauth/callback`, 'http://127.0.0.1:8765/callback'] });
  });
  afterAll(async () => server?.close());

  /** An access token of the user for the client, stored as the token endpoint stores one. */
  async function tokenOf(user: TestUser): Promise<string> {
    const now = server.clock();
    const grantId = randomId();
    const token = generateToken('accessToken');
    await server.oauth.createGrant({ id: grantId, userId: user.id, clientId: client.clientId, scopes: SCOPES, createdAt: now, revokedAt: null });
    await server.oauth.createAccessToken({ hash: hashToken(token), grantId, codeHash: null, clientId: client.clientId, userId: user.id, scopes: SCOPES, resources: null, createdAt: now, expiresAt: now + 24 * 3600_000, revokedAt: null });
    return token;
  }

  /** A signed-in user with a token of theirs. */
  async function someone(displayName = 'Ann Able'): Promise<{ user: TestUser; browser: Browser; token: string }> {
    const { user, browser } = await loggedIn(server, { name: displayName });
    return { user, browser, token: await tokenOf(user) };
  }

  const calendarAddress = async (token: string, query: Record<string, string>) => server.api('GET', `/v2/calendars/google/connect?${new URLSearchParams({ isDryRun: 'false', ...query })}`, token);
  const zoomAddress = async (token: string, query: Record<string, string> = { returnTo: `${APP}/zoom/connected`, onErrorReturnTo: `${APP}/zoom/failed` }) =>
    server.api('GET', `/v2/conferencing/zoom/oauth/auth-url?${new URLSearchParams(query)}`, token);
  /** The page's path of an address the API answered. */
  const pathOf = (address: string) => {
    expect(address.startsWith(`${server.url}/settings/connect/`), address).toBe(true);
    return address.slice(server.url.length);
  };
  const tokenIn = (address: string) => address.slice(address.lastIndexOf('/') + 1);
  const requestRow = (address: string) => server.db.selectFrom('connection_requests').selectAll().where('token_hash', '=', hashToken(tokenIn(address))).executeTakeFirst();
  const connections = (userId: string) => server.db.selectFrom('connected_apps').select(['app', 'category', 'account']).where('user_id', '=', userId).orderBy('id').execute();

  it.skipIf(!available)('the API answers the address of a Gatehouse page in the platform\'s shape, not cached; only the token\'s hash is kept, with its user, client and return addresses, for 10 minutes', async () => {
    const { user, token } = await someone();
    const calendar = await calendarAddress(token, { redir: `${APP}/calendars?step=2` });
    expect(calendar.status, JSON.stringify(calendar.body)).toBe(200);
    expect(calendar.headers.get('cache-control')).toBe('no-store');
    expect(calendar.body).toEqual({ status: 'success', data: { authUrl: expect.stringMatching(new RegExp(`^${server.url}/settings/connect/gcr_[0-9A-Za-z]{49}$`)) } });
    const row = await requestRow(calendar.body.data.authUrl);
    expect(row).toMatchObject({ user_id: user.id, client_id: client.clientId, kind: 'calendar', provider: 'google', return_to: `${APP}/calendars?step=2`, on_error_return_to: null, consumed_at: null });
    expect(Number(row!.expires_at) - Number(row!.created_at)).toBe(10 * 60_000);

    const zoom = await zoomAddress(token);
    expect(zoom.status, JSON.stringify(zoom.body)).toBe(200);
    expect(zoom.body).toEqual({ status: 'success', data: { url: expect.stringMatching(/\/settings\/connect\/gcr_[0-9A-Za-z]{49}$/) } });
    expect(await requestRow(zoom.body.data.url)).toMatchObject({ kind: 'conferencing', provider: 'zoom', return_to: `${APP}/zoom/connected`, on_error_return_to: `${APP}/zoom/failed` });

    const rows = await server.db.selectFrom('connection_requests').selectAll().where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(2);
    expect(JSON.stringify(rows)).not.toContain(tokenIn(calendar.body.data.authUrl));
    expect(JSON.stringify(rows)).not.toContain(tokenIn(zoom.body.data.url));
    // Nothing is connected until the user confirms it.
    expect(await connections(user.id)).toEqual([]);
  });

  it.skipIf(!available)('isDryRun=true answers the same shape and keeps nothing: its address leads to the page of a link that does not work', async () => {
    const { user, browser, token } = await someone();
    const res = await calendarAddress(token, { isDryRun: 'true', redir: `${APP}/calendars` });
    expect(res.status).toBe(200);
    expect(res.body.data.authUrl).toMatch(/\/settings\/connect\/gcr_[0-9A-Za-z]{49}$/);
    expect(await server.db.selectFrom('connection_requests').selectAll().where('user_id', '=', user.id).execute()).toEqual([]);
    const page = await browser.get(pathOf(res.body.data.authUrl));
    expect(page.status).toBe(404);
    expect(visibleText(page.body)).toContain(GONE);
  });

  it.skipIf(!available)('a return address is kept as the URL parser writes it: a character a Location header cannot carry arrives percent-encoded, and the redirect works', async () => {
    const { browser, token } = await someone();
    const address = (await calendarAddress(token, { redir: `${APP}/calendars?label=café €` })).body.data.authUrl as string;
    expect((await requestRow(address))!.return_to).toBe(`${APP}/calendars?label=caf%C3%A9%20%E2%82%AC`);
    const page = await open(browser, pathOf(address));
    const connected = await postForm(browser, pathOf(address), { _csrf: csrfOf(page.body), decision: 'connect', account: 'ann@example.com' });
    expect(connected.status).toBe(303);
    expect(connected.location).toBe(`${APP}/calendars?label=caf%C3%A9%20%E2%82%AC`);
  });

  it.skipIf(!available)('a calendar, the whole walk: the page names the application and what is recorded; Connect records the account and sends the user back to redir; GET /v2/calendars shows it', async () => {
    const { user, browser, token } = await someone();
    const address = (await calendarAddress(token, { redir: `${APP}/calendars?step=2` })).body.data.authUrl as string;
    const page = await open(browser, pathOf(address));
    expect(page.headers.get('cache-control')).toBe('no-store');
    // The form's 303 may leave for the application's origin (docs/rules.md#security-headers).
    expect(page.headers.get('content-security-policy')).toContain(`form-action 'self' ${APP}`);
    expect(textOf(page.body, 'connect-title')).toBe('Connect your Google Calendar account?');
    expect(textOf(page.body, 'connect-asker')).toBe('Calendar Sync asks to connect your Google Calendar account to your Gatehouse account.');
    expect(textOf(page.body, 'connect-records')).toBe(
      'Gatehouse runs none of Google’s OAuth and does not sign in to Google Calendar for you: it records only what you confirm here, the address of your Google Calendar account. Calendar Sync then sees it among your connected calendars; nothing is read from or written to that calendar.',
    );
    expect(textOf(page.body, 'connect-return')).toMatch(/^After you decide, you will be sent back to sync\.example\.com \(https:\/\/sync\.example\.com\/calendars\?step=2\)\. This link works until \d{4}-\d\d-\d\d \d\d:\d\d UTC, once\.$/);
    expect(page.body).toContain('<input id="account" name="account" type="email" maxlength="254" autocomplete="email" required value="">');
    expect(visibleText(page.body)).toMatch(/Connect Cancel/);

    // An address the POST route would refuse: the form again, the message by the field, nothing used.
    const refused = await postForm(browser, pathOf(address), { _csrf: csrfOf(page.body), decision: 'connect', account: 'not an address' });
    expect(refused.status).toBe(400);
    expect(fieldError(refused.body, 'account')).toBe('Enter the e-mail address of your Google Calendar account, such as ann@example.com (at most 254 characters).');
    expect(refused.body).toContain('value="not an address"');
    expect((await requestRow(address))!.consumed_at).toBeNull();
    expect(await connections(user.id)).toEqual([]);

    const connected = await postForm(browser, pathOf(address), { _csrf: csrfOf(refused.body), decision: 'connect', account: 'Ann.Able@Gmail.example.com' });
    expect(connected.status).toBe(303);
    expect(connected.location).toBe(`${APP}/calendars?step=2`);
    expect(await connections(user.id)).toEqual([{ app: 'google-calendar', category: 'calendar', account: 'ann.able@gmail.example.com' }]);
    expect(Number((await requestRow(address))!.consumed_at)).toBeGreaterThan(0);

    // Recorded as POST /v2/calendars/google/connect records it.
    const listed = await server.api('GET', '/v2/calendars', token);
    expect(listed.body.data.connections).toEqual([expect.objectContaining({ app: 'google-calendar', category: 'calendar', account: 'ann.able@gmail.example.com', name: 'Ann.Able@Gmail.example.com', readOnly: false })]);
    expect(listed.body.data.connectedCalendars[0].primary).toMatchObject({ email: 'ann.able@gmail.example.com', integration: 'google_calendar' });
    expect((await server.api('GET', '/v2/calendars/google/check', token)).body.data).toEqual({ provider: 'google', connected: true, accounts: ['ann.able@gmail.example.com'] });
  });

  it.skipIf(!available)('a conferencing app, the whole walk: nothing to fill in; Connect records Zoom and sends the user to returnTo; GET /v2/conferencing shows it', async () => {
    const { user, browser, token } = await someone();
    const address = (await zoomAddress(token)).body.data.url as string;
    const page = await open(browser, pathOf(address));
    expect(textOf(page.body, 'connect-title')).toBe('Connect Zoom?');
    expect(textOf(page.body, 'connect-asker')).toBe('Calendar Sync asks to connect Zoom to your Gatehouse account, for your meetings.');
    expect(textOf(page.body, 'connect-records')).toBe(
      'Gatehouse runs none of Zoom’s OAuth and does not sign in to Zoom for you: it records only what you confirm here, that Zoom is connected to your account. Calendar Sync then sees it among your conferencing apps; no meeting link is made from it. There is nothing to fill in.',
    );
    expect(page.body).not.toContain('name="account"');

    const connected = await postForm(browser, pathOf(address), { _csrf: csrfOf(page.body), decision: 'connect' });
    expect(connected.status).toBe(303);
    expect(connected.location).toBe(`${APP}/zoom/connected`);
    expect(await connections(user.id)).toEqual([{ app: 'zoom', category: 'conferencing', account: 'zoom' }]);
    const listed = await server.api('GET', '/v2/conferencing', token);
    expect(listed.body.data).toEqual([expect.objectContaining({ type: 'zoom_video', appSlug: 'zoom', userId: Number(user.id), invalid: false, isDefault: false })]);
  });

  it.skipIf(!available)('a token works once: its page and its form are then the one 404 page, and a second Connect records nothing more', async () => {
    const { user, browser, token } = await someone();
    const address = (await zoomAddress(token)).body.data.url as string;
    const page = await open(browser, pathOf(address));
    const csrf = csrfOf(page.body);
    expect((await postForm(browser, pathOf(address), { _csrf: csrf, decision: 'connect' })).status).toBe(303);

    const again = await browser.get(pathOf(address));
    expect(again.status).toBe(404);
    expect(again.headers.get('cache-control')).toBe('no-store');
    expect(visibleText(again.body)).toContain(GONE);
    const twice = await postForm(browser, pathOf(address), { _csrf: csrf, decision: 'connect' });
    expect(twice.status).toBe(404);
    expect(visibleText(twice.body)).toContain(GONE);
    expect((await postForm(browser, pathOf(address), { _csrf: csrf, decision: 'cancel' })).status).toBe(404);
    expect(await connections(user.id)).toHaveLength(1);
    // A token never made, or not a token at all, is the same page.
    for (const made of [generateToken('connectionRequestToken'), 'nope', `gcr_${'A'.repeat(49)}`]) {
      const res = await browser.get(`/settings/connect/${made}`);
      expect(res.status, made).toBe(404);
      expect(visibleText(res.body)).toContain(GONE);
    }
  });

  it.skipIf(!available)('a token past its 10 minutes is the 404 page too, and records nothing', async () => {
    const { user, browser, token } = await someone();
    const address = (await calendarAddress(token, {})).body.data.authUrl as string;
    const page = await open(browser, pathOf(address));
    server.advance(10 * 60 + 1);
    const expired = await browser.get(pathOf(address));
    expect(expired.status).toBe(404);
    expect(visibleText(expired.body)).toContain(GONE);
    const posted = await postForm(browser, pathOf(address), { _csrf: csrfOf(page.body), decision: 'connect', account: 'ann@example.com' });
    expect(posted.status).toBe(404);
    expect(await connections(user.id)).toEqual([]);
    expect((await requestRow(address))!.consumed_at).toBeNull();
  });

  it.skipIf(!available)('another signed-in user gets a 403 page that names nothing of the account the link was made for, and neither uses nor records anything', async () => {
    const owner = await someone('Olga Owner');
    const address = (await zoomAddress(owner.token)).body.data.url as string;
    const other = await someone('Mallory Other');
    const csrf = csrfOf((await open(other.browser, '/logout')).body);

    const page = await other.browser.get(pathOf(address));
    expect(page.status).toBe(403);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(visibleText(page.body)).toContain('This connect link was made for another account than the one you are signed in with');
    for (const said of [owner.user.email, 'Olga', 'Calendar Sync', 'Zoom']) expect(visibleText(page.body)).not.toContain(said);
    for (const decision of ['connect', 'cancel']) {
      const posted = await postForm(other.browser, pathOf(address), { _csrf: csrf, decision });
      expect(posted.status, decision).toBe(403);
    }
    expect(await connections(other.user.id)).toEqual([]);
    expect(await connections(owner.user.id)).toEqual([]);
    expect((await requestRow(address))!.consumed_at).toBeNull();
    // Still its user's to confirm.
    const own = await open(owner.browser, pathOf(address));
    expect((await postForm(owner.browser, pathOf(address), { _csrf: csrfOf(own.body), decision: 'connect' })).location).toBe(`${APP}/zoom/connected`);
  });

  it.skipIf(!available)('issue 40 item 8: the page for another account offers to switch: log out, log in as the right account, and arrive back at the link', async () => {
    const owner = await someone('Olga Owner');
    const address = (await zoomAddress(owner.token)).body.data.url as string;
    const other = await someone('Mallory Other');
    const page = await other.browser.get(pathOf(address));
    expect(page.status).toBe(403);
    expect(visibleText(textOf(page.body, 'signed-in-as')!)).toBe(`You are signed in as Mallory Other (${other.user.email}). Log out and sign in with another account`);
    const switched = await postForm(other.browser, '/logout', { _csrf: csrfOf(page.body), next: pathOf(address) });
    expect(switched.status).toBe(303);
    expect(switched.location).toBe(`/login?next=${encodeURIComponent(pathOf(address))}`);
    const login = await other.browser.get(switched.location!);
    expect(textOf(login.body, 'login-for')).toBe('to continue to Calendar Sync');
    expect((await other.browser.login(owner.user.email, owner.user.password, pathOf(address))).location).toBe(pathOf(address));
    expect(textOf((await open(other.browser, pathOf(address))).body, 'connect-title')).toBe('Connect Zoom?');
  });

  it.skipIf(!available)('a return address on another origin, not https, with a user name, or not absolute is 400 naming the parameter, and nothing is kept; http on a registered loopback origin is allowed', async () => {
    const { user, token } = await someone();
    const cases: Array<[string, Record<string, string>, RegExp]> = [
      ['calendar', { redir: 'https://evil.example.net/calendars' }, /^redir: must be on the origin of one of your application's redirect URIs \(https:\/\/sync\.example\.com, http:\/\/127\.0\.0\.1:8765\)/],
      ['calendar', { redir: 'https://sync.example.com.evil.example.net/' }, /^redir: must be on the origin/],
      ['calendar', { redir: 'https://sync.example.com:8443/' }, /^redir: must be on the origin/],
      ['calendar', { redir: 'http://sync.example.com/calendars' }, /^redir: must use https \(http only on localhost, 127\.0\.0\.1 or \[::1\]\)/],
      ['calendar', { redir: 'https://user:pw@sync.example.com/' }, /^redir: must not hold a user name or password/],
      ['calendar', { redir: '/calendars' }, /^redir: must be an absolute address/],
      ['calendar', { redir: 'javascript:alert(1)' }, /^redir: must use https/],
      ['zoom', { returnTo: 'https://evil.example.net/ok', onErrorReturnTo: `${APP}/failed` }, /^returnTo: must be on the origin/],
      ['zoom', { returnTo: `${APP}/ok`, onErrorReturnTo: 'https://evil.example.net/failed' }, /^onErrorReturnTo: must be on the origin/],
      ['zoom', { returnTo: `${APP}/ok` }, /onErrorReturnTo/],
    ];
    for (const [kind, query, message] of cases) {
      const res = kind === 'calendar' ? await calendarAddress(token, query) : await zoomAddress(token, query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.message, JSON.stringify(query)).toMatch(message);
    }
    expect(await server.db.selectFrom('connection_requests').selectAll().where('user_id', '=', user.id).execute()).toEqual([]);

    const loopback = await zoomAddress(token, { returnTo: 'http://127.0.0.1:8765/done', onErrorReturnTo: `${APP}/failed` });
    expect(loopback.status, JSON.stringify(loopback.body)).toBe(200);
  });

  it.skipIf(!available)('Cancel uses the request and sends the user to onErrorReturnTo with error=access_denied (a calendar: to redir); nothing is recorded', async () => {
    const { user, browser, token } = await someone();
    const zoom = (await zoomAddress(token, { returnTo: `${APP}/zoom/connected`, onErrorReturnTo: `${APP}/zoom/failed?attempt=1` })).body.data.url as string;
    const zoomPage = await open(browser, pathOf(zoom));
    const cancelled = await postForm(browser, pathOf(zoom), { _csrf: csrfOf(zoomPage.body), decision: 'cancel' });
    expect(cancelled.status).toBe(303);
    expect(cancelled.location).toBe(`${APP}/zoom/failed?attempt=1&error=access_denied`);
    expect((await browser.get(pathOf(zoom))).status).toBe(404);

    const calendar = (await calendarAddress(token, { redir: `${APP}/calendars` })).body.data.authUrl as string;
    const calendarPage = await open(browser, pathOf(calendar));
    // Cancel needs no address: the browser does not check the field for it (formnovalidate), nor does the server.
    const back = await postForm(browser, pathOf(calendar), { _csrf: csrfOf(calendarPage.body), decision: 'cancel', account: '' });
    expect(back.location).toBe(`${APP}/calendars?error=access_denied`);

    // Without redir, the user lands on a page that says so.
    const bare = (await calendarAddress(token, {})).body.data.authUrl as string;
    const barePage = await open(browser, pathOf(bare));
    const ended = await postForm(browser, pathOf(bare), { _csrf: csrfOf(barePage.body), decision: 'cancel' });
    expect(ended.status).toBe(303);
    const landed = await browser.follow(ended);
    expect(textOf(landed.body, 'connect-done-title')).toBe('Not connected');
    expect(textOf(landed.body, 'flash')).toBe('You cancelled: nothing was connected to your account.');

    expect(await connections(user.id)).toEqual([]);
    expect((await server.api('GET', '/v2/conferencing', token)).body.data).toEqual([]);
  });

  it.skipIf(!available)('a calendar without redir: Connect ends on a small Connected page, once', async () => {
    const { browser, token } = await someone();
    const address = (await calendarAddress(token, {})).body.data.authUrl as string;
    const page = await open(browser, pathOf(address));
    expect(textOf(page.body, 'connect-return')).toMatch(/^This link works until .* UTC, once\.$/);
    const connected = await postForm(browser, pathOf(address), { _csrf: csrfOf(page.body), decision: 'connect', account: 'ann@outlook.example.com' });
    expect(connected.status).toBe(303);
    expect(connected.location).toMatch(/^\/settings\/connect\?notice=/);
    const landed = await browser.follow(connected);
    expect(textOf(landed.body, 'connect-done-title')).toBe('Connected');
    expect(textOf(landed.body, 'flash')).toBe('Your Google Calendar account ann@outlook.example.com is connected to your account. You can go back to Calendar Sync.');
    // A reload shows the notice no more.
    const reloaded = await browser.get(connected.location!);
    expect(textOf(reloaded.body, 'connect-done-title')).toBe('Connections');
    expect(textOf(reloaded.body, 'flash')).toBeNull();
  });

  it.skipIf(!available)('connected already: a conferencing app sends the user to onErrorReturnTo with error=already_connected and uses the request; a calendar shows the form again, its request still waiting', async () => {
    const { user, browser, token } = await someone();
    expect((await server.api('POST', '/v2/conferencing/msteams/connect', token)).status).toBe(200);
    const teams = await server.api('GET', `/v2/conferencing/msteams/oauth/auth-url?${new URLSearchParams({ returnTo: `${APP}/ok`, onErrorReturnTo: `${APP}/failed` })}`, token);
    const teamsPath = pathOf(teams.body.data.url);
    const teamsPage = await open(browser, teamsPath);
    expect(textOf(teamsPage.body, 'connect-title')).toBe('Connect Microsoft Teams?');
    expect(textOf(teamsPage.body, 'connect-records')).toMatch(/^Gatehouse runs none of Microsoft’s OAuth/);
    const refused = await postForm(browser, teamsPath, { _csrf: csrfOf(teamsPage.body), decision: 'connect' });
    expect(refused.status).toBe(303);
    expect(refused.location).toBe(`${APP}/failed?error=already_connected`);
    expect((await browser.get(teamsPath)).status).toBe(404);

    expect((await server.api('POST', '/v2/calendars/office365/connect', token, { account: 'ann@contoso.example.com' })).status).toBe(201);
    const outlook = (await server.api('GET', '/v2/calendars/office365/connect?isDryRun=false', token)).body.data.authUrl as string;
    const outlookPage = await open(browser, pathOf(outlook));
    const again = await postForm(browser, pathOf(outlook), { _csrf: csrfOf(outlookPage.body), decision: 'connect', account: 'ANN@contoso.example.com' });
    expect(again.status).toBe(409);
    expect(fieldError(again.body, 'account')).toBe('That Outlook Calendar account is already connected to your account: enter another address, or cancel.');
    expect((await requestRow(outlook))!.consumed_at).toBeNull();
    const other = await postForm(browser, pathOf(outlook), { _csrf: csrfOf(again.body), decision: 'connect', account: 'ann.b@contoso.example.com' });
    expect(other.status).toBe(303);
    expect((await connections(user.id)).map((c) => c.account)).toEqual(['microsoft-teams', 'ann@contoso.example.com', 'ann.b@contoso.example.com']);
  });

  it.skipIf(!available)('not signed in: the page sends the browser to log in and back to it, and the token never reaches the log in clear', async () => {
    const { user, token } = await someone();
    const address = (await zoomAddress(token)).body.data.url as string;
    const path = pathOf(address);
    const browser = server.browser();
    const anonymous = await browser.get(path);
    expect(anonymous.status).toBe(303);
    expect(anonymous.location).toBe(`/login?next=${encodeURIComponent(path)}`);
    // Issue 40 item 8: the login page says which application the link is for, as for an authorization request.
    const loginPage = await browser.get(anonymous.location!);
    expect(textOf(loginPage.body, 'login-for')).toBe('to continue to Calendar Sync');
    expect(loginPage.body).toContain(`src="/oauth-clients/${client.clientId}/logo"`);
    const login = await browser.login(user.email, user.password, path);
    expect(login.status).toBe(303);
    expect(login.location).toBe(path);
    const page = await open(browser, path);
    expect(textOf(page.body, 'connect-title')).toBe('Connect Zoom?');
    expect(server.logs.join('\n')).not.toContain(tokenIn(address));
    expect(server.logs.join('\n')).toContain('/settings/connect/[redacted]');
  });

  it.skipIf(!available)('a form without its CSRF token, or with a decision that is neither Connect nor Cancel, changes nothing', async () => {
    const { user, browser, token } = await someone();
    const address = (await zoomAddress(token)).body.data.url as string;
    const page = await open(browser, pathOf(address));
    expect((await postForm(browser, pathOf(address), { decision: 'connect' })).status).toBe(403);
    const odd = await postForm(browser, pathOf(address), { _csrf: csrfOf(page.body), decision: 'maybe' });
    expect(odd.status).toBe(400);
    expect(visibleText(odd.body)).toContain('Choose Connect or Cancel on the connect page.');
    expect(await connections(user.id)).toEqual([]);
    expect((await requestRow(address))!.consumed_at).toBeNull();
  });
});
