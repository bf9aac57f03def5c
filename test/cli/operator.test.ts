// What an operator meets in the second hour: accounts from the command line
// (list, reset-password, set-admin), a `demo` that can run again, and one convention for
// every answer — refusals, unknown ids, scope hints, emails for ids, snake_case JSON with
// ISO times, and the CLI's own actions named "CLI (operator)" on the pages too. The real
// `gatehouse` command over the database of a real server, on every backend (as a child
// process where its standard input is a slow pipe); and the client's version in every review
// decision ("client versions", below).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, sessionUser } from '../../src/services/accounts/sessions.ts';
import { findUserByEmail, verifyPassword } from '../../src/services/accounts/users.ts';
import { listClients, requireClient } from '../../src/services/clients/view.ts';
import { CLI_OPERATOR } from '../../src/services/actors.ts';
import { backends } from '../helpers/backends.ts';
import { runCliProcess } from '../helpers/cli-process.ts';
import { expectOneLineRefusal, runCli, type CliResult } from '../helpers/cli.ts';
import { loggedIn, visibleText } from '../helpers/pages.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

function ok(result: CliResult): string {
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toBe('');
  return result.stdout;
}

const json = <T = any>(result: CliResult): T => JSON.parse(ok(result)) as T;

describe.each(backends)('gatehouse for operators on $name', { timeout: 180_000 }, ({ name, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer(name);
  });
  afterAll(async () => server?.close());

  const gh = (args: string[], input?: string) =>
    runCli(args, { env: { DATABASE_URL: server.database.url, ...server.database.env, APP_URL: server.url, BASE_URL: server.url }, ...(input !== undefined ? { input } : {}) });

  it.skipIf(!available)('users list, set-admin and reset-password: a new password is printed once and works, the old one and every session stop', async () => {
    const user = await server.user({ name: 'Lost Password' });
    const session = await createSession(server.services, user.id);

    const listed = json<Array<Record<string, unknown>>>(await gh(['users', 'list', '--json']));
    expect(listed).toContainEqual({ id: user.id, email: user.email, name: 'Lost Password', admin: false, created_at: expect.stringMatching(ISO) });
    expect(ok(await gh(['users', 'list']))).toMatch(new RegExp(`^${user.email.replace(/\./g, '\\.')} +Lost Password$`, 'm'));

    expect(ok(await gh(['users', 'set-admin', user.email])).trim()).toBe(`${user.email} is now a platform admin`);
    expect(json(await gh(['users', 'set-admin', user.email.toUpperCase(), '--json']))).toEqual({ email: user.email, admin: true, changed: false });
    expect(json<unknown[]>(await gh(['users', 'list', '--admins', '--json']))).toContainEqual(expect.objectContaining({ email: user.email, admin: true }));
    expect(json(await gh(['users', 'set-admin', user.email, '--off', '--json']))).toEqual({ email: user.email, admin: false, changed: true });
    expect((await findUserByEmail(server.services, user.email))?.isAdmin).toBe(false);

    const reset = ok(await gh(['users', 'reset-password', user.email]));
    const match = /^new password for (\S+): (\S+) {2}\(shown once\); 1 browser session signed out\n$/.exec(reset);
    expect(match, reset).not.toBeNull();
    const fresh = match![2]!;
    expect(await verifyPassword(server.services, user.email, fresh)).toMatchObject({ id: user.id });
    expect(await verifyPassword(server.services, user.email, user.password)).toBeUndefined();
    expect(await sessionUser(server.services, session)).toBeUndefined();

    // --password-stdin: the operator's own choice, never echoed back.
    const chosen = await gh(['users', 'reset-password', user.email, '--password-stdin', '--json'], 'chosen by the operator\n');
    expect(json(chosen)).toEqual({ email: user.email, password: null, sessions_ended: 0 });
    expect(chosen.stdout).not.toContain('chosen by the operator');
    expect(await verifyPassword(server.services, user.email, 'chosen by the operator')).toMatchObject({ id: user.id });
    // The login form takes it.
    expect((await server.browser().login(user.email, 'chosen by the operator')).status).toBe(303);

    // From a writer slower than the command (a password manager that asks first): it waits.
    const slow = await runCliProcess(['users', 'reset-password', user.email, '--password-stdin', '--json'], {
      env: { DATABASE_URL: server.database.url, ...server.database.env },
      input: 'typed into a password manager\n',
      inputAfterMs: 500,
    });
    expect(slow.stderr).toBe('');
    // The login just above is the session it ends.
    expect(json(slow)).toEqual({ email: user.email, password: null, sessions_ended: 1 });
    expect(await verifyPassword(server.services, user.email, 'typed into a password manager')).toMatchObject({ id: user.id });

    expectOneLineRefusal(await gh(['users', 'reset-password', user.email, '--password-stdin'], 'short\n'), /^gatehouse: password must be at least 8 characters$/);
    expectOneLineRefusal(await gh(['users', 'reset-password', user.email, '--password-stdin']), /^gatehouse: a password is required: pipe it on standard input with --password-stdin$/);
    expectOneLineRefusal(await gh(['users', 'reset-password', 'nobody@example.com']), /^gatehouse: no user with email nobody@example\.com$/);
    expectOneLineRefusal(await gh(['users', 'set-admin', 'nobody@example.com']), /^gatehouse: no user with email nobody@example\.com$/);
  });

  it.skipIf(!available)('demo is idempotent: one demo client however often it runs; --reset-password and --reset-secret print fresh ones', async () => {
    const first = json(await gh(['demo', '--json']));
    expect(first).toMatchObject({ user: { email: 'demo@example.com', password: expect.any(String) }, client_secret: expect.stringMatching(/^gcs_/), client_state: 'approved' });
    expect(new URL(first.authorization_url).searchParams.get('response_type')).toBe('code');

    const again = json(await gh(['demo', '--json']));
    expect(again).toMatchObject({ client_id: first.client_id, client_secret: null, user: { email: 'demo@example.com', password: null } });
    const human = ok(await gh(['demo']));
    expect(human).toMatch(/^demo user: +demo@example\.com \(already existed; password unchanged: `gatehouse demo --reset-password` sets a new one\)$/m);
    expect(human).toMatch(/^client_secret: +\(shown when it was made; `gatehouse demo --reset-secret` replaces it\)$/m);
    const demoUser = (await findUserByEmail(server.services, 'demo@example.com'))!;
    expect((await listClients(server.services, { ownerId: demoUser.id })).map((c) => c.clientId)).toEqual([first.client_id]);
    expect(await verifyPassword(server.services, 'demo@example.com', first.user.password)).toBeDefined();

    const reset = json(await gh(['demo', '--reset-password', '--reset-secret', '--json']));
    expect(reset.client_id).toBe(first.client_id);
    expect(reset.user.password).not.toBe(first.user.password);
    expect(await verifyPassword(server.services, 'demo@example.com', reset.user.password)).toBeDefined();
    expect(await verifyPassword(server.services, 'demo@example.com', first.user.password)).toBeUndefined();
    // The new secret is the client's only one: the lost one stopped working.
    const shown = json(await gh(['clients', 'show', first.client_id, '--json']));
    expect(shown.secrets).toEqual([expect.objectContaining({ last_four: reset.client_secret.slice(-4) })]);
    const token = (secret: string) =>
      fetch(`${server.url}/v2/auth/oauth2/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code: 'gac_nothing', client_id: first.client_id, client_secret: secret, redirect_uri: 'http://localhost:8080/callback' }) }).then(
        async (r) => (await r.json()) as { error: string },
      );
    expect((await token(first.client_secret)).error).toBe('invalid_client');
    expect((await token(reset.client_secret)).error).toBe('invalid_grant');
  });

  it.skipIf(!available)('audit names people by email and the CLI as "CLI (operator)", with snake_case JSON and ISO times; the admin page shows the same, and a resource-server toggle as its own event', async () => {
    const dev = await server.user();
    const client = await server.client(dev, { state: 'pending' });
    ok(await gh(['clients', 'approve', client.clientId]));
    ok(await gh(['clients', 'resource-server', client.clientId]));

    const events = json<Array<Record<string, unknown>>>(await gh(['audit', '--client', client.clientId, '--json']));
    expect(events[0]).toEqual({
      id: expect.any(Number),
      type: 'client.resource_server_changed',
      created_at: expect.stringMatching(ISO),
      client_id: client.clientId,
      user_id: null,
      user_email: null,
      actor_id: 'cli:operator',
      actor: 'CLI (operator)',
      data: { resource_server: true },
    });
    expect(events.map((e) => e.type)).toEqual(['client.resource_server_changed', 'client.approved', 'secret.created', 'client.created']);
    for (const e of events) expect(Object.keys(e).every((k) => /^[a-z_]+$/.test(k)), JSON.stringify(e)).toBe(true);

    const text = ok(await gh(['audit', '--client', client.clientId]));
    expect(text).toMatch(/^\S+Z {2}client\.resource_server_changed +client=\S+ user=- by=CLI \(operator\) {2}\{"resource_server":true\}$/m);
    expect(text).toMatch(new RegExp(`client\\.created .* by=${dev.email.replace(/\./g, '\\.')}`));
    expect(text).not.toMatch(new RegExp(`(by|user)=${dev.id}\\b`));

    // A client the operator registers for a developer is recorded as the operator's doing, not the developer's.
    const viaCli = json(await gh(['clients', 'create', '--owner', dev.email, '--name', 'By Operator', '--redirect-uri', 'https://op.example.com/cb', '--scope', 'PROFILE_READ', '--json']));
    const created = json<Array<{ type: string; actor: string }>>(await gh(['audit', '--client', viaCli.client_id, '--json']));
    expect(created.map((e) => [e.type, e.actor])).toEqual([
      ['secret.created', 'CLI (operator)'],
      ['client.created', 'CLI (operator)'],
    ]);

    const { browser } = await loggedIn(server, { admin: true });
    const page = await browser.get(`/admin/oauth-clients/${client.clientId}`);
    expect(page.status).toBe(200);
    const visible = visibleText(page.body);
    expect(visible).toMatch(/Resource-server mark changed[^]*CLI \(operator\)[^]*marked as a resource server/);
    expect(visible).toMatch(/Approved by an admin[^]*CLI \(operator\)/);
    expect(visible).not.toMatch(/\bsystem\b/);
  });

  it.skipIf(!available)('unknown ids are refused everywhere, audit included; a mistyped scope gets a hint; every refusal starts "gatehouse: "', async () => {
    const owner = await server.user();
    const cases: Array<[string[], RegExp]> = [
      [['audit', '--client', 'UNKNOWN'], /^gatehouse: no client with id UNKNOWN$/],
      [['audit', '--user', 'nobody@example.com'], /^gatehouse: no user with email nobody@example\.com$/],
      [['audit', '--limit', '2x'], /^gatehouse: --limit must be a whole number from 1 to 10000$/],
      [['clients', 'show', 'UNKNOWN'], /^gatehouse: no client with id UNKNOWN$/],
      [['secrets', 'add', 'UNKNOWN'], /^gatehouse: no client with id UNKNOWN$/],
      [['clients', 'create', '--owner', owner.email, '--name', 'Hinted', '--redirect-uri', 'https://a.example.com/cb', '--scope', 'profile_read'], /^gatehouse: unknown scope: profile_read \(did you mean PROFILE_READ\?\)$/],
      [['clients', 'create', '--owner', owner.email, '--name', 'Hinted', '--redirect-uri', 'https://a.example.com/cb', '--scope', 'BOOKING_RAED'], /^gatehouse: unknown scope: BOOKING_RAED \(did you mean BOOKING_READ\?\)$/],
      [['clients', 'create', '--name', 'X'], /^gatehouse: required option '--owner <email>' not specified$/],
      [['clients', 'show'], /^gatehouse: missing required argument 'clientId'$/],
      // An empty value is said to be empty, not looked up (nor, for audit, taken as no filter).
      [['clients', 'show', ''], /^gatehouse: the client id is empty: give the id of a client$/],
      [['audit', '--client', ''], /^gatehouse: the client id is empty: give the id of a client$/],
      [['audit', '--user', ''], /^gatehouse: the email is empty: give the email of a user$/],
      [['users', 'set-admin', ''], /^gatehouse: the email is empty: give the email of a user$/],
    ];
    for (const [args, message] of cases) expectOneLineRefusal(await gh(args), message);
    expect(await listClients(server.services, { ownerId: owner.id })).toEqual([]);
  });

  // `gatehouse clients show|list|approve|reject` and the client's version (docs/rules.md#cli,
  // docs/rules.md#audit-events, docs/rules.md#client-changes, docs/rules.md#review-versions): a
  // decision names the version it was made on and a stale one is refused with one line; on an
  // approved client, approve and reject act on its held change.
  describe('client versions', () => {
    let dev: TestUser;
    beforeAll(async () => {
      if (!available) return;
      dev = await server.user();
    });

    const A = 'https://app.example.com/callback';
    const B = 'https://second.example.com/callback';
    const EVIL = 'https://evil.example/steal';
    /** Issue 24, item 3: the refusal names the version given and the current one. */
    const stale = (clientId: string, given: number, current: number) =>
      new RegExp(`^gatehouse: version ${given} is not the current version of client ${clientId}, which is ${current}: the client changed since you opened it, review it again \\(\`gatehouse clients show ${clientId}\` prints what it is now\\)$`);

    const version = async (client: TestClient) => (await requireClient(server.services, client.clientId)).version;

    async function snapshot(client: TestClient) {
      const row = (await server.services.stores.clients.find(client.clientId))!;
      return { row, events: (await server.services.stores.auditLog.list({ clientId: client.clientId })).length };
    }

    function authorize(client: TestClient, redirectUri: string) {
      const query = new URLSearchParams({ client_id: client.clientId, redirect_uri: redirectUri, response_type: 'code', scope: 'PROFILE_READ' });
      return server.browser().get(`/auth/oauth2/authorize?${query}`);
    }

    it.skipIf(!available)('clients show prints the version and the held change in text and --json; clients list mentions the held change (docs/rules.md#client-changes, docs/rules.md#review-versions)', async () => {
      const client = await server.client(dev, { redirectUris: [A], scopes: ['PROFILE_READ'], name: 'Held App' });
      const before = await version(client);
      ok(await gh(['clients', 'update', client.clientId, '--redirect-uri', A, '--redirect-uri', B, '--scope', 'PROFILE_READ', '--scope', 'BOOKING_READ']));
      const now = await version(client);
      expect(now).toBeGreaterThan(before);

      const text = ok(await gh(['clients', 'show', client.clientId]));
      expect(text).toMatch(new RegExp(`^version: +${now}$`, 'm'));
      expect(text).toMatch(/^redirect URIs: https:\/\/app\.example\.com\/callback$/m);
      expect(text).toContain(`held change:   adds redirect URIs ${B}; scopes BOOKING_READ (awaiting admin review)`);
      expect(text).toMatch(new RegExp(`^to decide: +gatehouse clients approve ${client.clientId} --version (\\d+) \\(accepts it\\); gatehouse clients reject ${client.clientId} --version \\1 --reason TEXT \\(refuses it\\)$`, 'm'));
      const shown = JSON.parse(ok(await gh(['clients', 'show', client.clientId, '--json'])));
      expect(shown).toMatchObject({ version: now, state: 'approved', redirect_uris: [A], scopes: ['PROFILE_READ'], proposed_redirect_uris: [B], proposed_scopes: ['BOOKING_READ'] });

      const list = ok(await gh(['clients', 'list']));
      expect(list).toMatch(new RegExp(`^${client.clientId} +approved +confidential +Held App +\\(change awaiting review\\)$`, 'm'));
      const listed = JSON.parse(ok(await gh(['clients', 'list', '--json']))) as Array<Record<string, unknown>>;
      expect(listed.find((c) => c.client_id === client.clientId)).toMatchObject({ change_awaiting_review: true });
    });

    it.skipIf(!available)('approve --version N is refused with one line when the client changed since N, and nothing changes; the current version decides (docs/rules.md#review-versions)', async () => {
      const client = await server.client(dev, { state: 'pending', redirectUris: [A], scopes: ['PROFILE_READ'] });
      const reviewed = JSON.parse(ok(await gh(['clients', 'show', client.clientId, '--json']))).version as number;
      // After the operator looked, the developer points the client elsewhere and asks for more.
      ok(await gh(['clients', 'update', client.clientId, '--redirect-uri', EVIL, '--scope', 'PROFILE_READ', '--scope', 'BOOKING_WRITE']));
      const before = await snapshot(client);

      const now = await version(client);
      expectOneLineRefusal(await gh(['clients', 'approve', client.clientId, '--version', String(reviewed)]), stale(client.clientId, reviewed, now));
      expectOneLineRefusal(await gh(['clients', 'reject', client.clientId, '--reason', 'no', '--version', String(reviewed)]), stale(client.clientId, reviewed, now));
      // A version the client never had (`--version 9` on a client at version 1): which one is current.
      const never = now + 8;
      for (const decision of [['approve'], ['reject', '--reason', 'no'], ['suspend']]) {
        expectOneLineRefusal(
          await gh(['clients', decision[0]!, client.clientId, ...decision.slice(1), '--version', String(never)]),
          new RegExp(`^gatehouse: version ${never} is not the current version of client ${client.clientId}, which is ${now} \\(\`gatehouse clients show ${client.clientId}\` prints what it is now\\)$`),
        );
      }
      expectOneLineRefusal(await gh(['clients', 'approve', client.clientId, '--version', 'latest']), /^gatehouse: --version must be a whole number from 1, as `gatehouse clients show` prints it$/);
      expect(await snapshot(client)).toEqual(before);
      expect(before.row.state).toBe('pending');

      const current = JSON.parse(ok(await gh(['clients', 'show', client.clientId, '--json']))).version as number;
      expect(current).toBeGreaterThan(reviewed);
      expect(JSON.parse(ok(await gh(['clients', 'reject', client.clientId, '--reason', 'evil.example is not yours', '--version', String(current), '--json'])))).toEqual({
        client_id: client.clientId,
        state: 'rejected',
        review_note: 'evil.example is not yours',
      });
    });

    it.skipIf(!available)('on an approved client with a held change, approve accepts it and reject --reason refuses it; the client stays approved and both are audited (docs/rules.md#audit-events, docs/rules.md#client-changes, docs/rules.md#review-versions)', async () => {
      const client = await server.client(dev, { redirectUris: [A], scopes: ['PROFILE_READ'] });
      ok(await gh(['clients', 'update', client.clientId, '--redirect-uri', A, '--redirect-uri', B, '--scope', 'PROFILE_READ', '--scope', 'BOOKING_READ']));
      const accepted = JSON.parse(ok(await gh(['clients', 'approve', client.clientId, '--version', String(await version(client)), '--json'])));
      expect(accepted).toMatchObject({
        client_id: client.clientId,
        state: 'approved',
        held_change: { decision: 'accepted', redirect_uris: [B], scopes: ['BOOKING_READ'] },
        redirect_uris: [A, B],
        scopes: ['BOOKING_READ', 'PROFILE_READ'],
      });
      expect(accepted.version).toBe(await version(client));
      // B is registered now: the authorization request goes on to the login page.
      const viaB = await authorize(client, B);
      expect(viaB.status).toBe(303);
      expect(viaB.location).toMatch(/^\/login\?/);
      let events = await server.services.stores.auditLog.list({ clientId: client.clientId });
      expect(events.find((e) => e.type === 'client.approved' && e.data?.changes !== undefined)?.data).toEqual({ changes: { redirectUris: [B], scopes: ['BOOKING_READ'] } });
      expect(events.find((e) => e.type === 'client.scopes_changed' && e.actorId === CLI_OPERATOR)?.data).toEqual({ from: 'PROFILE_READ', to: 'BOOKING_READ PROFILE_READ' });

      ok(await gh(['clients', 'update', client.clientId, '--redirect-uri', A, '--redirect-uri', B, '--redirect-uri', EVIL, '--scope', 'PROFILE_READ', '--scope', 'BOOKING_READ', '--scope', 'BOOKING_WRITE']));
      const before = await snapshot(client);
      expectOneLineRefusal(await gh(['clients', 'reject', client.clientId]), /^gatehouse: declining changes needs a reason for the developer$/);
      expect(await snapshot(client)).toEqual(before);

      const refused = ok(await gh(['clients', 'reject', client.clientId, '--reason', 'evil.example is not your domain']));
      expect(refused.trim()).toBe(
        `client ${client.clientId}: held change refused (${EVIL}, BOOKING_WRITE); it stays approved, live redirect URIs: ${A}, ${B}; live scopes: BOOKING_READ PROFILE_READ`,
      );
      expect(await requireClient(server.services, client.clientId)).toMatchObject({
        state: 'approved',
        redirectUris: [A, B],
        scopes: ['BOOKING_READ', 'PROFILE_READ'],
        proposedRedirectUris: [],
        proposedScopes: [],
        reviewNote: 'evil.example is not your domain',
      });
      const evil = await authorize(client, EVIL);
      expect(evil.status).toBe(400);
      expect(visibleText(evil.body)).toContain(`redirect_uri "${EVIL}" is not registered`);
      events = await server.services.stores.auditLog.list({ clientId: client.clientId });
      expect(events.find((e) => e.type === 'client.rejected')).toMatchObject({
        actorId: CLI_OPERATOR,
        data: { changes: { redirectUris: [EVIL], scopes: ['BOOKING_WRITE'] }, reason: 'evil.example is not your domain' },
      });

      // With nothing held any more, reject is about the client again, and an approved client cannot be rejected.
      expectOneLineRefusal(await gh(['clients', 'reject', client.clientId, '--reason', 'again']), /^gatehouse: cannot reject a client that is approved/);
    });
  });
});
