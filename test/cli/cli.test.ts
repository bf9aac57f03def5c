// The `gatehouse` command (docs/rules.md#cli) over a real database: what an operator types and what a
// script parses. Commands run in this process (test/helpers/cli.ts); a first migrate on each
// backend, `--version` and a password piped on standard input run as a real child process. The SQLite suite
// shares one database file and PostgreSQL gets a smaller smoke.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/services/accounts/users.ts';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.ts';
import { createTestDatabase, dropSchema, postgresUrl, type TestDatabase } from '../helpers/backends.ts';
import { runCliProcess } from '../helpers/cli-process.ts';
import { projectRoot } from '../helpers/project-root.ts';
import { expectOneLineRefusal, runCli, type CliResult } from '../helpers/cli.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { storesOver } from '../helpers/stores.ts';
import { createServiceContext } from '../../src/storage/stores/index.ts';
import { testServiceOptions } from '../helpers/password-hashing.ts';

const SECRET = /^gcs_[0-9A-Za-z]{49}$/;
// A spawn is Node + tsx + the whole import graph: about a second alone, several on a busy machine.
const CLI_TEST_TIMEOUT = 120_000;

function json<T = any>(result: CliResult): T {
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as T;
}

function ok(result: CliResult): string {
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toBe('');
  return result.stdout;
}

describe('gatehouse CLI on SQLite (docs/rules.md#cli)', { timeout: CLI_TEST_TIMEOUT }, () => {
  // The tests below run in order over one database: a client made by one is reviewed,
  // listed and rotated by the next, as an operator would do.
  let dir: string;
  let env: Record<string, string>;
  let firstMigrate: CliResult;
  let developerCreated: CliResult;
  const developer = `dev-${randomBytes(3).toString('hex')}@example.com`;
  const gh = (args: string[], input?: string) => runCli(args, { env, ...(input !== undefined ? { input } : {}) });
  let bridge: { client_id: string; client_secret: string };
  let pendingOne: { client_id: string; client_secret: string };
  let publicOne: { client_id: string };
  let legacy: { client_id: string };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-cli-'));
    env = { DATABASE_URL: `sqlite:${join(dir, 'gatehouse.db')}` };
    firstMigrate = await runCliProcess(['migrate'], { env });
    expect(firstMigrate.code, firstMigrate.stderr).toBe(0);
    developerCreated = await gh(['users', 'create', '--email', developer.toUpperCase(), '--name', 'Dev', '--password', 'developer-password', '--admin', '--json']);
    expect(developerCreated.code, developerCreated.stderr).toBe(0);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function countClients(): Promise<number> {
    const database = openDatabase(env.DATABASE_URL!);
    try {
      return (await storesOver(database.db).services.stores.clients.list({})).length;
    } finally {
      await database.close();
    }
  }

  it('--version, run as a shell runs it, prints the package version and nothing else, and exits 0', async () => {
    const { version } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string };
    expect(await runCliProcess(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('migrate applies every migration to a new database, then says it is up to date (--json: applied [])', async () => {
    expect(firstMigrate.stdout).toMatch(/^applied: 001_initial(, \d{3}_\w+)*\n$/);
    expect(json(await gh(['migrate', '--json']))).toEqual({ applied: [] });
  });

  it('users create --password --admin --json prints the new account, email in lower case, and never the password', () => {
    expect(json(developerCreated)).toEqual({ id: expect.any(String), email: developer, name: 'Dev', admin: true });
    expect(developerCreated.stdout).not.toContain('developer-password');
  });

  it('users create reads the password from standard input, without its trailing newline', async () => {
    const email = `stdin-${randomBytes(3).toString('hex')}@example.com`;
    const out = ok(await runCliProcess(['users', 'create', '--email', email, '--name', 'Ada Lovelace'], { env, input: 'correct horse battery\n' }));
    expect(out).toMatch(new RegExp(`^created user ${email} \\(\\w+\\)\\n$`));
    expect(out).not.toContain('correct horse');
    const database = openDatabase(env.DATABASE_URL!);
    try {
      const services = createServiceContext(database.db, Date.now, testServiceOptions);
      expect(await verifyPassword(services, email, 'correct horse battery')).toMatchObject({ email, name: 'Ada Lovelace', isAdmin: false });
      expect(await verifyPassword(services, email, 'correct horse battery\n')).toBeUndefined();
    } finally {
      await database.close();
    }
  });

  it('clients create prints the client_id and, once, the first secret; the client starts pending', async () => {
    const out = ok(
      await gh(['clients', 'create', '--owner', developer, '--name', 'Calendar Bridge', '--redirect-uri', 'https://bridge.example.com/cb', '--scope', 'PROFILE_READ', '--scope', 'BOOKING_READ']),
    );
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^client_id: [0-9A-Za-z]{10,}$/);
    expect(lines[1]).toMatch(/^client_secret: gcs_[0-9A-Za-z]{49} {2}\(shown once; store it now\)$/);
    expect(lines[2]).toMatch(/^state: pending/);
    bridge = { client_id: lines[0]!.split(' ')[1]!, client_secret: lines[1]!.split(' ')[1]! };
  });

  it('clients create --json has client_id, client_secret, state and kind; a --public client has no secret', async () => {
    pendingOne = json(
      await gh(['clients', 'create', '--owner', developer, '--name', 'Listed Pending', '--redirect-uri', 'https://sync.example.com/cb', '--scope', 'PROFILE_READ', '--json']),
    );
    expect(pendingOne).toEqual({ client_id: expect.any(String), client_secret: expect.stringMatching(SECRET), state: 'pending', kind: 'confidential' });
    publicOne = json(
      await gh(['clients', 'create', '--owner', developer, '--name', 'Mobile', '--public', '--redirect-uri', 'http://127.0.0.1:7000/cb', '--scope', 'PROFILE_READ,SCHEDULE_READ', '--json']),
    );
    expect(publicOne).toEqual({ client_id: expect.any(String), client_secret: null, state: 'pending', kind: 'public' });
    expect(publicOne.client_id).not.toBe(pendingOne.client_id);
  });

  it('approve, suspend and re-approve move a client through its review states (docs/rules.md#client-states)', async () => {
    const { client_id } = bridge;
    expect(ok(await gh(['clients', 'approve', client_id])).trim()).toBe(`client ${client_id} is now approved`);
    expect(json(await gh(['clients', 'suspend', client_id, '--reason', 'abuse report', '--json']))).toEqual({
      client_id,
      state: 'suspended',
      review_note: 'abuse report',
    });
    expect(json(await gh(['clients', 'approve', client_id, '--json']))).toMatchObject({ client_id, state: 'approved' });
  });

  it('clients resource-server marks a client as a resource server and --off removes the mark (docs/rules.md#introspection)', async () => {
    const { client_id } = bridge;
    const flag = async () => {
      const database = openDatabase(env.DATABASE_URL!);
      try {
        return (await storesOver(database.db).services.stores.clients.find(client_id))?.resourceServer;
      } finally {
        await database.close();
      }
    };
    expect(json(await gh(['clients', 'resource-server', client_id, '--json']))).toEqual({ client_id, resource_server: true });
    expect(await flag()).toBe(true);
    expect(ok(await gh(['clients', 'resource-server', client_id, '--off'])).trim()).toBe(`client ${client_id} is no longer a resource server`);
    expect(await flag()).toBe(false);
    const unknown = await gh(['clients', 'resource-server', 'no-such-client']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('gatehouse: no client with id no-such-client');
    // docs/rules.md#introspection: introspection needs client authentication, which a public client cannot do.
    expectOneLineRefusal(await gh(['clients', 'resource-server', publicOne.client_id]), /^gatehouse: client .* is public: it cannot authenticate, so it cannot introspect tokens; only a confidential client can be a resource server$/);
    expect(ok(await gh(['clients', 'resource-server', publicOne.client_id, '--off'])).trim()).toBe(`client ${publicOne.client_id} is no longer a resource server`);
  });

  it('clients update --require-par and --no-require-par set and clear the client\'s PAR requirement; show prints it (docs/rules.md#pushed-authorization)', async () => {
    const { client_id } = bridge;
    const updated = json(await gh(['clients', 'update', client_id, '--require-par', '--json']));
    expect(updated).toMatchObject({ client_id, require_pushed_authorization_requests: true });
    expect(json(await gh(['clients', 'show', client_id, '--json']))).toMatchObject({ require_pushed_authorization_requests: true });
    expect(ok(await gh(['clients', 'show', client_id]))).toMatch(/^PAR: +required \(RFC 9126\)$/m);
    expect(ok(await gh(['clients', 'update', client_id, '--no-require-par']))).toContain('pushed authorization requests: optional');
    expect(json(await gh(['clients', 'show', client_id, '--json']))).toMatchObject({ require_pushed_authorization_requests: false });
  });

  it('reject requires --reason, and the reason is shown with the client (docs/rules.md#client-states)', async () => {
    const { client_id } = publicOne;
    expectOneLineRefusal(await gh(['clients', 'reject', client_id]), /^gatehouse: .*reason/);
    expect(ok(await gh(['clients', 'reject', client_id, '--reason', 'homepage is unreachable'])).trim()).toBe(`client ${client_id} is now rejected`);
    expect(ok(await gh(['clients', 'show', client_id]))).toMatch(/^state: +rejected \(homepage is unreachable\)$/m);
  });

  it('a review decision from the wrong state is refused with one line (an approved client cannot be rejected)', async () => {
    expectOneLineRefusal(await gh(['clients', 'reject', bridge.client_id, '--reason', 'too late']), /^gatehouse: cannot reject a client that is approved/);
  });

  it('import-legacy creates an approved client without scopes (docs/rules.md#legacy-clients)', async () => {
    legacy = json(
      await gh(['clients', 'import-legacy', '--owner', developer, '--name', 'Old Integration', '--redirect-uri', 'https://old.example.com/cb', '--json']),
    );
    expect(legacy).toEqual({ client_id: expect.any(String), client_secret: expect.stringMatching(SECRET), state: 'approved', legacy: true });
  });

  it('list shows every client with state, kind and the legacy mark; --state filters and --json is an array', async () => {
    const human = ok(await gh(['clients', 'list']));
    expect(human).toMatch(new RegExp(`^${pendingOne.client_id} +pending +confidential +Listed Pending$`, 'm'));
    expect(human).toMatch(new RegExp(`^${publicOne.client_id} +rejected +public +Mobile$`, 'm'));
    expect(human).toMatch(new RegExp(`^${legacy.client_id} +approved +confidential +Old Integration +\\(legacy\\)$`, 'm'));
    expect(human.trimEnd().split('\n')).toHaveLength(4);

    const approved = json<Array<Record<string, unknown>>>(await gh(['clients', 'list', '--state', 'approved', '--json']));
    expect(approved).toHaveLength(2);
    expect(approved).toEqual(
      expect.arrayContaining([
        { client_id: bridge.client_id, name: 'Calendar Bridge', kind: 'confidential', state: 'approved', legacy: false, change_awaiting_review: false },
        { client_id: legacy.client_id, name: 'Old Integration', kind: 'confidential', state: 'approved', legacy: true, change_awaiting_review: false },
      ]),
    );
  });

  it('secrets: show gives last four only; a second secret is added and shown once, a third is refused, one is removed, the last one cannot be (docs/rules.md#secret-rotation, docs/rules.md#client-secrets)', async () => {
    const { client_id, client_secret } = bridge;
    const before = json(await gh(['clients', 'show', client_id, '--json']));
    expect(before).toMatchObject({
      client_id,
      name: 'Calendar Bridge',
      kind: 'confidential',
      state: 'approved',
      legacy: false,
      scopes: ['BOOKING_READ', 'PROFILE_READ'],
      redirect_uris: ['https://bridge.example.com/cb'],
      owner_email: developer,
    });
    expect(before.secrets).toEqual([{ id: expect.any(String), last_four: client_secret.slice(-4), created_at: expect.any(String), last_used_at: null }]);
    expect(JSON.stringify(before)).not.toContain(client_secret.slice(4, -4));
    const firstId = before.secrets[0].id as string;

    const added = json(await gh(['secrets', 'add', client_id, '--json']));
    expect(added).toEqual({ secret_id: expect.any(String), client_secret: expect.stringMatching(SECRET) });
    expect(added.client_secret).not.toBe(client_secret);

    expectOneLineRefusal(await gh(['secrets', 'add', client_id]), /^gatehouse: a client may hold at most 2 active secrets/);

    expect(ok(await gh(['secrets', 'remove', client_id, firstId])).trim()).toBe(`removed secret ${firstId}`);

    const human = ok(await gh(['clients', 'show', client_id]));
    expect(human).toMatch(new RegExp(`^client_id: +${client_id}$`, 'm'));
    // People by email in text output, never a raw user id.
    expect(human).toMatch(new RegExp(`^owner: +${developer.replace(/\./g, '\\.')}$`, 'm'));
    expect(human).toMatch(/^scopes: +BOOKING_READ PROFILE_READ$/m);
    expect(human).toMatch(new RegExp(`^secret ${added.secret_id}: …${added.client_secret.slice(-4)}, created \\S+, last used never$`, 'm'));
    expect(human).not.toContain(firstId);
    expect(human).not.toContain(added.client_secret.slice(4, -4));

    expectOneLineRefusal(await gh(['secrets', 'remove', client_id, added.secret_id]), /^gatehouse: this is the last active secret/);
  });

  it('the database file never holds a client secret in plain text (docs/rules.md#client-secrets)', () => {
    const files = readdirSync(dir).filter((f) => f.startsWith('gatehouse.db'));
    expect(files).toContain('gatehouse.db');
    for (const secret of [bridge.client_secret, pendingOne.client_secret]) {
      for (const file of files) expect(readFileSync(join(dir, file)).includes(secret), file).toBe(false);
    }
  });

  it('a public client cannot be given a secret', async () => {
    expectOneLineRefusal(await gh(['secrets', 'add', publicOne.client_id]), /^gatehouse: public clients have no secrets/);
  });

  describe('bad input: non-zero exit, one line on stderr, no stack trace, nothing written (docs/rules.md#cli)', () => {
    const create = (...extra: string[]) => ['clients', 'create', '--owner', developer, '--name', 'Bad', ...extra];
    const elevenUris = Array.from({ length: 11 }, (_, i) => ['--redirect-uri', `https://app.example.com/cb${i}`]).flat();
    const cases: Array<[string, () => string[], RegExp]> = [
      ['an unknown owner email', () => ['clients', 'create', '--owner', 'nobody@example.com', '--name', 'X', '--redirect-uri', 'https://a.example.com/cb', '--scope', 'PROFILE_READ'], /^gatehouse: no user with email nobody@example\.com$/],
      ['11 redirect URIs (docs/rules.md#redirect-uris: at most 10)', () => create(...elevenUris, '--scope', 'PROFILE_READ'), /^gatehouse: at most 10 redirect URIs per client \(got 11\)$/],
      ['an http redirect URI that is not loopback', () => create('--redirect-uri', 'http://app.example.com/cb', '--scope', 'PROFILE_READ'), /^gatehouse: redirect URI "http:\/\/app\.example\.com\/cb" must use https/],
      ['an unknown scope', () => create('--redirect-uri', 'https://app.example.com/cb', '--scope', 'PROFILE_READ', '--scope', 'CALENDAR_READ'), /^gatehouse: unknown scope: CALENDAR_READ$/],
      ['no scope (docs/rules.md#client-record: at least one)', () => create('--redirect-uri', 'https://app.example.com/cb'), /^gatehouse: choose at least one scope$/],
      ['an unknown client id', () => ['clients', 'approve', 'no-such-client'], /^gatehouse: no client with id no-such-client$/],
      ['a missing required option', () => ['clients', 'create', '--name', 'X'], /^gatehouse: required option '--owner <email>' not specified$/],
      ['users create with no password on stdin and no --password', () => ['users', 'create', '--email', 'nopw@example.com', '--name', 'N'], /^gatehouse: a password is required/],
      ['users create with an email that is taken', () => ['users', 'create', '--email', developer, '--name', 'N', '--password', 'long-enough-pw'], /^gatehouse: a user with email .* already exists$/],
      // A name is one line: a newline could forge a row of `clients list` or `users list`.
      ['a client name with a newline', () => ['clients', 'create', '--owner', developer, '--name', 'Evil\nFAKE-ID  approved', '--redirect-uri', 'https://a.example.com/cb', '--scope', 'PROFILE_READ'], /^gatehouse: name must be one line of text, without control characters$/],
      // SECURITY.md: nor can it hide a bidi override, which makes a name read as another.
      ['a client name with a bidi override', () => ['clients', 'create', '--owner', developer, '--name', 'Calendar \u202Emoc.elgoog', '--redirect-uri', 'https://a.example.com/cb', '--scope', 'PROFILE_READ'], /^gatehouse: name must not contain invisible formatting characters \(it holds U\+202E, .*\): remove it$/],
      ['a user name with an escape sequence', () => ['users', 'create', '--email', 'esc@example.com', '--name', 'Ada\u001b[2J', '--password', 'long-enough-pw'], /^gatehouse: name must be one line of text, without control characters$/],
    ];
    let clientsBefore: number;
    beforeAll(async () => {
      clientsBefore = await countClients();
    });

    it.each(cases)('refuses %s', async (_what, args, message) => {
      expectOneLineRefusal(await gh(args()), message);
    });

    it('none of the refused commands created a client', async () => {
      expect(clientsBefore).toBe(4);
      expect(await countClients()).toBe(clientsBefore);
    });
  });
});

describe('gatehouse demo against a running server (docs/rules.md#cli)', { timeout: CLI_TEST_TIMEOUT }, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => server?.close());

  it('prints an authorization URL that a browser can follow to a code, and the token request that redeems it', async () => {
    const env = { DATABASE_URL: server.database.url, APP_URL: server.url, BASE_URL: server.url };
    const demo = json(await runCli(['demo', '--json'], { env }));
    expect(demo.authorization_url.startsWith(`${server.url}/auth/oauth2/authorize?`)).toBe(true);
    expect(demo.token_url).toBe(`${server.url}/v2/auth/oauth2/token`);
    expect(demo.client_secret).toMatch(SECRET);

    const browser = server.browser();
    expect((await browser.login(demo.user.email, demo.user.password)).status).toBe(303);
    const url = new URL(demo.authorization_url);
    const back = await server.authorize(browser, Object.fromEntries(url.searchParams));
    expect(back.searchParams.get('state')).toBe(url.searchParams.get('state'));
    const code = back.searchParams.get('code')!;
    expect(demo.curl).toContain('code=CODE_FROM_REDIRECT');

    // What the printed curl command sends, with the code filled in.
    const res = await fetch(demo.token_url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id: demo.client_id, client_secret: demo.client_secret, redirect_uri: url.searchParams.get('redirect_uri')!, code }),
    });
    expect(res.status).toBe(200);
    const tokens = (await res.json()) as { access_token: string };
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 1800, scope: 'BOOKING_READ PROFILE_READ' });

    // Issue 24, item 4: the /v2/me call to make with the access token, as printed.
    expect(demo.me_curl).toBe(`curl -s ${server.url}/v2/me -H "Authorization: Bearer ACCESS_TOKEN"`);
    const me = await fetch(`${server.url}/v2/me`, { headers: { authorization: /-H "(Authorization: Bearer ACCESS_TOKEN)"/.exec(demo.me_curl)![1]!.replace('ACCESS_TOKEN', tokens.access_token).slice('Authorization: '.length) } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ status: 'success', data: { email: 'demo@example.com', name: 'Demo User' } });
    // The addresses came from the settings: nothing was assumed.
    expect(demo.addresses_assumed).toEqual([]);

    // Run again, human-readable: the demo user is reused and a ready URL is printed.
    const again = ok(await runCli(['demo'], { env }));
    expect(again).toMatch(/^demo user: +demo@example\.com \(already existed; password unchanged: `gatehouse demo --reset-password` sets a new one\)$/m);
    expect(again).toMatch(new RegExp(`^ {2}${server.url.replace(/\./g, '\\.')}/auth/oauth2/authorize\\?response_type=code&client_id=\\w+&redirect_uri=.+&scope=.+&state=\\w+$`, 'm'));
    expect(again).toMatch(/\n {2}curl -s .*code=CODE_FROM_REDIRECT\n\nThen call the API with the access_token of the answer in place of ACCESS_TOKEN:\n {2}curl -s http:\/\/127\.0\.0\.1:\d+\/v2\/me -H "Authorization: Bearer ACCESS_TOKEN"\n$/);
    expect(again).not.toContain('assume');
  });

  it("with --redirect-uri, sends the browser back to the developer's own callback, and a later run adds another beside it (issue 40 item 2)", async () => {
    const env = { DATABASE_URL: server.database.url, APP_URL: server.url, BASE_URL: server.url };
    const own = 'http://localhost:5173/oauth/callback';
    // The demo as a first run leaves it (or as the test above did), with a password to log in with.
    const { password } = json(await runCli(['demo', '--reset-password', '--json'], { env })).user;
    const demo = json(await runCli(['demo', '--redirect-uri', own, '--json'], { env }));
    expect(demo.redirect_uri).toBe(own);
    const url = new URL(demo.authorization_url);
    expect(url.searchParams.get('redirect_uri')).toBe(own);
    expect(demo.curl).toContain(`-d redirect_uri=${encodeURIComponent(own)}`);

    // The demo user allows; the browser goes to the callback given.
    const browser = server.browser();
    expect((await browser.login(demo.user.email, password)).status).toBe(303);
    const back = await server.authorize(browser, Object.fromEntries(url.searchParams));
    expect(`${back.origin}${back.pathname}`).toBe(own);
    expect(ok(await runCli(['demo', '--redirect-uri', own], { env }))).toContain(`The browser lands on ${own}?code=...`);

    // The client is live with both addresses, nothing left awaiting review.
    const client = json(await runCli(['clients', 'show', demo.client_id, '--json'], { env }));
    expect(client.redirect_uris).toEqual(expect.arrayContaining(['http://localhost:8080/callback', own]));
    expect(client.state).toBe('approved');

    const refused = await runCli(['demo', '--redirect-uri', 'javascript:alert(1)'], { env });
    expectOneLineRefusal(refused, /redirect/i);
  });

  it('with PORT alone, prints addresses on that port; with neither PORT nor the addresses, says what it assumed and what to set', async () => {
    const database = { DATABASE_URL: server.database.url };
    const onPort = json(await runCli(['demo', '--json'], { env: { ...database, PORT: '41000' } }));
    expect(onPort.authorization_url.startsWith('http://localhost:41000/auth/oauth2/authorize?')).toBe(true);
    expect(onPort.token_url).toBe('http://localhost:41000/v2/auth/oauth2/token');
    expect(onPort.me_curl).toBe('curl -s http://localhost:41000/v2/me -H "Authorization: Bearer ACCESS_TOKEN"');
    expect(onPort.addresses_assumed).toEqual([]);
    expect(ok(await runCli(['demo'], { env: { ...database, PORT: '41000' } }))).not.toContain('assume');

    const guessed = ok(await runCli(['demo'], { env: database }));
    expect(guessed.split('\n').slice(0, 4)).toEqual([
      'Addresses below assume the server at http://localhost:3000 (no PORT, APP_URL or BASE_URL set here).',
      'If `gatehouse serve` runs with another PORT, run this with the same one (PORT=4000 npx gatehouse demo);',
      'behind a proxy or on another host, with its APP_URL and BASE_URL.',
      '',
    ]);
    expect(guessed).toContain('  curl -s http://localhost:3000/v2/me -H "Authorization: Bearer ACCESS_TOKEN"\n');
    expect(json(await runCli(['demo', '--json'], { env: { ...database, APP_URL: 'http://localhost:3000' } })).addresses_assumed).toEqual(['BASE_URL']);
  });
});

describe.skipIf(postgresUrl === undefined)('gatehouse CLI on PostgreSQL (smoke)', { timeout: CLI_TEST_TIMEOUT }, () => {
  let neighbour: TestDatabase;
  let schema: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    // Another schema in the same database already holds Gatehouse's tables (and Kysely's
    // migration bookkeeping): migrating a fresh schema must not be confused by it.
    neighbour = await createTestDatabase('postgres');
    schema = `t_cli_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    env = { DATABASE_URL: `${postgresUrl}${postgresUrl!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}` };
  });
  afterAll(async () => {
    await neighbour?.drop();
    if (schema !== undefined) await dropSchema(schema);
  });

  const gh = (args: string[]) => runCli(args, { env });
  let created: { client_id: string; client_secret: string };

  it('migrate sets up a fresh schema while another schema of the same database already holds Gatehouse tables', async () => {
    expect(ok(await runCliProcess(['migrate'], { env }))).toMatch(/^applied: 001_initial(, \d{3}_\w+)*\n$/);
    // The neighbour schema was left alone: its tables are still there, empty and usable.
    const check: DatabaseHandle = neighbour.handle;
    expect(await storesOver(check.db).services.stores.clients.list({})).toEqual([]);
  });

  it('users create and clients create/approve work on PostgreSQL, scopes in registry order', async () => {
    ok(await gh(['users', 'create', '--email', 'pg-dev@example.com', '--name', 'PG Dev', '--password', 'pg-dev-password']));
    created = json(
      await gh(['clients', 'create', '--owner', 'pg-dev@example.com', '--name', 'PG App', '--redirect-uri', 'https://pg.example.com/cb', '--scope', 'ORG_BOOKING_READ', '--scope', 'BOOKING_READ', '--json']),
    );
    expect(created).toMatchObject({ state: 'pending', kind: 'confidential', client_secret: expect.stringMatching(SECRET) });
    expect(json(await gh(['clients', 'approve', created.client_id, '--json']))).toMatchObject({ state: 'approved' });
  });

  it('clients create --require-par stores the PAR requirement on PostgreSQL (docs/rules.md#pushed-authorization)', async () => {
    const par = json(
      await gh(['clients', 'create', '--owner', 'pg-dev@example.com', '--name', 'PAR App', '--redirect-uri', 'https://pg.example.com/cb', '--scope', 'BOOKING_READ', '--require-par', '--json']),
    );
    expect(json(await gh(['clients', 'show', par.client_id, '--json']))).toMatchObject({ require_pushed_authorization_requests: true });
  });

  it('a second secret is added, a third refused, and show gives both by last four only (PostgreSQL)', async () => {
    ok(await gh(['secrets', 'add', created.client_id]));
    expectOneLineRefusal(await gh(['secrets', 'add', created.client_id]), /^gatehouse: a client may hold at most 2 active secrets/);
    const shown = json(await gh(['clients', 'show', created.client_id, '--json']));
    expect(shown).toMatchObject({ state: 'approved', scopes: ['BOOKING_READ', 'ORG_BOOKING_READ'] });
    expect(shown.secrets).toHaveLength(2);
    expect(shown.secrets[0].last_four).toBe(created.client_secret.slice(-4));
    expect(JSON.stringify(shown)).not.toContain(created.client_secret.slice(4, -4));
  });
});
