// A real Gatehouse on a real port over a fresh database, with a clock the test can move.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config/index.ts';
import { testPasswordHashing } from './password-hashing.ts';
import { createClient, importLegacyClient } from '../../src/services/clients/registration.ts';
import { reviewClient } from '../../src/services/clients/review.ts';
import type { OAuthStore } from '../../src/oauth/storage.ts';
import type { PlatformContext } from '../../src/platform/stores.ts';
import { createUser } from '../../src/services/accounts/users.ts';
import { Browser, formFields } from './browser.ts';
import { createTestDatabase, TEST_SIGNING_KEYS_SECRET, type Backend, type TestDatabase } from './backends.ts';
import { freePort } from './ports.ts';
import { testResolver } from './test-dns.ts';
import { createServiceContext } from '../../src/storage/stores/index.ts';
import { coreStore } from './stores.ts';

export { testResolver };


export interface TestClient {
  clientId: string;
  secret: string | null;
  redirectUri: string;
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
}

export class TestServer {
  private offset = 0;
  readonly clock = () => Date.now() + this.offset;

  constructor(
    readonly app: FastifyInstance,
    readonly url: string,
    readonly config: Config,
    readonly database: TestDatabase,
    /** The stores of both wings, for arranging and reading through their ports. */
    readonly services: PlatformContext,
    readonly logs: string[],
    /** False for a second server over another one's database: the first drops it. */
    private readonly ownsDatabase = true,
  ) {}

  get db() {
    return this.database.handle.db;
  }

  private core: OAuthStore | undefined;
  /** The protocol core's store (oauth/storage.ts) over the server's database. */
  get oauth(): OAuthStore {
    this.core ??= coreStore(this.db);
    return this.core;
  }

  /** Moves the server's clock forward. */
  advance(seconds: number): void {
    this.offset += seconds * 1000;
  }

  async user(options: { admin?: boolean; name?: string } = {}): Promise<TestUser> {
    const email = `user-${randomBytes(4).toString('hex')}@example.com`;
    const password = `pw-${randomBytes(8).toString('hex')}`;
    const row = await createUser(this.services, { email, name: options.name ?? 'Test User', password, admin: options.admin });
    return { id: row.id, email, password };
  }

  async client(
    owner: TestUser,
    options: {
      kind?: 'confidential' | 'public';
      scopes?: string[] | null;
      redirectUris?: string[];
      state?: 'pending' | 'approved' | 'rejected' | 'suspended';
      name?: string;
      homepageUrl?: string;
    } = {},
  ): Promise<TestClient> {
    const redirectUris = options.redirectUris ?? ['https://app.example.com/callback'];
    const kind = options.kind ?? 'confidential';
    const base = {
      ownerId: owner.id,
      name: options.name ?? 'Test App',
      homepageUrl: options.homepageUrl ?? 'https://app.example.com',
      kind,
      redirectUris,
    };
    if (options.scopes === null) {
      const { client, secret } = await importLegacyClient(this.services, base);
      return { clientId: client.clientId, secret, redirectUri: redirectUris[0]! };
    }
    const { client, secret } = await createClient(this.services, { ...base, scopes: options.scopes ?? ['PROFILE_READ', 'PROFILE_WRITE', 'BOOKING_READ'] });
    const state = options.state ?? 'approved';
    if (state === 'approved' || state === 'suspended') await reviewClient(this.services, client.clientId, 'approve', null);
    if (state === 'suspended') await reviewClient(this.services, client.clientId, 'suspend', null);
    if (state === 'rejected') await reviewClient(this.services, client.clientId, 'reject', null, 'rejected by a test');
    return { clientId: client.clientId, secret, redirectUri: redirectUris[0]! };
  }

  browser(headers: Record<string, string> = {}): Browser {
    return new Browser(this.url, headers);
  }

  /**
   * Walks the authorization page as a logged-in user who clicks Allow; returns the
   * redirect back to the application as a URL.
   */
  async authorize(browser: Browser, params: Record<string, string>, decision: 'allow' | 'deny' = 'allow'): Promise<URL> {
    const first = await browser.get(`/auth/oauth2/authorize?${new URLSearchParams(params)}`);
    if (first.status === 303 && first.location && !first.location.startsWith('/')) return new URL(first.location);
    if (first.status !== 200) throw new Error(`authorization page answered ${first.status}: ${first.body.slice(0, 300)}`);
    const res = await browser.post('/auth/oauth2/authorize', { ...formFields(first.body), decision });
    if (res.status !== 303 || !res.location) throw new Error(`consent answered ${res.status}: ${res.body.slice(0, 300)}`);
    return new URL(res.location);
  }

  /** The whole front channel for one user: login, authorize, allow. Returns the code. */
  async code(client: TestClient, user: TestUser, extra: Record<string, string> = {}): Promise<string> {
    const browser = this.browser();
    await browser.login(user.email, user.password);
    return this.codeFor(browser, client, extra);
  }

  /** The front channel for the user already logged in on `browser`: authorize, allow. Returns the code. */
  async codeFor(browser: Browser, client: TestClient, extra: Record<string, string> = {}): Promise<string> {
    const back = await this.authorize(browser, {
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      response_type: 'code',
      scope: 'PROFILE_READ',
      state: 'xyz',
      ...extra,
    });
    const code = back.searchParams.get('code');
    if (!code) throw new Error(`no code in ${back}`);
    return code;
  }

  async token(body: Record<string, string>, options: { json?: boolean; basic?: [string, string] } = {}) {
    const headers: Record<string, string> = {
      'content-type': options.json ? 'application/json' : 'application/x-www-form-urlencoded',
    };
    if (options.basic) {
      const [id, secret] = options.basic.map((v) => encodeURIComponent(v));
      headers.authorization = `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
    }
    const res = await fetch(`${this.url}/v2/auth/oauth2/token`, {
      method: 'POST',
      headers,
      body: options.json ? JSON.stringify(body) : new URLSearchParams(body).toString(),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  }

  /**
   * A raw POST: the body is sent exactly as given (hand-built form strings, broken JSON,
   * no Content-Type at all for a Blob without a type). The body is parsed as JSON when it is JSON.
   */
  async post(path: string, body: string | Blob, headers: Record<string, string> = {}) {
    const res = await fetch(`${this.url}${path}`, { method: 'POST', headers, body });
    const text = await res.text();
    let json: Record<string, unknown> | undefined;
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, body: json };
  }

  /** Code exchange for a confidential client, returning the token response. */
  async exchange(client: TestClient, code: string, extra: Record<string, string> = {}) {
    return this.token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: client.redirectUri,
      client_id: client.clientId,
      ...(client.secret ? { client_secret: client.secret } : {}),
      ...extra,
    });
  }

  async api(method: string, path: string, token?: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${this.url}${path}`, {
      method,
      headers: {
        ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as any) : null };
  }

  async close(): Promise<void> {
    await this.app.close();
    if (this.ownsDatabase) await this.database.drop();
  }
}

export { TEST_SIGNING_KEYS_SECRET };

/**
 * `over`: what it serves: a new database (unset), the database of that server, as a second
 * instance would, or 'first start': a new database as an instance's first start finds it
 * (test/helpers/backends.ts).
 */
export async function startTestServer(backend: Backend['name'], env: Record<string, string> = {}, over?: TestServer | 'first start'): Promise<TestServer> {
  const sharing = over instanceof TestServer ? over : undefined;
  const database = sharing?.database ?? (await createTestDatabase(backend, { firstStart: over === 'first start' }));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // Rate limits are off unless a test turns one on: suites make many failing requests.
  const noLimits = {
    RATE_LIMIT_TOKEN_PER_MINUTE: '0',
    RATE_LIMIT_CLIENT_AUTH_FAILURES_PER_MINUTE: '0',
    RATE_LIMIT_LOGIN_FAILURES_PER_15_MINUTES: '0',
    RATE_LIMIT_LOGIN_FAILURES_PER_IP_PER_15_MINUTES: '0',
    RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR: '0',
    RATE_LIMIT_OPEN_REGISTRATIONS_PER_IP_PER_HOUR: '0',
    RATE_LIMIT_PUBLIC_BOOKINGS_PER_IP_PER_HOUR: '0',
    RATE_LIMIT_PUBLIC_BOOKINGS_PER_EVENT_TYPE_PER_HOUR: '0',
  };
  const config = loadConfig({ BASE_URL: url, APP_URL: url, DATABASE_URL: database.url, LOG_LEVEL: 'info', PORT: String(port), ...testPasswordHashing, ...noLimits, ...env });
  const logs: string[] = [];
  const logStream = { write: (line: string) => logs.push(line) } as unknown as NodeJS.WritableStream;
  let server!: TestServer;
  const app = await buildApp(config, {
    database: database.handle,
    cookieSecret: randomBytes(32).toString('hex'),
    signingKeysSecret: TEST_SIGNING_KEYS_SECRET,
    clock: () => server.clock(),
    logStream,
    resolveHost: testResolver,
  });
  server = new TestServer(app, url, config, database, createServiceContext(database.handle.db, () => server.clock(), { passwordHashing: config.passwordHashing }), logs, sharing === undefined);
  await app.listen({ port, host: '127.0.0.1' });
  return server;
}

/** What a suite that drives a real client through the consent page starts from. */
export interface SignedIn {
  server: TestServer;
  user: TestUser;
  /** The user's browser, signed in. */
  browser: Browser;
}

/**
 * A server on `backend` for the suite, with a user named `userName` signed in in a browser,
 * closed after it; `take` receives them, for the suite's own variables:
 * `useSignedInServer(name, available, 'Ada', (s) => ({ server, user, browser } = s))`.
 */
export function useSignedInServer(backend: Backend['name'], available: boolean, userName: string, take: (signedIn: SignedIn) => void, options: { firstStart?: boolean } = {}): void {
  let server: TestServer | undefined;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer(backend, {}, options.firstStart ? 'first start' : undefined);
    const user = await server.user({ name: userName });
    const browser = server.browser();
    expect((await browser.login(user.email, user.password)).status).toBe(303);
    take({ server, user, browser });
  });
  afterAll(async () => server?.close());
}
