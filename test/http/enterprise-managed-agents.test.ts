// docs/integrating.md#enterprise-managed-agents over real HTTP on every backend: a test identity
// provider made here publishes its keys over https under a test CA made here (openssl), an
// organization trusts it, and an agent trades the provider's ID-JAG for an access token that
// GET /v2/me accepts; a second instance on the same database refuses the same ID-JAG
// (RFC 7523 §3 point 7). The provider listens on 127.0.0.1, so the servers run with
// OUTBOUND_ALLOW_PRIVATE=1: the outbound guard's refusal of private addresses is
// test/services' (outbound-url), not this file's.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, globalAgent, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestCode, verifyCode } from '../../src/services/accounts/verification.ts';
import { CLI_OPERATOR } from '../../src/services/actors.ts';
import { addIdentityProvider } from '../../src/services/identity-providers/identity-providers.ts';
import { addMember, createOrganization, createTeam } from '../../src/services/teams/teams.ts';
import { backends } from '../helpers/backends.ts';
import { browserFor, csrfOf, open, postForm } from '../helpers/pages.ts';
import { accessTokenOf } from '../helpers/stores.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const IDP = 'https://idp.acme.example';
const openssl = existsSync('/usr/bin/openssl');

/** A CA, and a certificate for 127.0.0.1 it signed: the identity provider's https. */
function testCertificates(): { ca: string; key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-idp-'));
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  try {
    run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=Gatehouse test CA', '-keyout', 'ca.key', '-out', 'ca.pem');
    run('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-keyout', 'idp.key', '-out', 'idp.csr');
    writeFileSync(join(dir, 'san.cnf'), 'subjectAltName=IP:127.0.0.1\n');
    run('x509', '-req', '-in', 'idp.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '1', '-extfile', 'san.cnf', '-out', 'idp.pem');
    const read = (name: string) => readFileSync(join(dir, name), 'utf8');
    return { ca: read('ca.pem'), key: read('idp.key'), cert: read('idp.pem') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.each(backends)('enterprise-managed agents (ID-JAG) on $name', ({ name, available }) => {
  const enabled = available && openssl;
  let idp: Server;
  let jwksUri: string;
  let key: { privateKey: CryptoKey; kid: string };
  let server: TestServer;
  let second: TestServer;
  let member: TestUser;
  let org: string;
  let client: TestClient;
  let caBefore: typeof globalAgent.options.ca;

  beforeAll(async () => {
    if (!enabled) return;
    const tls = testCertificates();
    const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
    key = { privateKey, kid: 'idp-key-1' };
    const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: key.kid, alg: 'RS256', use: 'sig' }] });
    idp = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
      if (req.url !== '/keys') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/jwk-set+json' }).end(jwks);
    });
    await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
    jwksUri = `https://127.0.0.1:${(idp.address() as { port: number }).port}/keys`;
    // Gatehouse's outbound requests trust the test CA, as a deployment trusts its system's.
    caBefore = globalAgent.options.ca;
    globalAgent.options.ca = tls.ca;

    server = await startTestServer(name, { OUTBOUND_ALLOW_PRIVATE: '1' });
    // Two instances of one deployment behind one address: one issuer, one database.
    second = await startTestServer(name, { OUTBOUND_ALLOW_PRIVATE: '1', BASE_URL: server.url, APP_URL: server.url }, server);
    const owner = await server.user({ name: 'Owner' });
    member = await server.user({ name: 'Ada' });
    org = (await createOrganization(server.services, { name: 'Acme', ownerId: owner.id })).id;
    await addMember(server.services, { organizationId: org }, member.id, 'member');
    let sent = '';
    await requestCode(server.services, { userId: member.id }, 'email', 'ada@acme.example', (_k, _to, code) => (sent = code));
    await verifyCode(server.services, { userId: member.id }, 'email', 'ada@acme.example', sent);
    await addIdentityProvider(server.services, { organizationId: org, issuer: IDP, jwksUri, domains: ['acme.example'] }, { actorId: CLI_OPERATOR });
    client = await server.client(owner, { scopes: ['PROFILE_READ', 'BOOKING_READ'] });
  });

  afterAll(async () => {
    if (!enabled) return;
    globalAgent.options.ca = caBefore;
    await second?.close();
    await server?.close();
    await new Promise((resolve) => idp.close(resolve));
  });

  async function idJag(claims: Record<string, unknown> = {}): Promise<string> {
    const now = Math.floor(server.clock() / 1000);
    return new SignJWT({ iss: IDP, sub: '00u-ada', aud: server.config.issuer, client_id: client.clientId, jti: `jti-${Math.random()}`, iat: now, exp: now + 120, email: 'ada@acme.example', ...claims })
      .setProtectedHeader({ alg: 'RS256', typ: 'oauth-id-jag+jwt', kid: key.kid })
      .sign(key.privateKey);
  }

  const exchange = (on: TestServer, assertion: string) => on.token({ grant_type: JWT_BEARER, assertion, client_id: client.clientId, client_secret: client.secret! });

  it.skipIf(!enabled)('an ID-JAG gets an access token (no refresh token) that GET /v2/me accepts, as the member it names', async () => {
    const res = await exchange(server, await idJag());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'bearer', expires_in: expect.any(Number), scope: 'BOOKING_READ PROFILE_READ' });
    const me = await server.api('GET', '/v2/me', res.body.access_token as string);
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ email: member.email });
  });

  it.skipIf(!enabled)("RFC 8707: an ID-JAG naming {BASE_URL}/mcp gets a token the MCP server takes and /v2 refuses", async () => {
    const res = await exchange(server, await idJag({ resource: `${server.url}/mcp` }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const token = res.body.access_token as string;
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'agent', version: '1' } } };
    const mcp = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` }, body: JSON.stringify(init) });
    expect(mcp.status).toBe(200);
    expect((await server.api('GET', '/v2/me', token)).status).toBe(401);
  });

  it.skipIf(!enabled)('RFC 7523 §3 point 7: the same ID-JAG at another instance is refused', async () => {
    const assertion = await idJag();
    expect((await exchange(server, assertion)).status).toBe(200);
    const replayed = await exchange(second, assertion);
    expect(replayed.status).toBe(400);
    expect(replayed.body).toEqual({ error: 'invalid_grant', error_description: 'the ID-JAG has already been used: ask the identity provider for a new one' });
  });

  it.skipIf(!enabled)('an ID-JAG for another audience is refused with 400 invalid_grant naming it', async () => {
    const res = await exchange(server, await idJag({ aud: 'https://elsewhere.example' }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_grant', error_description: expect.stringContaining("aud must be this authorization server's issuer identifier") });
  });

  it.skipIf(!enabled)("an identity provider's token acts for its organization only: another organization's routes and teams, where the member is an admin, answer 403; its own organization, its teams and the member's own routes answer", async () => {
    // Grace is an admin of Acme, whose identity provider this is, and of Globex, which never trusted it.
    const grace = await server.user({ name: 'Grace' });
    await addMember(server.services, { organizationId: org }, grace.id, 'admin');
    let sent = '';
    await requestCode(server.services, { userId: grace.id }, 'email', 'grace@acme.example', (_k, _to, code) => (sent = code));
    await verifyCode(server.services, { userId: grace.id }, 'email', 'grace@acme.example', sent);
    const globexOwner = await server.user({ name: 'Globex owner' });
    const globex = (await createOrganization(server.services, { name: 'Globex', ownerId: globexOwner.id })).id;
    await addMember(server.services, { organizationId: globex }, grace.id, 'admin');
    const globexTeam = await createTeam(server.services, { name: 'Globex Sales', ownerId: globexOwner.id, organizationId: globex });
    await addMember(server.services, { teamId: globexTeam.id }, grace.id, 'member');
    const acmeTeam = await createTeam(server.services, { name: 'Acme Sales', ownerId: grace.id, organizationId: org });
    const agent = await server.client(grace, { scopes: ['BOOKING_READ', 'ORG_BOOKING_READ', 'TEAM_PROFILE_READ'] });
    const tokenFor = async (claims: Record<string, unknown> = {}) => {
      const now = Math.floor(server.clock() / 1000);
      const assertion = await new SignJWT({ iss: IDP, sub: '00u-grace', aud: server.config.issuer, client_id: agent.clientId, jti: `jti-${Math.random()}`, iat: now, exp: now + 120, email: 'grace@acme.example', ...claims })
        .setProtectedHeader({ alg: 'RS256', typ: 'oauth-id-jag+jwt', kid: key.kid })
        .sign(key.privateKey);
      const res = await server.token({ grant_type: JWT_BEARER, assertion, client_id: agent.clientId, client_secret: agent.secret! });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.access_token as string;
    };
    const token = await tokenFor();

    for (const path of [`/v2/organizations/${globex}/bookings`, `/v2/organizations/${globex}/teams/${globexTeam.id}/bookings`]) {
      const refused = await server.api('GET', path, token);
      expect(refused.status, path).toBe(403);
      expect(refused.body.error.code, path).toBe('forbidden');
      expect(refused.body.error.message, path).toContain(`this token acts for the organization ${org}, so it reaches only that organization's routes`);
    }
    const otherTeam = await server.api('GET', `/v2/teams/${globexTeam.id}/bookings`, token);
    expect(otherTeam.status).toBe(403);
    expect(otherTeam.body.error.message).toBe(`this token acts for the organization ${org} and reaches no team outside it`);

    for (const path of [`/v2/organizations/${org}/bookings`, `/v2/organizations/${org}/teams/${acmeTeam.id}/bookings`, `/v2/teams/${acmeTeam.id}/bookings`, '/v2/bookings']) {
      expect((await server.api('GET', path, token)).status, path).toBe(200);
    }
    // Her own list of teams names Acme's alone, though she is in a team of Globex too.
    const teams = await server.api('GET', '/v2/teams', token);
    expect(teams.status).toBe(200);
    expect((teams.body.data as { id: number | string }[]).map((t) => String(t.id))).toEqual([String(acmeTeam.id)]);

    // The MCP server's team tools answer the same way (docs/rules.md#mcp-server).
    const mcpToken = await tokenFor({ resource: `${server.url}/mcp` });
    const call = async (teamId: string) => {
      const res = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${mcpToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_team_bookings', arguments: { teamId } } }),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
    };
    const refusedTool = await call(String(globexTeam.id));
    expect(refusedTool.error?.message).toContain(`this token acts for the organization ${org} and reaches no team outside it`);
    const answered = await call(String(acmeTeam.id));
    expect(answered.error, JSON.stringify(answered)).toBeUndefined();
  });

  it.skipIf(!enabled)('a member leaving the organization while agents trade ID-JAGs for them keeps no live token: each exchange is refused or its token revoked by the departure', async () => {
    const browser = await browserFor(server, member);
    // The subject is linked (its first use), so a refusal below is for the membership alone.
    expect((await exchange(server, await idJag())).status).toBe(200);
    for (let round = 0; round < 4; round += 1) {
      const membership = (await server.services.stores.teams.findMembershipOfUser({ organizationId: org }, member.id))!;
      const csrf = csrfOf((await open(browser, `/settings/teams/memberships/${membership.id}/leave`)).body);
      const assertions = await Promise.all([0, 1, 2].map(() => idJag()));
      const [left, ...exchanges] = await Promise.all([postForm(browser, `/settings/teams/memberships/${membership.id}/leave`, { _csrf: csrf }), ...assertions.map((a) => exchange(server, a))]);
      expect(left.status).toBe(303);
      for (const res of exchanges) {
        if (res.status === 200) {
          expect((await accessTokenOf(server, res.body.access_token as string))!.revokedAt, `round ${round}`).not.toBeNull();
          expect((await server.api('GET', '/v2/me', res.body.access_token as string)).status).toBe(401);
        } else {
          expect(res.body).toEqual({ error: 'invalid_grant', error_description: 'the account linked to this subject is not a member of the organization that trusts this identity provider' });
        }
      }
      await addMember(server.services, { organizationId: org }, member.id, 'member');
    }
  });
});
