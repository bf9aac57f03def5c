// Fuzzing the token (both grants), pushed authorization request, revocation and introspection endpoints:
// arbitrary bodies in every encoding, with and without real credentials, codes and tokens
// among the values. Never a 5xx, a stack trace or a secret; a refusal changes nothing.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { startTestServer, type TestClient, type TestServer } from '../helpers/server.ts';
import { announce, printStatuses, authorization, checkCase, fuzzJson, fuzzString, rawBody, runsFor, settings, timeoutFor, type RawBody, type Snapshot } from './harness.ts';

const TOKEN = '/v2/auth/oauth2/token';
const REVOKE = '/v2/auth/oauth2/revoke';
const INTROSPECT = '/v2/auth/oauth2/introspect';
const PAR = '/v2/auth/oauth2/par';

const TOKEN_KEYS = ['grant_type', 'code', 'redirect_uri', 'client_id', 'client_secret', 'code_verifier', 'refresh_token', 'scope', 'resource', 'assertion'];
const TOKEN_KEYS_OF_REVOCATION = ['token', 'token_type_hint', 'client_id', 'client_secret'];
const PAR_KEYS = ['client_id', 'client_secret', 'response_type', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'prompt', 'resource', 'request_uri'];

describe.each(backends)('fuzzing the OAuth endpoints on $name', ({ name, available }) => {
  let server: TestServer;
  let confidential: TestClient;
  let publicClient: TestClient;
  /** Values a well-formed request would carry: real ids, secrets, codes and tokens. */
  let real: Record<string, string[]>;
  /** What must never appear in an answer. */
  let secrets: string[];
  let last: Snapshot | undefined;

  beforeAll(async () => {
    if (!available) return;
    announce('oauth endpoints');
    server = await startTestServer(name, { LOG_LEVEL: 'warn' });
    const user = await server.user();
    confidential = await server.client(user);
    publicClient = await server.client(user, { kind: 'public' });
    const verifier = 'v'.repeat(43);
    const codes = [await server.code(confidential, user), await server.code(confidential, user), await server.code(publicClient, user, { code_challenge: 'RW4Qd0mPUHYgYCyx1Y7U0zl3X2ss1-JEyctAX3wpzSc', code_challenge_method: 'S256' })];
    const pair = await server.exchange(confidential, await server.code(confidential, user));
    const access = String(pair.body.access_token);
    const refresh = String(pair.body.refresh_token);
    real = {
      grant_type: ['authorization_code', 'refresh_token', 'client_credentials', 'password', 'urn:ietf:params:oauth:grant-type:jwt-bearer'],
      code: codes,
      redirect_uri: [confidential.redirectUri, `${confidential.redirectUri}/x`, 'http://127.0.0.1/cb'],
      client_id: [confidential.clientId, publicClient.clientId],
      client_secret: [confidential.secret!],
      code_verifier: [verifier],
      refresh_token: [refresh],
      token: [access, refresh],
      token_type_hint: ['access_token', 'refresh_token'],
      scope: ['PROFILE_READ', 'PROFILE_READ PROFILE_WRITE', 'ADMIN'],
      response_type: ['code', 'token'],
      code_challenge: ['RW4Qd0mPUHYgYCyx1Y7U0zl3X2ss1-JEyctAX3wpzSc'],
      code_challenge_method: ['S256', 'plain'],
      prompt: ['none', 'login consent'],
      resource: [`${server.url}/v2`, `${server.url}/mcp`, 'https://elsewhere.example/api'],
      request_uri: ['urn:ietf:params:oauth:request_uri:abc'],
    };
    secrets = [confidential.secret!, access, refresh];
  });
  afterAll(async () => {
    printStatuses(`oauth endpoints on ${name}`);
    await server?.close();
  });

  /** A body whose known keys carry, half the time, a real value. */
  function bodies(keys: string[]): fc.Arbitrary<RawBody> {
    const realValue = (k: string) => (real[k] ? fc.constantFrom(...real[k]!) : fuzzString);
    const valid = fc.record(Object.fromEntries(keys.map((k) => [k, realValue(k)])), { requiredKeys: [] });
    const form = fc.tuple(valid, fc.array(fc.tuple(fc.constantFrom(...keys), fuzzString), { maxLength: 3 })).map(([v, extra]): RawBody => {
      const params = new URLSearchParams(v as Record<string, string>);
      for (const [k, x] of extra) params.append(k, x);
      return { kind: 'real values, form', contentType: 'application/x-www-form-urlencoded', body: Buffer.from(params.toString()) };
    });
    return fc.oneof(
      { weight: 2, arbitrary: mutatedValid(keys) },
      { weight: 1, arbitrary: form },
      { weight: 1, arbitrary: valid.chain((v) => rawBody(keys, v)) },
      { weight: 2, arbitrary: rawBody(keys) },
    );
  }

  /**
   * A request that would succeed, changed in one way: a parameter dropped, repeated, added,
   * or given another value; sent as a form or as JSON.
   */
  function mutatedValid(keys: string[]): fc.Arbitrary<RawBody> {
    const pushes: Array<Record<string, string>> = [
      { response_type: 'code', redirect_uri: confidential.redirectUri, scope: 'PROFILE_READ', state: 's', client_id: confidential.clientId, client_secret: confidential.secret! },
      { response_type: 'code', redirect_uri: publicClient.redirectUri, scope: 'PROFILE_READ', client_id: publicClient.clientId, code_challenge: real.code_challenge![0]!, code_challenge_method: 'S256' },
    ];
    const bases: Array<Record<string, string>> = keys.includes('response_type')
      ? pushes
      : keys.includes('grant_type')
      ? [
          { grant_type: 'refresh_token', refresh_token: real.refresh_token![0]!, client_id: confidential.clientId, client_secret: confidential.secret! },
          { grant_type: 'authorization_code', code: real.code![0]!, redirect_uri: confidential.redirectUri, client_id: confidential.clientId, client_secret: confidential.secret! },
          { grant_type: 'authorization_code', code: real.code![2]!, redirect_uri: publicClient.redirectUri, client_id: publicClient.clientId, code_verifier: real.code_verifier![0]! },
        ]
      : [
          { token: real.token![0]!, client_id: confidential.clientId, client_secret: confidential.secret! },
          { token: real.token![1]!, token_type_hint: 'refresh_token', client_id: confidential.clientId, client_secret: confidential.secret! },
        ];
    const mutation = fc.oneof(
      fc.record({ op: fc.constant('drop' as const), key: fc.constantFrom(...keys) }),
      fc.record({ op: fc.constant('repeat' as const), key: fc.constantFrom(...keys), value: fuzzString }),
      fc.record({ op: fc.constant('set' as const), key: fc.oneof(fc.constantFrom(...keys), fuzzString), value: fuzzString }),
      fc.record({ op: fc.constant('nest' as const), key: fc.constantFrom(...keys), value: fuzzJson }),
    );
    return fc.tuple(fc.constantFrom(...bases), mutation, fc.boolean()).map(([base, m, asJson]): RawBody => {
      const pairs: Array<[string, unknown]> = Object.entries(base).filter(([k]) => !(m.op === 'drop' && k === m.key));
      if (m.op === 'repeat') pairs.push([m.key, m.value]);
      if (m.op === 'set' || m.op === 'nest') {
        const at = pairs.findIndex(([k]) => k === m.key);
        if (at >= 0) pairs[at] = [m.key, m.value];
        else pairs.push([m.key, m.value]);
      }
      const kind = `valid with ${m.op} ${m.key.slice(0, 30)}`;
      if (asJson) {
        const text = `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'}`).join(',')}}`;
        return { kind: `${kind}, JSON`, contentType: 'application/json', body: Buffer.from(text) };
      }
      const form = new URLSearchParams(pairs.map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v) ?? '']));
      return { kind: `${kind}, form`, contentType: 'application/x-www-form-urlencoded', body: Buffer.from(form.toString()) };
    });
  }

  function credentials(): fc.Arbitrary<string | undefined> {
    return authorization([
      [confidential.clientId, confidential.secret!],
      [publicClient.clientId, ''],
    ]);
  }

  async function run(path: string, body: RawBody, auth: string | undefined) {
    const previous = last;
    last = undefined;
    const { after } = await checkCase(server, { method: 'POST', path, headers: { authorization: auth }, body }, secrets, previous);
    last = after;
  }

  it.skipIf(!available)('token endpoint: every grant, any body (RFC 6749 §5.2)', { timeout: timeoutFor(runsFor('token')) }, async () => {
    await fc.assert(fc.asyncProperty(bodies(TOKEN_KEYS), credentials(), (body, auth) => run(TOKEN, body, auth)), settings(runsFor('token')));
  });

  it.skipIf(!available)('pushed authorization request endpoint: any body (RFC 9126 §2.3)', { timeout: timeoutFor(runsFor('par')) }, async () => {
    await fc.assert(fc.asyncProperty(bodies(PAR_KEYS), credentials(), (body, auth) => run(PAR, body, auth)), settings(runsFor('par')));
  });

  it.skipIf(!available)('revocation endpoint: any body (RFC 7009 §2.1)', { timeout: timeoutFor(runsFor('revocation')) }, async () => {
    await fc.assert(fc.asyncProperty(bodies(TOKEN_KEYS_OF_REVOCATION), credentials(), (body, auth) => run(REVOKE, body, auth)), settings(runsFor('revocation')));
  });

  it.skipIf(!available)('introspection endpoint: any body (RFC 7662 §2.1)', { timeout: timeoutFor(runsFor('introspection')) }, async () => {
    await fc.assert(fc.asyncProperty(bodies(TOKEN_KEYS_OF_REVOCATION), credentials(), (body, auth) => run(INTROSPECT, body, auth)), settings(runsFor('introspection')));
  });
});
