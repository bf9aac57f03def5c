// SIGTERM: the process stops taking connections but finishes the requests already in
// flight before it exits (issue: standards and operations, item 6), promptly even under a
// keep-alive load. On every backend for the load.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServiceContext } from '../../src/storage/stores/index.ts';
import { testServiceOptions } from '../helpers/password-hashing.ts';
import { waitFor } from '../faults/load.ts';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';
import { Application, pairOf, seedApplication, startServe, type ServeProcess, type TokenPair } from '../helpers/serve-process.ts';
import { halfWritten } from '../helpers/rows.ts';
import { freePort } from '../helpers/ports.ts';
import { accessTokenOf, storesOver } from '../helpers/stores.ts';

interface Answered {
  status: number;
  text: string;
  /** Resolves when the server has closed the connection the answer came on. */
  closed: Promise<void>;
}

/**
 * A token request whose headers the server has read (it answered `100 Continue`) and whose
 * body waits for `finish()`: in flight for as long as the test wants. With `agent`, the
 * connection is kept alive after the answer and the client sends nothing more on it.
 */
async function requestInFlight(url: string, body: string, agent?: Agent): Promise<{ finish(): void; answer: Promise<Answered> }> {
  const req = request(`${url}/v2/auth/oauth2/token`, {
    method: 'POST',
    ...(agent ? { agent } : {}),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)), expect: '100-continue' },
  });
  const answer = new Promise<Answered>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      const closed = new Promise<void>((done) => res.socket.once('close', () => done()));
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, text, closed }));
    });
    req.on('error', reject);
  });
  req.flushHeaders();
  await new Promise<void>((resolve) => req.once('continue', () => resolve()));
  req.write(body.slice(0, 20));
  return { finish: () => req.end(body.slice(20)), answer };
}

/** The failure bound, not a wait: a test goes on as soon as the process has exited. */
const EXIT_BOUND_MS = 20_000;

/** Polls until the server no longer accepts connections. */
const refusingConnections = (url: string) => waitFor('the listening socket to close', () => fetch(`${url}/healthz`).then(() => false, () => true));

describe('graceful shutdown', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-shutdown-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finishes a request in flight after SIGTERM, then exits 0 and refuses new connections', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ['bin/gatehouse.mjs', 'serve'], {
      env: { ...process.env, PORT: String(port), BASE_URL: url, APP_URL: url, DATABASE_URL: `sqlite:${join(dir, 'g.db')}`, LOG_LEVEL: 'warn', COOKIE_SECRET: 'x'.repeat(40) },
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    for (;;) {
      const up = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.ok, () => false);
      if (up) break;
      await new Promise((r) => setTimeout(r, 100)); // polling until the server answers
    }

    // A token request whose body is still arriving when SIGTERM is sent.
    const inFlight = await requestInFlight(url, 'grant_type=authorization_code&client_id=nobody&code=x&redirect_uri=https%3A%2F%2Fa.example%2Fcb');
    child.kill('SIGTERM');
    // Wait until the server no longer accepts connections, then finish the old request.
    await refusingConnections(url);
    inFlight.finish();
    const answered = await inFlight.answer;
    expect(answered.status).toBe(401);
    expect(JSON.parse(answered.text)).toMatchObject({ error: 'invalid_client' });
    expect(await exited).toBe(0);
  });

  it('exits 0 even when a client never finishes sending its request: what is open after the grace period (SHUTDOWN_GRACE_SECONDS) is cut', async () => {
    const port = await freePort();
    // Shorter than the default 10 s: the test waits the whole grace period.
    const graceSeconds = 2;
    const server = await startServe(port, { DATABASE_URL: `sqlite:${join(dir, 'slow.db')}`, SHUTDOWN_GRACE_SECONDS: String(graceSeconds) });
    try {
      // A request line and one header, and nothing more: Node stops enforcing the header
      // timeout once closing, so only the grace period ends this connection.
      const slow = connect(port, '127.0.0.1');
      await new Promise<void>((resolve) => slow.once('connect', () => resolve()));
      const cut = new Promise<void>((resolve) => slow.once('close', () => resolve()));
      slow.on('error', () => undefined);
      slow.write('POST /v2/auth/oauth2/token HTTP/1.1\r\nHost: x\r\n');
      // The server has read it (a connection with no request begun is idle, closed at once)
      // once it has answered a request sent after it, on another connection.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      server.child.kill('SIGTERM');
      const bound = new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), graceSeconds * 1000 + EXIT_BOUND_MS).unref());
      expect(await Promise.race([server.exited.then(() => server.child.exitCode), bound])).toBe(0);
      await cut;
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  }, 60_000);
});

// Issue 21 item 10: under a keep-alive load the process answered what was in flight but was
// still running long after SIGTERM: a connection whose request was in flight was answered
// "keep-alive" and then held open by its client until the keep-alive timeout (72 s). Twelve
// clients keep sending exchanges, refreshes and /v2/me on their connections while the signal
// arrives and after it; one more has a refresh in flight and then sends nothing more.
const CONNECTIONS = 12;

describe.each(backends)('SIGTERM under a keep-alive load on $name', { timeout: 180_000 }, ({ name, available }) => {
  let database: TestDatabase | undefined;
  let server: ServeProcess | undefined;
  const quietAgent = new Agent({ keepAlive: true });
  afterAll(async () => {
    quietAgent.destroy();
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    await database?.drop();
  });

  it.skipIf(!available)('exits 0 promptly while the load keeps going; every answer is a whole one and what it reported is committed', async () => {
    database = await createTestDatabase(name);
    const db = database.handle.db;
    const { user, client } = await seedApplication(createServiceContext(db, Date.now, testServiceOptions));
    server = await startServe(await freePort(), { DATABASE_URL: database.url, AUTH_CODE_TTL_SECONDS: '900', PRUNE_INTERVAL_SECONDS: '3600' });
    const app = new Application(server.url, client);
    const codes = await app.codes(user, CONNECTIONS * 3);
    const quietChain = pairOf(await app.exchange(codes.shift()!));

    let exitCode: number | null | undefined;
    const exited = new Promise<number | null>((resolve) => server!.child.once('exit', (code) => resolve((exitCode = code))));
    let signalled = false;
    let answers = 0;
    /** Access tokens the server answered with: each must be committed. */
    const issued: string[] = [];
    const wrong: string[] = [];
    const keep = (what: string, status: number, body?: Record<string, unknown>) => {
      answers++;
      if (status === 200 && typeof body?.access_token === 'string') issued.push(body.access_token);
      if (status !== 200 && status !== 503) wrong.push(`${what} ${status} ${JSON.stringify(body)}`);
      if (status === 503 && !signalled) wrong.push(`${what} 503 before SIGTERM`);
    };
    // fetch keeps each connection alive between requests.
    const worker = async () => {
      let chain: TokenPair | undefined;
      for (let step = 0; exitCode === undefined; step++) {
        try {
          const code = chain === undefined || step % 3 === 0 ? codes.shift() : undefined;
          if (code !== undefined) {
            const res = await app.exchange(code);
            keep('exchange', res.status, res.body);
            if (res.status === 200) chain = pairOf(res);
          } else if (chain !== undefined) {
            const res = await app.refresh(chain.refresh);
            keep('refresh', res.status, res.body);
            if (res.status === 200) chain = pairOf(res);
            keep('me', await app.me(chain.access));
          } else return;
        } catch {
          // The server closed the connection or no longer accepts one: the client tries
          // again, as a client behind a load balancer would, until the process is gone.
        }
        await new Promise((r) => setTimeout(r, 5)); // pacing: the machine is shared
      }
    };
    const load = Array.from({ length: CONNECTIONS }, () => worker());
    await waitFor('the load to be answered', () => answers >= CONNECTIONS * 4);

    const quiet = await requestInFlight(
      server.url,
      new URLSearchParams({ grant_type: 'refresh_token', refresh_token: quietChain.refresh, client_id: client.clientId, client_secret: client.secret }).toString(),
      quietAgent,
    );
    signalled = true;
    server.child.kill('SIGTERM');
    await refusingConnections(server.url);
    quiet.finish();
    const quietAnswer = await quiet.answer;
    expect(quietAnswer.status, quietAnswer.text).toBe(200);
    issued.push((JSON.parse(quietAnswer.text) as { access_token: string }).access_token);

    const bound = new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), EXIT_BOUND_MS).unref());
    expect(await Promise.race([exited, bound]), `${EXIT_BOUND_MS / 1000} s after SIGTERM under load:\n${server.output.join('').slice(-2000)}`).toBe(0);
    // The server, not the client, ended the quiet connection.
    await quiet.answer.then((a) => a.closed);
    await Promise.all(load);
    expect(wrong).toEqual([]);
    expect(server.output.join('')).toContain('Gatehouse stopped (SIGTERM)');

    // What the answers reported was committed, and nothing is half-written.
    const stores = storesOver(db);
    for (const token of issued) {
      expect(await accessTokenOf(stores, token), 'an access token the server answered with is stored').toBeDefined();
    }
    expect(await halfWritten(db)).toMatchObject({ grantsWithUnpairedTokens: [], refreshTokensWithBrokenSuccession: [] });
  });
});
