// npm run bench: Gatehouse (SQLite, its own process) against a bare Fastify route (its own
// process), both driven by autocannon on loopback in the same run. Prints requests per
// second, p50/p99 latency and each figure as a ratio of the bare route. Asserts nothing.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { openDatabase } from '../src/storage/database.ts';
import { migrateToLatest } from '../src/storage/migrator.ts';
import { freePort } from '../test/helpers/server.ts';
import { seed } from './seed.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
// Enough single-use codes and refresh tokens for the fastest plausible run.
const supply = Number(process.env.BENCH_SUPPLY ?? 12_000 * seconds);

async function waitForHealth(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} did not come up`);
}

interface Row {
  scenario: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function measure(scenario: string, options: autocannon.Options): Promise<Row> {
  const result = await autocannon({ connections, duration: seconds, ...options });
  return { scenario, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx + result.errors };
}

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-'));
const databaseUrl = `sqlite:${join(dir, 'bench.db')}`;
const children: ChildProcess[] = [];
try {
  process.stdout.write(`seeding ${supply} codes and refresh tokens…\n`);
  const database = openDatabase(databaseUrl);
  await migrateToLatest(database);
  const seeded = await seed(database, { codes: supply, refreshTokens: supply });
  await database.close();

  const barePort = await freePort();
  const bare = spawn(process.execPath, ['--import', 'tsx', 'bench/bare-server.ts'], { env: { ...process.env, PORT: String(barePort) }, stdio: 'ignore' });
  children.push(bare);
  const ghPort = await freePort();
  const ghUrl = `http://127.0.0.1:${ghPort}`;
  // BENCH_PROFILE_DIR=dir writes a V8 CPU profile of the Gatehouse process there.
  const profileDir = process.env.BENCH_PROFILE_DIR;
  const profileArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const gh = spawn(process.execPath, [...profileArgs, 'bin/gatehouse.mjs', 'serve'], {
    env: {
      ...process.env,
      PORT: String(ghPort),
      BASE_URL: ghUrl,
      APP_URL: ghUrl,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      AUTH_CODE_TTL_SECONDS: '3600',
      COOKIE_SECRET: 'bench-cookie-secret-bench-cookie-secret',
      RATE_LIMIT_TOKEN_PER_MINUTE: '0',
      RATE_LIMIT_CLIENT_AUTH_FAILURES_PER_MINUTE: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(gh);
  await waitForHealth(`http://127.0.0.1:${barePort}/bare`);
  await waitForHealth(`${ghUrl}/.well-known/oauth-authorization-server`);

  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const rows: Row[] = [];
  // Warm both servers' JIT before measuring.
  await autocannon({ url: `http://127.0.0.1:${barePort}/bare`, connections, duration: 2 });
  await autocannon({ url: `${ghUrl}/v2/me`, connections, duration: 2, headers: { authorization: `Bearer ${seeded.accessToken}` } });

  // BENCH_ONLY=exchange,refresh runs only the named Gatehouse scenarios (for profiling).
  const only = process.env.BENCH_ONLY?.split(',');
  const wanted = (name: string) => only === undefined || only.includes(name);
  rows.push(await measure('bare Fastify route', { url: `http://127.0.0.1:${barePort}/bare` }));
  if (wanted('me')) rows.push(await measure('GET /v2/me', { url: `${ghUrl}/v2/me`, headers: { authorization: `Bearer ${seeded.accessToken}` } }));
  // A guarded team route: token + scope + membership in one query, then the route's own.
  if (wanted('team')) rows.push(
    await measure('GET team event types', { url: `${ghUrl}/v2/teams/${seeded.teamId}/event-types`, headers: { authorization: `Bearer ${seeded.teamAccessToken}` } }),
  );
  /** A token-endpoint scenario whose every request carries a fresh form body. */
  const tokenScenario = (name: string, body: () => Record<string, string>) =>
    measure(name, {
      url: `${ghUrl}/v2/auth/oauth2/token`,
      method: 'POST',
      headers: form,
      requests: [{ setupRequest: (req) => ({ ...req, body: new URLSearchParams(body()).toString() }) }],
    });
  const client = { client_id: seeded.clientId, client_secret: seeded.secret };
  let c = 0;
  if (wanted('exchange')) {
    rows.push(
      await tokenScenario('code exchange', () => ({
        grant_type: 'authorization_code',
        code: seeded.codes[c++ % seeded.codes.length]!,
        redirect_uri: seeded.redirectUri,
        ...client,
      })),
    );
  }
  let r = 0;
  if (wanted('refresh')) {
    rows.push(
      await tokenScenario('refresh', () => ({
        grant_type: 'refresh_token',
        refresh_token: seeded.refreshTokens[r++ % seeded.refreshTokens.length]!,
        ...client,
      })),
    );
  }
  if (c > seeded.codes.length || r > seeded.refreshTokens.length) {
    process.stdout.write('note: the run used more codes or refresh tokens than were seeded; raise BENCH_SUPPLY\n');
  }

  const bareRps = rows[0]!.rps;
  process.stdout.write(`\n${connections} connections, ${seconds} s per scenario, loopback, 2-core machine\n\n`);
  process.stdout.write(`${'scenario'.padEnd(22)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'vs bare'.padStart(8)} ${'non-2xx'.padStart(8)}\n`);
  for (const row of rows) {
    process.stdout.write(
      `${row.scenario.padEnd(22)} ${row.rps.toFixed(0).padStart(9)} ${row.p50.toFixed(1).padStart(7)} ${row.p99.toFixed(1).padStart(7)} ${((row.rps / bareRps) * 100).toFixed(0).padStart(7)}% ${String(row.non2xx).padStart(8)}\n`,
    );
  }
} finally {
  await Promise.all(
    children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : (child.once('exit', resolve), child.kill('SIGTERM'))))),
  );
  rmSync(dir, { recursive: true, force: true });
}
