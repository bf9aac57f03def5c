// Fuzzing the pages: the authorization endpoint (GET with any query, the
// consent POST), the login form and every other CSRF-protected form, each with a logged-in
// session and its valid CSRF token as well as without them. Never a 5xx, a stack trace or a
// secret; a refusal changes nothing (a failed login's audit event aside, docs/rules.md#audit-events).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { listAuthorizedApps } from '../../src/services/clients/authorized-apps.ts';
import { createOrganization, createTeam, addMember } from '../../src/services/teams/teams.ts';
import { addIdentityProvider } from '../../src/services/identity-providers/identity-providers.ts';
import { createIdentityAssertionStore } from '../../src/storage/stores/identity-assertions.ts';
import { inviteMember } from '../../src/services/teams/invitations.ts';
import { createInviteLink } from '../../src/services/teams/invite-links.ts';
import { generateToken, hashToken, timeOrderedId } from '../../src/oauth/token-format.ts';
import { backends } from '../helpers/backends.ts';
import type { Browser } from '../helpers/browser.ts';
import { csrfOf, loggedIn, open } from '../helpers/pages.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';
import { announce, checkCase, encodeText, fuzzJson, fuzzString, printStatuses, rawBody, runsFor, settings, timeoutFor, type RawBody, type Snapshot } from './harness.ts';

const AUTHORIZE = '/auth/oauth2/authorize';
const AUTHORIZE_KEYS = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'prompt', 'nonce', 'request', 'resource'];

type Who = 'anonymous' | 'user' | 'admin';
type Csrf = 'valid' | 'missing' | 'wrong' | 'of another session' | 'repeated' | 'nested' | 'header';

interface Form {
  name: string;
  /** The path, its ids filled from the world (or fuzzed). */
  path: (ids: Ids, fuzzedId: string | undefined) => string;
  keys: string[];
}

interface Ids {
  client: string;
  /** docs/rules.md#consent: the user's grant of `client`, until a case revokes it. */
  grant: string;
  legacyClient: string;
  pendingClient: string;
  secretId: string;
  invitation: string;
  membership: string;
  /** docs/rules.md#connect-pages: a connection request of the user's, until a case uses it. */
  connectToken: string;
  /** docs/rules.md#invite-links: a team the user owns, and a link of it until a case revokes it. */
  linkTeam: string;
  inviteLink: string;
  /** docs/integrating.md#enterprise-managed-agents: an organization the user owns, its identity provider and a grant it made, until cases remove or revoke them. */
  idpOrganization: string;
  identityProvider: string;
  agentGrant: string;
}

const CLIENT_KEYS = ['name', 'description', 'homepage_url', 'logo_url', 'kind', 'redirect_uris', 'scopes', 'version'];

const FORMS: Form[] = [
  { name: 'logout', path: () => '/logout', keys: [] },
  { name: 'consent', path: () => AUTHORIZE, keys: [...AUTHORIZE_KEYS, 'decision'] },
  { name: 'register a client', path: () => '/settings/developer/oauth-clients', keys: CLIENT_KEYS },
  { name: 'edit a client', path: (ids, f) => `/settings/developer/oauth-clients/${f ?? ids.client}/edit`, keys: CLIENT_KEYS },
  { name: 'new secret', path: (ids, f) => `/settings/developer/oauth-clients/${f ?? ids.client}/secrets`, keys: ['label', 'version'] },
  { name: 'remove a secret', path: (ids, f) => `/settings/developer/oauth-clients/${ids.client}/secrets/${f ?? ids.secretId}/remove`, keys: ['version'] },
  { name: 'migrate a legacy client', path: (ids, f) => `/settings/developer/oauth-clients/${f ?? ids.legacyClient}/migrate`, keys: ['scopes', 'confirm'] },
  { name: 'review a client', path: (ids, f) => `/admin/oauth-clients/${f ?? ids.pendingClient}/review`, keys: ['decision', 'reason', 'version'] },
  { name: 'mark a resource server', path: (ids, f) => `/admin/oauth-clients/${f ?? ids.client}/resource-server`, keys: ['resource_server'] },
  { name: 'revoke an app', path: (ids, f) => `/settings/authorized-apps/grants/${f ?? ids.grant}/revoke`, keys: [] },
  { name: 'accept an invitation', path: (ids, f) => `/settings/teams/invitations/${f ?? ids.invitation}/accept`, keys: [] },
  { name: 'decline an invitation', path: (ids, f) => `/settings/teams/invitations/${f ?? ids.invitation}/decline`, keys: [] },
  { name: 'leave a team', path: (ids, f) => `/settings/teams/memberships/${f ?? ids.membership}/leave`, keys: [] },
  { name: 'connect an app', path: (ids, f) => `/settings/connect/${f ?? ids.connectToken}`, keys: ['decision', 'account'] },
  { name: 'revoke an invite link', path: (ids, f) => `/settings/teams/${ids.linkTeam}/invite-links/${f ?? ids.inviteLink}/revoke`, keys: [] },
  { name: 'add an identity provider', path: (ids, f) => `/settings/organizations/${f ?? ids.idpOrganization}/identity-providers`, keys: ['issuer', 'jwks_uri', 'domains', 'scopes'] },
  { name: 'remove an identity provider', path: (ids, f) => `/settings/organizations/${ids.idpOrganization}/identity-providers/${f ?? ids.identityProvider}/remove`, keys: [] },
  {
    name: "revoke an agent's access",
    path: (ids, f) => `/settings/organizations/${ids.idpOrganization}/identity-providers/${ids.identityProvider}/agents/${f ?? ids.agentGrant}/revoke`,
    keys: [],
  },
];

/** Values a form field takes on the real page. */
const REAL_VALUES: Record<string, string[]> = {
  decision: ['allow', 'deny', 'approve', 'reject', 'suspend', 'connect', 'cancel'],
  account: ['ann@example.com', 'not an address'],
  kind: ['confidential', 'public'],
  scopes: ['PROFILE_READ', 'BOOKING_WRITE', 'ADMIN'],
  response_type: ['code', 'token'],
  code_challenge_method: ['S256', 'plain'],
  prompt: ['none', 'login', 'consent', 'login none'],
  resource_server: ['yes', 'no', 'on'],
  confirm: ['yes'],
  homepage_url: ['https://app.example.com', 'http://localhost:3000'],
  redirect_uris: ['https://app.example.com/callback\nhttps://app.example.com/other'],
  version: ['1', '2', '0', '-1'],
  issuer: ['https://idp.example.com', 'http://idp.example.com'],
  jwks_uri: ['https://idp.example.com/keys'],
  domains: ['example.com', 'example.com\nexample.org', '@example.com'],
};

describe.each(backends)('fuzzing the pages on $name', ({ name, available }) => {
  let server: TestServer;
  let user: TestUser;
  let client: TestClient;
  const browsers = {} as Record<Exclude<Who, 'anonymous'>, Browser>;
  const csrf = {} as Record<Exclude<Who, 'anonymous'>, string>;
  /** Logs in through the form; its own browser, since a successful login ends the session it replaces. */
  let loginBrowser: Browser;
  let loginCsrf: string;
  let ids: Ids;
  let secrets: string[];
  let last: Snapshot | undefined;

  beforeAll(async () => {
    if (!available) return;
    announce('pages');
    server = await startTestServer(name, { LOG_LEVEL: 'warn' });
    const u = await loggedIn(server);
    const a = await loggedIn(server, { admin: true });
    user = u.user;
    browsers.user = u.browser;
    browsers.admin = a.browser;
    csrf.user = csrfOf((await open(u.browser, '/settings/developer/oauth-clients/new')).body);
    csrf.admin = csrfOf((await open(a.browser, '/settings/developer/oauth-clients/new')).body);
    loginBrowser = server.browser();
    loginCsrf = csrfOf((await open(loginBrowser, '/login')).body);

    client = await server.client(user);
    const legacy = await server.client(user, { scopes: null });
    const pending = await server.client(user, { state: 'pending' });
    const [secret] = await server.services.stores.clients.listSecrets(client.clientId);
    const owner = await server.user();
    const team = await createTeam(server.services, { name: 'Fuzzers', ownerId: owner.id });
    const invitation = await inviteMember(server.services, { teamId: team.id }, { userId: user.id }, 'member', owner.id);
    const other = await createTeam(server.services, { name: 'Others', ownerId: owner.id });
    const membership = await addMember(server.services, { teamId: other.id }, user.id, 'member');
    const connectToken = generateToken('connectionRequestToken');
    const now = server.clock();
    await server.services.stores.api.connectionRequests.insert({
      tokenHash: hashToken(connectToken),
      userId: user.id,
      clientId: client.clientId,
      kind: 'calendar',
      provider: 'google',
      returnTo: null,
      onErrorReturnTo: null,
      createdAt: now,
      expiresAt: now + 3600_000,
    });
    const linkTeam = await createTeam(server.services, { name: 'Linkers', ownerId: user.id });
    const link = await createInviteLink(server.services, { teamId: linkTeam.id, createdBy: user.id, grantId: null }, server.url);
    const idpOrganization = await createOrganization(server.services, { name: 'Fuzz Org', ownerId: user.id });
    const provider = await addIdentityProvider(server.services, { organizationId: idpOrganization.id, issuer: 'https://idp.fuzz.example', jwksUri: 'https://idp.fuzz.example/keys', domains: ['fuzz.example'] }, { actorId: user.id });
    const agentGrant = { id: timeOrderedId(server.clock()), userId: user.id, clientId: client.clientId, scopes: ['PROFILE_READ'], createdAt: server.clock(), revokedAt: null };
    await createIdentityAssertionStore(server.database.handle.db).createTrustGrant(agentGrant, provider.id);
    // A grant to consent to again, so the authorization endpoint also takes its silent path.
    await server.code(client, user);
    const [grant] = await listAuthorizedApps(server.services, user.id);
    ids = { client: client.clientId, grant: grant!.grantId, legacyClient: legacy.clientId, pendingClient: pending.clientId, secretId: secret!.id, invitation: invitation.id, membership: membership.id, connectToken, linkTeam: linkTeam.id, inviteLink: link.id, idpOrganization: idpOrganization.id, identityProvider: provider.id, agentGrant: agentGrant.id };
    secrets = [client.secret!, legacy.secret!, pending.secret!, ...Object.values(browsers).map((b) => sessionOf(b))];
  });
  afterAll(async () => {
    printStatuses(`pages on ${name}`);
    await server?.close();
  });

  const sessionOf = (b: Browser) => /gh_session=([^;]+)/.exec(b.cookieHeader())?.[1] ?? 'no session';

  async function run(req: Parameters<typeof checkCase>[1]) {
    const previous = last;
    last = undefined;
    const { after } = await checkCase(server, req, secrets, previous);
    last = after;
  }

  /** A field value: the page's own, or anything. */
  const value = (key: string): fc.Arbitrary<string> => (REAL_VALUES[key] ? fc.oneof(fc.constantFrom(...REAL_VALUES[key]!), fuzzString) : fuzzString);

  function pairs(keys: string[]): fc.Arbitrary<Array<[string, string]>> {
    const known = keys.length > 0 ? fc.constantFrom(...keys).chain((k) => value(k).map((v): [string, string] => [k, v])) : fc.tuple(fuzzString, fuzzString);
    return fc.array(fc.oneof({ weight: 4, arbitrary: known }, { weight: 1, arbitrary: fc.tuple(fuzzString, fuzzString) }), { maxLength: 8 });
  }

  /** The body of a form post with the CSRF token placed (or not) as `mode` says. */
  function formPost(fields: Array<[string, string]>, token: string, mode: Csrf, encoding: 'form' | 'json', nested: unknown): { body: RawBody; headers: Record<string, string> } {
    const all: Array<[string, unknown]> = [...fields];
    const headers: Record<string, string> = {};
    if (mode === 'valid') all.unshift(['_csrf', token]);
    if (mode === 'wrong') all.unshift(['_csrf', `${token.slice(0, -2)}xx`]);
    if (mode === 'of another session') all.unshift(['_csrf', loginCsrf]);
    if (mode === 'repeated') all.unshift(['_csrf', token], ['_csrf', token]);
    if (mode === 'nested') all.unshift(['_csrf', encoding === 'json' ? nested : token], ...(encoding === 'form' ? [['_csrf[a]', token] as [string, unknown]] : []));
    if (mode === 'header') headers['csrf-token'] = token;
    if (encoding === 'json') {
      // A repeated key is written twice, as a client would send it.
      const text = `{${all.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'}`).join(',')}}`;
      return { body: { kind: `json, csrf ${mode}`, contentType: 'application/json', body: Buffer.from(text) }, headers };
    }
    const params = new URLSearchParams(all.map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v) ?? '']));
    return { body: { kind: `form, csrf ${mode}`, contentType: 'application/x-www-form-urlencoded', body: Buffer.from(params.toString()) }, headers };
  }

  const csrfMode = fc.constantFrom<Csrf>('valid', 'valid', 'valid', 'missing', 'wrong', 'of another session', 'repeated', 'nested', 'header');
  const pathId = fc.option(fuzzString.map((s) => encodeText(s.slice(0, 300)) || 'x'), { freq: 3 });

  it.skipIf(!available)('authorization endpoint, GET: any query, logged in or not (RFC 6749 §4.1.1)', { timeout: timeoutFor(runsFor('authorizeGet')) }, async () => {
    const validQuery = fc.constant(null).map(() => ({ client_id: client.clientId, redirect_uri: client.redirectUri, response_type: 'code', scope: 'PROFILE_READ', state: 's' }));
    const query = fc.oneof(
      // A valid request with one parameter changed, dropped or repeated.
      fc.tuple(validQuery, fc.constantFrom(...AUTHORIZE_KEYS), fc.option(value('x'), { nil: undefined }), fc.boolean()).map(([q, k, v, repeat]) => {
        const params = new URLSearchParams(q);
        if (v === undefined) params.delete(k);
        else if (repeat) params.append(k, v);
        else params.set(k, v);
        return params.toString();
      }),
      pairs(AUTHORIZE_KEYS).map((p) => new URLSearchParams(p).toString()),
      // Not encoded: stray % and raw characters in the query.
      pairs(AUTHORIZE_KEYS).map((p) => p.map(([k, v]) => `${k}=${v.slice(0, 200)}`).join('&').replace(/[#\s]/g, '')),
    );
    await fc.assert(
      fc.asyncProperty(query, fc.constantFrom<Who>('anonymous', 'user', 'admin'), async (q, who) => {
        const cookie = who === 'anonymous' ? undefined : browsers[who].cookieHeader();
        await run({ method: 'GET', path: `${AUTHORIZE}?${q}`, headers: { cookie } });
      }),
      settings(runsFor('authorizeGet')),
    );
  });

  it.skipIf(!available)('consent POST: any body, with and without session and CSRF token', { timeout: timeoutFor(runsFor('consent')) }, async () => {
    const valid = () => ({ client_id: client.clientId, redirect_uri: client.redirectUri, response_type: 'code', scope: 'PROFILE_READ', state: 's', decision: 'allow' });
    const fields = fc.oneof(
      fc.tuple(fc.constantFrom(...AUTHORIZE_KEYS, 'decision'), value('decision'), fc.boolean()).map(([k, v, drop]) => {
        const base = Object.entries(valid()).filter(([key]) => !(drop && key === k));
        return drop ? base : [...base.filter(([key]) => key !== k), [k, v] as [string, string]];
      }),
      pairs([...AUTHORIZE_KEYS, 'decision']),
    );
    await fc.assert(
      fc.asyncProperty(fields, fc.constantFrom<Who>('anonymous', 'user'), csrfMode, fc.constantFrom<'form' | 'json'>('form', 'form', 'json'), fuzzJson, async (f, who, mode, encoding, nested) => {
        const b = who === 'anonymous' ? undefined : browsers[who];
        const { body, headers } = formPost(f, b ? csrf[who as 'user'] : loginCsrf, mode, encoding, nested);
        await run({ method: 'POST', path: AUTHORIZE, headers: { ...headers, cookie: b?.cookieHeader() }, body });
      }),
      settings(runsFor('consent')),
    );
  });

  it.skipIf(!available)('login form: any body, with and without its CSRF token (docs/rules.md#audit-events, docs/rules.md#rate-limits)', { timeout: timeoutFor(runsFor('login')) }, async () => {
    const fields = fc.oneof(
      fc.tuple(fc.constantFrom('email', 'password', 'next'), fuzzString, fc.boolean()).map(([k, v, real]): Array<[string, string]> => {
        const base: Record<string, string> = { email: real ? user.email : 'nobody@example.com', password: real ? user.password : 'wrong', next: '/' };
        base[k] = v;
        return Object.entries(base);
      }),
      pairs(['email', 'password', 'next']),
    );
    await fc.assert(
      fc.asyncProperty(fields, csrfMode, fc.constantFrom<'form' | 'json'>('form', 'form', 'json'), fuzzJson, async (f, mode, encoding, nested) => {
        const { body, headers } = formPost(f, loginCsrf, mode, encoding, nested);
        await run({ method: 'POST', path: '/login', headers: { ...headers, cookie: loginBrowser.cookieHeader() }, body });
      }),
      settings(runsFor('login')),
    );
  });

  it.skipIf(!available)('every other form: any body, path id, session and CSRF token', { timeout: timeoutFor(runsFor('webForms')) }, async () => {
    const anyBody = fc.constantFrom(...FORMS).chain((form) =>
      fc.record({
        form: fc.constant(form),
        who: fc.constantFrom<Who>('user', 'user', 'admin', 'anonymous'),
        mode: csrfMode,
        encoding: fc.constantFrom<'form' | 'json' | 'raw'>('form', 'form', 'json', 'raw'),
        fields: pairs(form.keys),
        raw: rawBody(form.keys.length > 0 ? form.keys : ['_csrf']),
        nested: fuzzJson,
        id: pathId,
      }),
    );
    await fc.assert(
      fc.asyncProperty(anyBody, async ({ form, who, mode, encoding, fields, raw, nested, id }) => {
        // The logout form would end the session every other case uses: it runs anonymous or with a session of its own.
        const b = who === 'anonymous' ? undefined : form.name === 'logout' ? await freshBrowser() : browsers[who];
        const token = b === undefined ? loginCsrf : form.name === 'logout' ? csrfOf((await open(b, '/settings/developer/oauth-clients/new')).body) : csrf[who as 'user'];
        const post = encoding === 'raw' ? { body: raw, headers: {} } : formPost(fields, token, mode, encoding, nested);
        await run({ method: 'POST', path: form.path(ids, id ?? undefined), headers: { ...post.headers, cookie: b?.cookieHeader() }, body: post.body });
      }),
      settings(runsFor('webForms')),
    );
  });

  async function freshBrowser(): Promise<Browser> {
    const b = server.browser();
    const login = await open(b, '/login');
    const res = await b.post('/login', { _csrf: csrfOf(login.body), email: user.email, password: user.password, next: '/' });
    if (res.status !== 303) throw new Error(`login for the logout case answered ${res.status}`);
    last = undefined; // the login wrote a session
    return b;
  }
});
