// The peer: oidc-provider (v9) in its own process, configured like Gatehouse — opaque
// access tokens, refresh-token rotation on every use, PKCE required for public clients,
// a confidential client authenticating with client_secret_post, introspection and userinfo.
// Before listening it seeds codes and refresh tokens through its own models, as
// bench/seed.ts does for Gatehouse, and prints them to the parent as one JSON line.
// PEER_STORE=memory (the default) keeps its models in a Map; PEER_STORE=sqlite:<file> in a
// SQLite file with Gatehouse's durability (peer-sqlite-adapter.mjs), as it would be deployed.
// Plain JavaScript: oidc-provider ships no types.
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import Provider from 'oidc-provider';
// Its own memory adapter, over an unbounded Map: the default store is a 1,000-entry LRU,
// which would evict the seeded codes before the load generator redeems them.
import MemoryAdapter from 'oidc-provider/lib/adapters/memory_adapter.js';
import { createSqliteAdapter } from './peer-sqlite-adapter.mjs';

const port = Number(process.env.PORT ?? 0);
const supply = Number(process.env.BENCH_SUPPLY ?? 1000);
const issuer = `http://127.0.0.1:${port}`;
const redirectUri = 'https://bench.example.com/cb';
const client = { client_id: 'bench', client_secret: 'bench-secret-bench-secret-bench-secret', redirect_uris: [redirectUri], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_post' };

const storeSetting = process.env.PEER_STORE ?? 'memory';
const store = new Map();
const adapter = storeSetting.startsWith('sqlite:') ? createSqliteAdapter(storeSetting.slice('sqlite:'.length)).adapter : (model) => new MemoryAdapter(model, store);
const cookieKey = 'bench-cookie-key-bench-cookie-key';
const provider = new Provider(issuer, {
  adapter,
  clients: [client],
  // Gatehouse's lifetimes in the bench (seconds).
  ttl: { AuthorizationCode: 3600, AccessToken: 3600, RefreshToken: 86400, Grant: 86400, Session: 86400, Interaction: 3600 },
  pkce: { required: (_ctx, c) => c.clientAuthMethod === 'none' },
  rotateRefreshToken: true,
  claims: { openid: ['sub'], profile: ['name'], email: ['email'] },
  // Gatehouse issues a refresh token with every code exchange.
  issueRefreshToken: async () => true,
  features: {
    introspection: { enabled: true, allowedPolicy: async (ctx, _caller, token) => token.clientId === ctx.oidc.client.clientId },
    userinfo: { enabled: true },
    devInteractions: { enabled: false },
  },
  // Signed session cookies, as a deployment would run it (the bench signs the ones it seeds).
  cookies: { keys: [cookieKey] },
  findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub, name: 'Bench', email: 'bench@example.com' }) }),
});
provider.on('server_error', (_ctx, err) => process.stderr.write(`peer server_error: ${err.stack}\n`));

const benchClient = await provider.Client.find('bench');
const accountId = 'bench-user';
// Codes and refresh tokens carry no `openid` scope: Gatehouse issues no ID token, so the
// peer is not asked to sign one. The userinfo token is an OpenID one (userinfo needs it).
const tokenScope = 'offline_access';
const userinfoScope = 'openid profile email';
async function newGrant(scope) {
  const grant = new provider.Grant({ accountId, clientId: 'bench' });
  grant.addOIDCScope(scope);
  return grant.save();
}
const codes = [];
const refreshTokens = [];
for (let i = 0; i < supply; i++) {
  const grantId = await newGrant(tokenScope);
  codes.push(await new provider.AuthorizationCode({ accountId, client: benchClient, grantId, redirectUri, scope: tokenScope, authTime: Math.floor(Date.now() / 1000) }).save());
  refreshTokens.push(await new provider.RefreshToken({ accountId, client: benchClient, grantId, gty: 'authorization_code', scope: tokenScope }).save());
}
const accessToken = await new provider.AccessToken({ accountId, client: benchClient, grantId: await newGrant(userinfoScope), gty: 'authorization_code', scope: userinfoScope }).save();

// Remembered consent, as Gatehouse's authorize scenario has it: a logged-in browser whose
// session already holds a grant of the requested scope for the client, so an authorization
// request is answered at once with a redirect carrying a code. The cookie is signed as the
// provider's cookie library signs (keygrip: HMAC-SHA1, URL-safe base64).
const sign = (data) => createHmac('sha1', cookieKey).update(data).digest('base64').replace(/[/+=]/g, (c) => ({ '/': '_', '+': '-', '=': '' })[c]);
async function loggedInBrowser() {
  const session = new provider.Session();
  session.loginAccount({ accountId });
  session.grantIdFor('bench', await newGrant('openid'));
  session.ensureClientContainer('bench');
  await session.save(86400);
  const name = provider.cookieName('session');
  return `${name}=${session.jti}; ${name}.sig=${sign(`${name}=${session.jti}`)}`;
}
const browserCookie = await loggedInBrowser();
const busyCookie = await loggedInBrowser();

const server = createServer(provider.callback());
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ clientId: client.client_id, secret: client.client_secret, redirectUri, codes, refreshTokens, accessToken, browserCookie, busyCookie })}\n`);
});
