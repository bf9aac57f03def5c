// The shared setup of the suites that drive the token endpoint (test/http/token-endpoint.test.ts,
// and the DPoP, PAR, private_key_jwt, metadata-document and MCP suites):
// POST /v2/auth/oauth2/token over real HTTP on every backend. Every assertion is on what a
// client application or an operator can observe: status, headers, body, and what the stores
// hold (test/helpers/stores.ts).
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Backend } from '../../helpers/backends.ts';
import type { Browser } from '../../helpers/browser.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../../helpers/server.ts';

export const TOKEN = '/v2/auth/oauth2/token';
export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
export const JSON_TYPE = { 'content-type': 'application/json' };

export interface Reply {
  status: number;
  headers: Headers;
  body: Record<string, unknown> | undefined;
}

/** Things no response may ever carry: a stack trace, a source path, a client secret. */
export function expectNothingLeaked(reply: Reply, secrets: Array<string | null> = []): void {
  const text = JSON.stringify(reply.body ?? null);
  expect(text).not.toMatch(/\bat [^\s]+ \(|:\d+:\d+\)|node_modules|\/src\/|\.ts:\d+|"stack"/);
  expect(text).not.toMatch(/gcs_[0-9A-Za-z]{10,}/);
  for (const secret of secrets) if (secret) expect(text).not.toContain(secret);
}

/** RFC 6749 §5.2 error: status, code, a description, no-store, nothing leaked. */
export function expectOAuthError(reply: Reply, status: number, error: string, description?: RegExp | string): void {
  expect({ status: reply.status, error: reply.body?.error }).toEqual({ status, error });
  expect(Object.keys(reply.body!).sort()).toEqual(['error', 'error_description']);
  expect(typeof reply.body!.error_description).toBe('string');
  if (description !== undefined) {
    if (typeof description === 'string') expect(reply.body!.error_description).toContain(description);
    else expect(reply.body!.error_description).toMatch(description);
  }
  expect(reply.headers.get('cache-control')).toBe('no-store');
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
  expectNothingLeaked(reply);
}

export function expectTokens(reply: Reply, scope: string): { access: string; refresh: string } {
  expect(reply.status).toBe(200);
  expect(reply.headers.get('cache-control')).toBe('no-store');
  expect(reply.body).toEqual({
    access_token: expect.stringMatching(/^gat_[0-9A-Za-z]{49}$/),
    refresh_token: expect.stringMatching(/^grt_[0-9A-Za-z]{49}$/),
    token_type: 'bearer',
    expires_in: 1800,
    scope,
  });
  expectNothingLeaked(reply);
  return { access: reply.body!.access_token as string, refresh: reply.body!.refresh_token as string };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url'); // 64 characters of the RFC 7636 alphabet
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

/** What a suite's tests see: set by its beforeAll, so read them inside tests only. */
export interface TokenEndpoint {
  server: TestServer;
  /** The developer who owns the clients. */
  dev: TestUser;
  /** The user who authorizes them, logged in through userBrowser. */
  user: TestUser;
  userBrowser: Browser;
  /** The front channel for `user` (already logged in, consent remembered after the first Allow). */
  code(client: TestClient, extra?: Record<string, string>): Promise<string>;
  approvedClient(options?: Parameters<TestServer['client']>[1]): Promise<TestClient>;
  /** A code exchanged by a fresh confidential client: the pair and the client. */
  issued(
    extra?: Record<string, string>,
    options?: Parameters<TestServer['client']>[1],
  ): Promise<{ client: TestClient; access: string; refresh: string; body: Record<string, any> }>;
  refresh(client: TestClient, refreshToken: string, extra?: Record<string, string>): ReturnType<TestServer['token']>;
  me(accessToken: string): ReturnType<TestServer['api']>;
}

/**
 * Starts a test server on the backend for the enclosing describe block (beforeAll), with a
 * developer and a logged-in user, and closes it afterwards (afterAll).
 */
export function useTokenEndpoint(name: Backend['name'], available: boolean): TokenEndpoint {
  const t = {} as TokenEndpoint;

  beforeAll(async () => {
    if (!available) return;
    t.server = await startTestServer(name);
    t.dev = await t.server.user();
    t.user = await t.server.user({ name: 'Ada' });
    t.userBrowser = t.server.browser();
    await t.userBrowser.login(t.user.email, t.user.password);
  });
  afterAll(async () => t.server?.close());

  t.code = (client, extra = {}) => t.server.codeFor(t.userBrowser, client, extra);

  t.approvedClient = async (options = {}) => t.server.client(t.dev, options);

  t.issued = async (extra = {}, options = {}) => {
    const client = await t.approvedClient(options);
    const res = await t.server.exchange(client, await t.code(client, extra));
    expect(res.status).toBe(200);
    return { client, access: res.body.access_token as string, refresh: res.body.refresh_token as string, body: res.body };
  };

  t.refresh = (client, refreshToken, extra = {}) =>
    t.server.token({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: client.clientId,
      ...(client.secret ? { client_secret: client.secret } : {}),
      ...extra,
    });

  t.me = async (accessToken) => t.server.api('GET', '/v2/me', accessToken);

  return t;
}
