// npm run soak: a `gatehouse serve` process under a steady mixed load — authorize (remembered
// consent, or the consent form after a revocation), code exchange, /v2/me, refresh, revoke —
// for SOAK_MINUTES (10). Every SOAK_SAMPLE_SECONDS it has the server collect its garbage
// (bench/soak-gc.mjs) and reads the server's own /metrics (resident set, live V8 heap, active
// handles, open files); it prints the figures per minute and at the end their slope per
// minute after the first (warm-up) minute. Memory must be flat: the exit status is 1 when
// the live heap or the handles keep growing. Not part of CI.
//
// SOAK_CONCURRENCY (4) workers each act as one user of one client; short lifetimes (codes
// 60 s, access tokens 60 s, refresh chains 120 s, replay window 5 s, pruning every 5 s)
// keep the database at a steady size, so what the soak sees is the process, not the data.
// SOAK_DATABASE_URL runs it against PostgreSQL (a fresh schema); SQLite in a temp dir otherwise.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createSession } from '../src/services/accounts/sessions.ts';
import { createUser } from '../src/services/accounts/users.ts';
import { createClient } from '../src/services/clients/registration.ts';
import { reviewClient } from '../src/services/clients/review.ts';
import { openDatabase } from '../src/storage/database.ts';
import { migrateToLatest } from '../src/storage/migrator.ts';
import { createServiceContext } from '../src/storage/stores/index.ts';
import { freePort } from '../test/helpers/ports.ts';

const minutes = Number(process.env.SOAK_MINUTES ?? 10);
const concurrency = Number(process.env.SOAK_CONCURRENCY ?? 4);
const sampleSeconds = Number(process.env.SOAK_SAMPLE_SECONDS ?? 5);
/** Growth per minute above which the soak fails: the live heap, and handles. */
const HEAP_SLOPE_LIMIT_MB = 0.5;
const HANDLE_SLOPE_LIMIT = 1;

const REDIRECT_URI = 'https://soak.example.com/cb';
const form = { 'content-type': 'application/x-www-form-urlencoded' };

interface Sample {
  at: number;
  rss: number;
  heapUsed: number;
  handles: number;
  fds: number;
}

/** The few gauges the soak reads from prom-client's default metrics, after a full GC. */
async function sample(base: string, server: ChildProcess): Promise<Sample> {
  server.kill('SIGUSR2');
  await new Promise((r) => setTimeout(r, 500));
  const text = await (await fetch(`${base}/metrics`)).text();
  const gauge = (name: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
    return line === undefined ? NaN : Number(line.slice(line.lastIndexOf(' ') + 1));
  };
  return {
    at: Date.now(),
    rss: gauge('process_resident_memory_bytes'),
    heapUsed: gauge('nodejs_heap_size_used_bytes'),
    handles: gauge('nodejs_active_handles_total'),
    fds: gauge('process_open_fds'),
  };
}

/** Least-squares slope of y over x. */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const num = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

const MB = 1024 * 1024;
const counts = { authorize: 0, consent: 0, exchange: 0, me: 0, refresh: 0, revoke: 0, unexpected: 0 };
const unexpected: string[] = [];

function expectStatus(what: string, res: Response, status: number): void {
  if (res.status === status) return;
  counts.unexpected++;
  if (unexpected.length < 10) unexpected.push(`${what}: ${res.status}`);
}

interface Worker {
  session: string;
}

/** One round of a user's life with the application; ends by revoking something. */
async function round(base: string, client: { clientId: string; secret: string }, worker: Worker, n: number): Promise<void> {
  const cookie = `gh_session=${worker.session}`;
  const query = new URLSearchParams({ client_id: client.clientId, redirect_uri: REDIRECT_URI, response_type: 'code', scope: 'PROFILE_READ', state: `s${n}` });
  let res = await fetch(`${base}/auth/oauth2/authorize?${query}`, { redirect: 'manual', headers: { cookie } });
  counts.authorize++;
  if (res.status === 200) {
    // No live grant (the last round revoked it): the consent form, and Allow.
    const page = await res.text();
    const csrf = /name="_csrf" value="([^"]*)"/.exec(page)?.[1] ?? '';
    const fields = Object.fromEntries([...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&amp;/g, '&')]));
    const setCookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    res = await fetch(`${base}/auth/oauth2/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...form, cookie: [cookie, setCookie].filter(Boolean).join('; ') },
      body: new URLSearchParams({ ...fields, _csrf: csrf, decision: 'allow' }).toString(),
    });
    counts.consent++;
  }
  expectStatus('authorize', res, 303);
  const code = new URL(res.headers.get('location') ?? 'https://x.invalid/').searchParams.get('code');
  await res.arrayBuffer();
  if (code === null) return;

  const token = async (fields: Record<string, string>) => {
    const r = await fetch(`${base}/v2/auth/oauth2/token`, { method: 'POST', headers: form, body: new URLSearchParams({ client_id: client.clientId, client_secret: client.secret, ...fields }).toString() });
    return { res: r, body: (await r.json()) as { access_token?: string; refresh_token?: string } };
  };
  const me = async (accessToken: string) => {
    const r = await fetch(`${base}/v2/me`, { headers: { authorization: `Bearer ${accessToken}` } });
    await r.arrayBuffer();
    counts.me++;
    expectStatus('/v2/me', r, 200);
  };

  const exchanged = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI });
  counts.exchange++;
  expectStatus('exchange', exchanged.res, 200);
  if (!exchanged.body.access_token || !exchanged.body.refresh_token) return;
  await me(exchanged.body.access_token);
  const refreshed = await token({ grant_type: 'refresh_token', refresh_token: exchanged.body.refresh_token });
  counts.refresh++;
  expectStatus('refresh', refreshed.res, 200);
  if (!refreshed.body.access_token || !refreshed.body.refresh_token) return;
  await me(refreshed.body.access_token);
  // Every third round ends the grant (refresh token), the others one access token.
  const revoked = n % 3 === 0 ? refreshed.body.refresh_token : refreshed.body.access_token;
  const r = await fetch(`${base}/v2/auth/oauth2/revoke`, { method: 'POST', headers: form, body: new URLSearchParams({ token: revoked, client_id: client.clientId, client_secret: client.secret }).toString() });
  await r.arrayBuffer();
  counts.revoke++;
  expectStatus('revoke', r, 200);
}

const children: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-soak-'));
const pgUrl = process.env.SOAK_DATABASE_URL;
const pgSchema = `soak_${randomBytes(6).toString('hex')}`;
let failed = false;
try {
  let databaseUrl = `sqlite:${join(dir, 'soak.db')}`;
  if (pgUrl !== undefined) {
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${pgSchema}`);
    await admin.end();
    databaseUrl = `${pgUrl}${pgUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${pgSchema}`)}`;
  }
  const database = openDatabase(databaseUrl, pgUrl !== undefined ? { schema: pgSchema } : {});
  await migrateToLatest(database);
  const services = createServiceContext(database.db, Date.now);
  const owner = await createUser(services, { email: 'soak-owner@example.com', name: 'Soak Owner', password: 'soak-password' });
  const created = await createClient(services, { ownerId: owner.id, name: 'Soak', kind: 'confidential', redirectUris: [REDIRECT_URI], scopes: ['PROFILE_READ'] });
  await reviewClient(services, created.client.clientId, 'approve', null);
  const client = { clientId: created.client.clientId, secret: created.secret! };
  const workers: Worker[] = [];
  for (let i = 0; i < concurrency; i++) {
    const user = await createUser(services, { email: `soak-${i}@example.com`, name: `Soak ${i}`, password: 'soak-password' });
    workers.push({ session: await createSession(services, user.id) });
  }
  await database.close();

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['--expose-gc', '--import', './bench/soak-gc.mjs', 'bin/gatehouse.mjs', 'serve'], {
    env: {
      ...process.env,
      PORT: String(port),
      BASE_URL: base,
      APP_URL: base,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      COOKIE_SECRET: 'soak-cookie-secret-soak-cookie-secret-soak',
      AUTH_CODE_TTL_SECONDS: '60',
      ACCESS_TOKEN_TTL_SECONDS: '60',
      REFRESH_TOKEN_IDLE_TTL_SECONDS: '120',
      REFRESH_REUSE_WINDOW_SECONDS: '5',
      PRUNE_INTERVAL_SECONDS: '5',
      RATE_LIMIT_TOKEN_PER_MINUTE: '0',
      RATE_LIMIT_CLIENT_AUTH_FAILURES_PER_MINUTE: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(server);
  for (const deadline = Date.now() + 30_000; ; ) {
    if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) throw new Error('the server did not start in 30 s');
    await new Promise((r) => setTimeout(r, 100)); // polling until it answers
  }

  const end = Date.now() + minutes * 60_000;
  process.stdout.write(`soak: ${minutes} min, ${concurrency} workers, ${pgUrl ? 'PostgreSQL' : 'SQLite'}, server pid ${server.pid}\n`);
  process.stdout.write('minute  requests  unexpected  rss MB  live heap MB (min/max)  handles  fds\n');
  const load = workers.map(async (worker) => {
    for (let n = 0; Date.now() < end; n++) await round(base, client, worker, n);
  });

  const samples: Sample[] = [];
  const start = Date.now();
  const perMinute: Array<{ minute: number; rss: number; heapMin: number; heapMax: number; handles: number; fds: number }> = [];
  let reported = 0;
  const requests = () => counts.authorize + counts.consent + counts.exchange + counts.me + counts.refresh + counts.revoke;
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, sampleSeconds * 1000));
    samples.push(await sample(base, server));
    const minute = Math.floor((Date.now() - start) / 60_000);
    if (minute > reported) {
      const window = samples.filter((s) => s.at >= start + reported * 60_000 && s.at < start + minute * 60_000);
      reported = minute;
      if (window.length === 0) continue;
      const last = window[window.length - 1]!;
      const row = {
        minute,
        rss: last.rss / MB,
        heapMin: Math.min(...window.map((s) => s.heapUsed)) / MB,
        heapMax: Math.max(...window.map((s) => s.heapUsed)) / MB,
        handles: last.handles,
        fds: last.fds,
      };
      perMinute.push(row);
      process.stdout.write(
        `${String(minute).padStart(6)}  ${String(requests()).padStart(8)}  ${String(counts.unexpected).padStart(10)}  ${row.rss.toFixed(1).padStart(6)}  ${row.heapMin.toFixed(1).padStart(7)} / ${row.heapMax.toFixed(1).padEnd(7)}  ${String(row.handles).padStart(7)}  ${String(row.fds).padStart(4)}\n`,
      );
    }
  }
  await Promise.all(load);

  // After the first minute (JIT, caches and pools warming up): growth per minute of the
  // heap after collection (its per-minute minimum), the leak signal.
  const steady = perMinute.filter((m) => m.minute >= 2);
  const rssSlope = slope(steady.map((m) => [m.minute, m.rss]));
  const heapSlope = slope(steady.map((m) => [m.minute, m.heapMin]));
  const handleSlope = slope(steady.map((m) => [m.minute, m.handles]));
  process.stdout.write(`\nrequests: ${JSON.stringify(counts)}\n`);
  if (unexpected.length) process.stdout.write(`first unexpected answers: ${unexpected.join(', ')}\n`);
  process.stdout.write(
    `slope after minute 1: rss ${rssSlope.toFixed(2)} MB/min, live heap ${heapSlope.toFixed(2)} MB/min, handles ${handleSlope.toFixed(2)}/min\n`,
  );
  const flat = steady.length >= 2 && heapSlope <= HEAP_SLOPE_LIMIT_MB && handleSlope <= HANDLE_SLOPE_LIMIT;
  process.stdout.write(flat ? 'memory flat\n' : steady.length < 2 ? 'too short to judge (SOAK_MINUTES >= 3)\n' : 'memory GROWING\n');
  failed = !flat || counts.unexpected > 0;
} finally {
  for (const child of children) child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
  if (pgUrl !== undefined) {
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${pgSchema} CASCADE`);
    await admin.end();
  }
}
process.exit(failed ? 1 : 0);
