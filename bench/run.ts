// npm run bench: Gatehouse (SQLite, its own process), oidc-provider as a peer twice (in memory,
// and on a durable SQLite adapter as it would be deployed, each its own process) and a bare
// Fastify route (its own process), all driven by autocannon on loopback in the same run. Each
// scenario runs against Gatehouse and the peers in alternation, BENCH_ROUNDS times; the table
// shows medians: requests per second, p50/p99 latency, the server process's CPU time per
// request, Gatehouse against each peer and each figure against the bare route. Asserts nothing.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { openDatabase } from '../src/storage/database.ts';
import { migrateToLatest } from '../src/storage/migrator.ts';
import { freePort } from '../test/helpers/ports.ts';
import { dpopKey } from './dpop-proofs.ts';
import { seed, type Seeded } from './seed.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
// Enough single-use codes and refresh tokens for the fastest plausible run, per server.
const supply = Number(process.env.BENCH_SUPPLY ?? 5000 * seconds * rounds);
// /proc/<pid>/stat counts CPU time in clock ticks; Linux reports USER_HZ = 100.
const TICK_MS = 10;
// BENCH_DATABASE_URL=postgres://…: also run Gatehouse's exchange and refresh on PostgreSQL,
// in a fresh schema dropped at the end.
const postgresUrl = process.env.BENCH_DATABASE_URL;

async function waitForHealth(url: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
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

/** utime + stime of a process, in milliseconds. */
function cpuMs(pid: number): number {
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis are fixed.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

interface Sample {
  rps: number;
  p50: number;
  p99: number;
  /** Server CPU time per completed request, microseconds. */
  cpuUs: number;
  /** Requests answered with another status than expected, plus errors and timeouts. */
  unexpected: number;
}

async function measure(pid: number, options: autocannon.Options, status = 200): Promise<Sample> {
  const before = cpuMs(pid);
  const result = await autocannon({ connections, duration: seconds, ...options });
  const cpu = cpuMs(pid) - before;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuUs: (cpu * 1000) / Math.max(result.requests.total, 1),
    unexpected: result.requests.total - (result.statusCodeStats?.[String(status) as keyof typeof result.statusCodeStats]?.count ?? 0) + result.errors,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The peer's seed: the first line it prints, once it listens. */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => (lines.close(), resolve(line)));
    child.once('exit', (code) => reject(new Error(`peer exited (${code}) before it listened`)));
  });
}

/** What the peer prints on its first line: the same supply as Gatehouse's seed, minus the team. */
type PeerSeed = Pick<Seeded, 'clientId' | 'secret' | 'redirectUri' | 'codes' | 'refreshTokens' | 'accessToken'> & {
  /** Cookie headers of two logged-in browsers with remembered consent (the second for authorize-10k). */
  browserCookie: string;
  busyCookie: string;
};

/**
 * `status`: the answer every request should get (200 unless told). `prepare`: what must happen
 * just before each measurement (a fresh DPoP nonce).
 */
type Target = { pid: number; options: () => autocannon.Options; status?: number; prepare?: () => Promise<void> };
/** The two deployments of the peer: its in-memory store, and the durable one (peer-sqlite-adapter.mjs). */
const peerKinds = ['memory', 'durable'] as const;
type PeerKind = (typeof peerKinds)[number];
interface Scenario {
  name: string;
  gatehouse: Target;
  peers?: Record<PeerKind, Target>;
}
interface Peer {
  kind: PeerKind;
  child: ChildProcess;
  url: string;
  seed: PeerSeed;
  used: { codes: number; refresh: number };
}

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-'));
const databaseUrl = `sqlite:${join(dir, 'bench.db')}`;
const children: ChildProcess[] = [];
const pgSchema = `bench_${randomBytes(6).toString('hex')}`;
let pgCreated = false;
try {
  process.stdout.write(`seeding ${supply} codes and refresh tokens per server…\n`);
  const database = openDatabase(databaseUrl);
  await migrateToLatest(database);
  // RFC 9449: the load generator's key; one seeded access token is bound to it.
  const dpop = dpopKey();
  const seeded = await seed(database, { codes: supply, refreshTokens: supply }, dpop.jkt);
  await database.close();

  const barePort = await freePort();
  const bare = spawn(process.execPath, ['--import', 'tsx', 'bench/bare-server.ts'], { env: { ...process.env, PORT: String(barePort) }, stdio: 'ignore' });
  children.push(bare);
  const startPeer = async (kind: PeerKind): Promise<Peer> => {
    const port = await freePort();
    const child = spawn(process.execPath, ['bench/peer-server.mjs'], {
      env: { ...process.env, PORT: String(port), BENCH_SUPPLY: String(supply), NODE_ENV: 'production', PEER_STORE: kind === 'memory' ? 'memory' : `sqlite:${join(dir, 'peer.db')}` },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    children.push(child);
    const seed = JSON.parse(await firstLine(child)) as PeerSeed;
    const url = `http://127.0.0.1:${port}`;
    await waitForHealth(`${url}/.well-known/openid-configuration`);
    return { kind, child, url, seed, used: { codes: 0, refresh: 0 } };
  };
  // BENCH_PROFILE_DIR=dir writes a V8 CPU profile of the Gatehouse process there.
  const profileDir = process.env.BENCH_PROFILE_DIR;
  const profileArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const startGatehouse = async (url: string) => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, [...profileArgs, 'bin/gatehouse.mjs', 'serve'], {
      env: {
        ...process.env,
        PORT: String(port),
        BASE_URL: base,
        APP_URL: base,
        DATABASE_URL: url,
        LOG_LEVEL: 'warn',
        AUTH_CODE_TTL_SECONDS: '3600',
        COOKIE_SECRET: 'bench-cookie-secret-bench-cookie-secret',
        RATE_LIMIT_TOKEN_PER_MINUTE: '0',
        RATE_LIMIT_CLIENT_AUTH_FAILURES_PER_MINUTE: '0',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(child);
    await waitForHealth(`${base}/.well-known/oauth-authorization-server`);
    return { child, base };
  };
  const { child: gh, base: ghUrl } = await startGatehouse(databaseUrl);
  const peers = await Promise.all(peerKinds.map(startPeer));
  await waitForHealth(`http://127.0.0.1:${barePort}/bare`);

  // BENCH_ONLY=exchange,refresh runs only the named scenarios (for profiling).
  const only = process.env.BENCH_ONLY?.split(',');
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  // Warm the servers' JIT before measuring.
  await autocannon({ url: `http://127.0.0.1:${barePort}/bare`, connections, duration: 2 });
  await autocannon({ url: `${ghUrl}/v2/me`, connections, duration: 2, headers: { authorization: `Bearer ${seeded.accessToken}` } });
  for (const peer of peers) await autocannon({ url: `${peer.url}/me`, connections, duration: 2, headers: { authorization: `Bearer ${peer.seed.accessToken}` } });

  /** A POST whose every request carries a fresh form body. */
  const post = (url: string, body: () => Record<string, string>): autocannon.Options => ({
    url,
    method: 'POST',
    headers: form,
    requests: [{ setupRequest: (req) => ({ ...req, body: new URLSearchParams(body()).toString() }) }],
  });
  const authorize = (session: string): autocannon.Options => ({
    url: `${ghUrl}/auth/oauth2/authorize?${new URLSearchParams({ response_type: 'code', client_id: seeded.clientId, redirect_uri: seeded.redirectUri, scope: 'PROFILE_READ', state: 'bench' })}`,
    headers: { cookie: `gh_session=${session}` },
  });
  // The peer's: the same request in OpenID terms (oidc-provider needs `openid` for a code
  // without PKCE from a confidential client); it answers with a 303 redirect as Gatehouse does.
  const peerAuthorize = (peer: Peer, cookie: string): autocannon.Options => ({
    url: `${peer.url}/auth?${new URLSearchParams({ response_type: 'code', client_id: peer.seed.clientId, redirect_uri: peer.seed.redirectUri, scope: 'openid', state: 'bench' })}`,
    headers: { cookie },
  });
  // A 303 could be an error redirect: check once that each server's answer carries a code.
  for (const [server, options] of [['Gatehouse', authorize(seeded.browserSession)], ...peers.map((p) => [`peer (${p.kind})`, peerAuthorize(p, p.seed.browserCookie)] as const)] as const) {
    const res = await fetch(options.url!, { headers: options.headers as Record<string, string>, redirect: 'manual' });
    if (res.status !== 303 || !new URL(res.headers.get('location') ?? 'x:').searchParams.has('code')) throw new Error(`${server}'s remembered-consent authorization did not redirect with a code: ${res.status} ${res.headers.get('location')}`);
  }
  if (only === undefined || only.includes('authorize-10k')) {
    process.stdout.write('10,000 authorizations by one user, on each server…\n');
    for (const [server, options] of [['Gatehouse', authorize(seeded.busySession)], ...peers.map((p) => [`peer (${p.kind})`, peerAuthorize(p, p.seed.busyCookie)] as const)] as const) {
      const earlier = await autocannon({ ...options, connections, amount: 10_000 });
      const answered = earlier.statusCodeStats?.['303']?.count ?? 0;
      if (answered !== 10_000) throw new Error(`of 10,000 earlier authorizations on ${server}, only ${answered} were answered 303`);
    }
  }
  const ghClient = { client_id: seeded.clientId, client_secret: seeded.secret };
  const tokenUrl = `${ghUrl}/v2/auth/oauth2/token`;
  let nonce = '';
  const used = { ghCodes: 0, ghRefresh: 0 };
  /** The same scenario on each peer. */
  const onPeers = (target: (peer: Peer, client: { client_id: string; client_secret: string }) => Omit<Target, 'pid'>): Record<PeerKind, Target> =>
    Object.fromEntries(peers.map((p) => [p.kind, { pid: p.child.pid!, ...target(p, { client_id: p.seed.clientId, client_secret: p.seed.secret }) }])) as Record<PeerKind, Target>;
  /** The next 30 days, as GET /v2/slots takes them. */
  const slotsMonth = { start: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10), end: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10) };
  const scenarios: Scenario[] = [
    {
      name: 'exchange',
      gatehouse: { pid: gh.pid!, options: () => post(`${ghUrl}/v2/auth/oauth2/token`, () => ({ grant_type: 'authorization_code', code: seeded.codes[used.ghCodes++ % seeded.codes.length]!, redirect_uri: seeded.redirectUri, ...ghClient })) },
      peers: onPeers((p, client) => ({ options: () => post(`${p.url}/token`, () => ({ grant_type: 'authorization_code', code: p.seed.codes[p.used.codes++ % p.seed.codes.length]!, redirect_uri: p.seed.redirectUri, ...client })) })),
    },
    {
      name: 'refresh',
      gatehouse: { pid: gh.pid!, options: () => post(`${ghUrl}/v2/auth/oauth2/token`, () => ({ grant_type: 'refresh_token', refresh_token: seeded.refreshTokens[used.ghRefresh++ % seeded.refreshTokens.length]!, ...ghClient })) },
      peers: onPeers((p, client) => ({ options: () => post(`${p.url}/token`, () => ({ grant_type: 'refresh_token', refresh_token: p.seed.refreshTokens[p.used.refresh++ % p.seed.refreshTokens.length]!, ...client })) })),
    },
    {
      name: 'me',
      gatehouse: { pid: gh.pid!, options: () => ({ url: `${ghUrl}/v2/me`, headers: { authorization: `Bearer ${seeded.accessToken}` } }) },
      peers: onPeers((p) => ({ options: () => ({ url: `${p.url}/me`, headers: { authorization: `Bearer ${p.seed.accessToken}` } }) })),
    },
    {
      name: 'introspect',
      gatehouse: { pid: gh.pid!, options: () => post(`${ghUrl}/v2/auth/oauth2/introspect`, () => ({ token: seeded.accessToken, ...ghClient })) },
      peers: onPeers((p, client) => ({ options: () => post(`${p.url}/token/introspection`, () => ({ token: p.seed.accessToken, ...client })) })),
    },
    // Remembered consent: a logged-in browser's authorization request, answered 303 with a code.
    {
      name: 'authorize',
      gatehouse: { pid: gh.pid!, options: () => authorize(seeded.browserSession), status: 303 },
      peers: onPeers((p) => ({ options: () => peerAuthorize(p, p.seed.browserCookie), status: 303 })),
    },
    // The same for a user who already made 10,000 authorizations (made before the rounds).
    {
      name: 'authorize-10k',
      gatehouse: { pid: gh.pid!, options: () => authorize(seeded.busySession), status: 303 },
      peers: onPeers((p) => ({ options: () => peerAuthorize(p, p.seed.busyCookie), status: 303 })),
    },
    // RFC 9449: the same two with DPoP, so the table shows what a proof costs. Every request
    // carries a fresh proof (its own jti and iat); the token endpoint's carries the server's nonce.
    {
      name: 'exchange-dpop',
      gatehouse: {
        pid: gh.pid!,
        prepare: async () => {
          const asked = await fetch(tokenUrl, { method: 'POST', headers: { ...form, dpop: dpop.proof('POST', tokenUrl) }, body: new URLSearchParams({ grant_type: 'authorization_code', code: 'gac_nonce-please', redirect_uri: seeded.redirectUri, ...ghClient }) });
          nonce = asked.headers.get('dpop-nonce') ?? '';
          if (nonce === '') throw new Error(`the token endpoint gave no DPoP-Nonce: ${asked.status}`);
        },
        options: () => ({
          url: tokenUrl,
          method: 'POST',
          headers: form,
          requests: [
            {
              setupRequest: (req) => ({
                ...req,
                headers: { ...req.headers, dpop: dpop.proof('POST', tokenUrl, { nonce }) },
                body: new URLSearchParams({ grant_type: 'authorization_code', code: seeded.codes[used.ghCodes++ % seeded.codes.length]!, redirect_uri: seeded.redirectUri, ...ghClient }).toString(),
              }),
            },
          ],
        }),
      },
    },
    {
      name: 'me-dpop',
      gatehouse: {
        pid: gh.pid!,
        options: () => ({
          url: `${ghUrl}/v2/me`,
          requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, authorization: `DPoP ${seeded.dpopAccessToken}`, dpop: dpop.proof('GET', `${ghUrl}/v2/me`, { accessToken: seeded.dpopAccessToken }) } }) }],
        }),
      },
    },
    // A guarded team route: token + scope + membership in one query, then the route's own.
    { name: 'team', gatehouse: { pid: gh.pid!, options: () => ({ url: `${ghUrl}/v2/teams/${seeded.teamId}/event-types`, headers: { authorization: `Bearer ${seeded.teamAccessToken}` } }) } },
    // docs/integrating.md#slots: a month of a round-robin team's slots, 10 hosts holding 1,000 bookings (issue 37 item 6).
    {
      name: 'slots-rr10',
      gatehouse: { pid: gh.pid!, options: () => ({ url: `${ghUrl}/v2/slots?eventTypeId=${seeded.roundRobinEventTypeId}&start=${slotsMonth.start}&end=${slotsMonth.end}&timeZone=UTC`, headers: { 'cal-api-version': '2024-09-04' } }) },
    },
  ];
  if (postgresUrl !== undefined) {
    process.stdout.write(`seeding ${supply} codes and refresh tokens in PostgreSQL…\n`);
    const handle = openDatabase(postgresUrl, { schema: pgSchema });
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${pgSchema}`);
    await admin.end();
    pgCreated = true;
    await migrateToLatest(handle);
    const pgSeeded = await seed(handle, { codes: supply, refreshTokens: supply });
    await handle.close();
    const url = `${postgresUrl}${postgresUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${pgSchema}`)}`;
    const { child, base } = await startGatehouse(url);
    const pgClient = { client_id: pgSeeded.clientId, client_secret: pgSeeded.secret };
    let codes = 0;
    let refreshes = 0;
    scenarios.push(
      { name: 'exchange-pg', gatehouse: { pid: child.pid!, options: () => post(`${base}/v2/auth/oauth2/token`, () => ({ grant_type: 'authorization_code', code: pgSeeded.codes[codes++ % pgSeeded.codes.length]!, redirect_uri: pgSeeded.redirectUri, ...pgClient })) } },
      { name: 'refresh-pg', gatehouse: { pid: child.pid!, options: () => post(`${base}/v2/auth/oauth2/token`, () => ({ grant_type: 'refresh_token', refresh_token: pgSeeded.refreshTokens[refreshes++ % pgSeeded.refreshTokens.length]!, ...pgClient })) } },
    );
  }
  const wanted = scenarios.filter((s) => only === undefined || only.includes(s.name));

  const samples = new Map<string, Sample[]>();
  const record = (key: string, sample: Sample) => samples.set(key, [...(samples.get(key) ?? []), sample]);
  for (let round = 1; round <= rounds; round++) {
    process.stdout.write(`round ${round}/${rounds}…\n`);
    record('bare', await measure(bare.pid!, { url: `http://127.0.0.1:${barePort}/bare` }));
    for (const scenario of wanted) {
      await scenario.gatehouse.prepare?.();
      record(`${scenario.name}/gatehouse`, await measure(scenario.gatehouse.pid, scenario.gatehouse.options(), scenario.gatehouse.status));
      for (const kind of peerKinds) {
        const target = scenario.peers?.[kind];
        if (target) record(`${scenario.name}/${kind}`, await measure(target.pid, target.options(), target.status));
      }
    }
  }
  if (used.ghCodes > supply || used.ghRefresh > supply || peers.some((p) => p.used.codes > supply || p.used.refresh > supply)) {
    process.stdout.write('note: the run used more codes or refresh tokens than were seeded; raise BENCH_SUPPLY\n');
  }

  const summary = (key: string) => {
    const list = samples.get(key)!;
    return {
      rps: median(list.map((s) => s.rps)),
      p50: median(list.map((s) => s.p50)),
      p99: median(list.map((s) => s.p99)),
      cpuUs: median(list.map((s) => s.cpuUs)),
      unexpected: list.reduce((n, s) => n + s.unexpected, 0),
    };
  };
  const bareRow = summary('bare');
  const pct = (x: number) => `${((x / bareRow.rps) * 100).toFixed(0)}%`;
  process.stdout.write(`\n${connections} connections, ${seconds} s per scenario and server, ${rounds} alternating rounds (medians), loopback\n\n`);
  const cols = ['scenario', 'server', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'GH/mem', 'GH/durable', 'vs bare', 'failed'];
  const widths = [13, 13, 8, 7, 7, 11, 8, 10, 8, 8];
  const line = (cells: string[]) => process.stdout.write(`${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' ')}\n`);
  line(cols);
  const row = (name: string, server: string, s: ReturnType<typeof summary>, ratios: [string, string]) =>
    line([name, server, s.rps.toFixed(0), s.p50.toFixed(1), s.p99.toFixed(1), s.cpuUs.toFixed(0), ...ratios, pct(s.rps), String(s.unexpected)]);
  row('bare', 'Fastify', bareRow, ['', '']);
  for (const scenario of wanted) {
    const g = summary(`${scenario.name}/gatehouse`);
    const p = scenario.peers ? peerKinds.map((kind) => summary(`${scenario.name}/${kind}`)) : undefined;
    const ratio = (peer: ReturnType<typeof summary> | undefined) => (peer ? `${((g.rps / peer.rps) * 100).toFixed(0)}%` : '');
    row(scenario.name, 'Gatehouse', g, [ratio(p?.[0]), ratio(p?.[1])]);
    p?.forEach((s, i) => row('', `peer (${peerKinds[i]})`, s, ['', '']));
  }
} finally {
  await Promise.all(
    children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : (child.once('exit', resolve), child.kill('SIGTERM'))))),
  );
  rmSync(dir, { recursive: true, force: true });
  if (pgCreated) {
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`DROP SCHEMA ${pgSchema} CASCADE`);
    await admin.end();
  }
}
