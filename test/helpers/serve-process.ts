// `gatehouse serve` as a real child process, and an application that talks to it over HTTP:
// for the tests that kill, restart or copy a serving process.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { expect } from 'vitest';
import { createUser } from '../../src/services/accounts/users.ts';
import { createClient } from '../../src/services/clients/registration.ts';
import { reviewClient } from '../../src/services/clients/review.ts';
import type { ServiceContext } from '../../src/services/context.ts';
import { Browser, formFields } from './browser.ts';
import { testPasswordHashing } from './password-hashing.ts';
import { gatehouseCommand } from './cli-process.ts';
import { projectRoot } from './project-root.ts';
import { TEST_SIGNING_KEYS_SECRET } from './backends.ts';

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  output: string[];
  exited: Promise<void>;
}

/**
 * Starts `gatehouse serve` on `port` and waits until /healthz answers (polling with a
 * deadline). A setting given as undefined is unset (COOKIE_SECRET, SIGNING_KEYS_SECRET: the
 * server generates one in the data folder of `cwd`); `umask`: see gatehouseCommand.
 */
export async function startServe(port: number, env: Record<string, string | undefined>, options: { cwd?: string; umask?: string } = {}): Promise<ServeProcess> {
  const url = `http://127.0.0.1:${port}`;
  const [program, args] = gatehouseCommand(['serve'], options.umask);
  const child = spawn(program, args, {
    cwd: options.cwd ?? projectRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: url,
      APP_URL: url,
      LOG_LEVEL: 'warn',
      COOKIE_SECRET: 'faults-cookie-secret-faults-cookie-secret',
      // Given, as COOKIE_SECRET is, so that a test writes no secret into the data folder of cwd.
      SIGNING_KEYS_SECRET: TEST_SIGNING_KEYS_SECRET,
      RATE_LIMIT_TOKEN_PER_MINUTE: '0',
      RATE_LIMIT_CLIENT_AUTH_FAILURES_PER_MINUTE: '0',
      RATE_LIMIT_LOGIN_FAILURES_PER_15_MINUTES: '0',
      RATE_LIMIT_LOGIN_FAILURES_PER_IP_PER_15_MINUTES: '0',
      RATE_LIMIT_PUBLIC_BOOKINGS_PER_IP_PER_HOUR: '0',
      RATE_LIMIT_PUBLIC_BOOKINGS_PER_EVENT_TYPE_PER_HOUR: '0',
      ...testPasswordHashing,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`gatehouse serve exited with ${child.exitCode}:\n${output.join('')}`);
    // Each poll gives up after a few seconds: a connection that is accepted and never answered
    // (on loopback, a poll of a port nobody listens on yet can even connect to itself) would
    // otherwise hold this loop past its deadline, and the child would outlive the test.
    if (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.ok, () => false)) return { url, child, output, exited };
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`gatehouse serve did not answer /healthz in 60 s:\n${output.join('')}`);
    }
    await new Promise((r) => setTimeout(r, 100)); // polling until it answers
  }
}

/** SIGKILL, as the kernel's OOM killer or a pulled plug would: no shutdown code runs. */
export async function killHard(server: ServeProcess | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGKILL');
  await server.exited;
}

export async function stopServe(server: ServeProcess | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 10_000);
  await server.exited;
  clearTimeout(timer);
}

export interface TokenPair {
  access: string;
  refresh: string;
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const REDIRECT_URI = 'https://app.example.com/cb';

/** A user and an approved confidential client, made through the services. */
export async function seedApplication(services: ServiceContext) {
  const password = `pw-${randomBytes(6).toString('hex')}`;
  const email = `faults-${randomBytes(3).toString('hex')}@example.com`;
  const user = await createUser(services, { email, name: 'Faults', password });
  const created = await createClient(services, { ownerId: user.id, name: 'Faults App', kind: 'confidential', redirectUris: [REDIRECT_URI], scopes: ['PROFILE_READ'] });
  await reviewClient(services, created.client.clientId, 'approve', null);
  return { user: { email, password }, client: { clientId: created.client.clientId, secret: created.secret! } };
}

/** The application's side of the protocol against one server address. */
export class Application {
  constructor(
    public url: string,
    readonly client: { clientId: string; secret: string },
  ) {}

  /**
   * Codes approved by a logged-in user, each with a grant of its own (prompt=consent,
   * docs/rules.md#silent-authorization), so that revoking one chain leaves the others alone.
   */
  async codes(user: { email: string; password: string }, n: number): Promise<string[]> {
    const browser = new Browser(this.url);
    expect((await browser.login(user.email, user.password)).status).toBe(303);
    const query = new URLSearchParams({ client_id: this.client.clientId, redirect_uri: REDIRECT_URI, response_type: 'code', scope: 'PROFILE_READ', state: 's', prompt: 'consent' });
    const page = await browser.get(`/auth/oauth2/authorize?${query}`);
    expect(page.status).toBe(200);
    const fields = formFields(page.body);
    const codes: string[] = [];
    for (let i = 0; i < n; i++) {
      const back = await browser.post('/auth/oauth2/authorize', { ...fields, decision: 'allow' });
      expect(back.status, back.body.slice(0, 200)).toBe(303);
      codes.push(new URL(back.location!).searchParams.get('code')!);
    }
    return codes;
  }

  private async post(path: string, fields: Record<string, string>): Promise<Answer> {
    const res = await fetch(`${this.url}${path}`, {
      method: 'POST',
      headers: form,
      body: new URLSearchParams({ client_id: this.client.clientId, client_secret: this.client.secret, ...fields }).toString(),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }

  exchange(code: string): Promise<Answer> {
    return this.post('/v2/auth/oauth2/token', { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI });
  }

  refresh(refreshToken: string): Promise<Answer> {
    return this.post('/v2/auth/oauth2/token', { grant_type: 'refresh_token', refresh_token: refreshToken });
  }

  /**
   * Sends a refresh and closes the connection as soon as the request is written: the server
   * handles it, the answer never arrives (a client whose network dropped).
   */
  abandonRefresh(refreshToken: string): Promise<void> {
    const body = new URLSearchParams({ client_id: this.client.clientId, client_secret: this.client.secret, grant_type: 'refresh_token', refresh_token: refreshToken }).toString();
    return new Promise((resolve, reject) => {
      const req = request(`${this.url}/v2/auth/oauth2/token`, { method: 'POST', headers: { ...form, 'content-length': String(Buffer.byteLength(body)) } });
      req.on('error', () => undefined);
      req.on('finish', () => {
        req.destroy();
        resolve();
      });
      req.on('response', () => reject(new Error('the answer arrived before the connection was closed')));
      req.end(body);
    });
  }

  revoke(token: string): Promise<Answer> {
    return this.post('/v2/auth/oauth2/revoke', { token });
  }

  async me(accessToken: string): Promise<number> {
    const res = await fetch(`${this.url}/v2/me`, { headers: { authorization: `Bearer ${accessToken}` } });
    await res.arrayBuffer();
    return res.status;
  }
}

export function pairOf(answer: Answer): TokenPair {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return { access: answer.body.access_token as string, refresh: answer.body.refresh_token as string };
}
