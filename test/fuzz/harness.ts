// The fuzz suites' shared parts: the case budget and seed, request
// arbitraries (bodies in every encoding a caller can send), a raw sender over real HTTP, and
// the property every answer must hold — no 5xx, no stack trace, no secret, and no database
// change when the request was refused.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { everyRow, tablesOf } from '../helpers/rows.ts';
import { expect } from 'vitest';
import type { TestServer } from '../helpers/server.ts';

/**
 * Cases in the whole fuzz set, both backends together: 2,000 in `npm test` (about a minute
 * of CI on two cores), FUZZ_RUNS=100000 in `npm run fuzz`. Each property takes its share
 * (runsFor).
 */
export const FUZZ_TOTAL = Number(process.env.FUZZ_RUNS ?? 2000);

/** One seed per run, printed at start so a failure of any suite can be replayed with FUZZ_SEED. */
export const FUZZ_SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : (Date.now() ^ Math.floor(Math.random() * 0x7fffffff)) | 0;

const printed = new Set<string>();
export function announce(suite: string): void {
  if (printed.has(suite)) return;
  printed.add(suite);
  console.log(`fuzz ${suite}: seed ${FUZZ_SEED} (replay with FUZZ_SEED=${FUZZ_SEED}), ${FUZZ_TOTAL} cases in the whole fuzz set`);
}

/**
 * The share of each property in the fuzz set, per backend. They sum to 1 over both
 * backends (hence the halving), so FUZZ_RUNS is the number of cases of a full run.
 */
const SHARES = {
  token: 14,
  revocation: 6,
  introspection: 6,
  par: 6,
  authorizeGet: 10,
  consent: 8,
  // Each case with a known email costs an argon2 verification: few cases, so CI stays short.
  login: 2,
  webForms: 14,
  api: 40,
} as const;
const SHARE_SUM = Object.values(SHARES).reduce((a, b) => a + b, 0);

export function runsFor(property: keyof typeof SHARES): number {
  return Math.max(1, Math.round((FUZZ_TOTAL * SHARES[property]) / SHARE_SUM / 2));
}

/**
 * A test's time limit for `runs` cases: generous, since a full fuzz run is long by design
 * and a login case costs an argon2 check; half a second a case holds on a loaded machine.
 */
export function timeoutFor(runs: number): number {
  return 60_000 + runs * 500;
}

/** fast-check's settings for a property: the run's seed, and its report (seed and path) on failure. */
export function settings(numRuns: number): fc.Parameters<unknown> {
  return { numRuns, seed: FUZZ_SEED, verbose: 0 };
}

// ---------------------------------------------------------------------------------------
// Values and bodies

/** Strings a parser or validator may trip on. */
const nastyString = fc.constantFrom(
  '',
  ' ',
  '%',
  '%zz',
  '%00',
  '\u0000',
  '\uffff',
  '\ud800',
  '😀',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  '1e309',
  'NaN',
  '__proto__',
  'constructor',
  'toString',
  '[object Object]',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  'https://evil.example.net/',
  'javascript:alert(1)',
  'a'.repeat(256),
  '2026-02-30T25:61:00Z',
  'Europe/Nowhere',
);

/** A very long value: past a column's size, near or past the body limit. */
const hugeString = fc.tuple(fc.constantFrom('a', 'é', '😀', '%41', '&', '0'), fc.integer({ min: 1_000, max: 80_000 })).map(([s, n]) => s.repeat(n));

export const fuzzString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 3, arbitrary: nastyString },
  { weight: 1, arbitrary: hugeString },
);

/** JSON values of any shape: where a string is expected, an object, an array, a number… */
export const fuzzJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fuzzString },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, 0, -1, 1e308, Number.MAX_SAFE_INTEGER + 2) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 1, arbitrary: fc.array(fuzzString, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.oneof(fuzzString, fc.constantFrom('__proto__', 'constructor')), fuzzString, { maxKeys: 3 }) },
);

/** A request body as bytes, with the Content-Type it is sent under (or none). */
export interface RawBody {
  contentType: string | undefined;
  body: Buffer;
  /** How it was made, for the failure report. */
  kind: string;
}

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

/** Content types a client might send, right, wrong and broken. */
export const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(FORM, JSON_TYPE) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      undefined,
      '',
      'text/plain',
      'text/html',
      'application/xml',
      'application/octet-stream',
      'multipart/form-data; boundary=xyz',
      'multipart/form-data',
      `${FORM}; charset=utf-8`,
      `${FORM}; charset=iso-8859-1`,
      `${FORM}; charset=utf-16`,
      `${JSON_TYPE}; charset=utf-8`,
      `${JSON_TYPE}; charset=latin1`,
      'application/json-patch+json',
      'application/merge-patch+json',
      'APPLICATION/JSON',
      'application/x-www-form-urlencoded, application/json',
      'application/*',
      ';;;',
      'x/y; a="b',
    ),
  },
  { weight: 1, arbitrary: fc.stringMatching(/^[\x21-\x7e]{1,40}$/) },
);

/** Percent-encodes any text; a lone surrogate (which has no UTF-8) as the bytes a broken client would send. */
export function encodeText(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return `%ED%A0%80${encodeURIComponent(text.replace(/[\ud800-\udfff]/g, ''))}`;
  }
}

/** A form body from key/value pairs: keys repeat, values are anything. */
export function formBody(keys: readonly string[]): fc.Arbitrary<string> {
  const key = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...keys) }, { weight: 1, arbitrary: fuzzString });
  const pairs = fc.array(fc.tuple(key, fuzzString), { maxLength: 8 });
  return fc.oneof(
    { weight: 4, arbitrary: pairs.map((p) => new URLSearchParams(p).toString()) },
    // Not percent-encoded at all: stray %, &, = and raw bytes reach the parser as they are.
    { weight: 1, arbitrary: pairs.map((p) => p.map(([k, v]) => `${k}=${v}`).join('&')) },
    // Keys with brackets, as PHP-style nested forms write them.
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...keys), fuzzString).map(([k, v]) => `${k}[]=${encodeText(v)}&${k}[a]=1`) },
  );
}

/** A JSON body whose known keys carry values of any type, with unknown keys among them. */
export function jsonBody(keys: readonly string[], valid: Record<string, unknown> = {}): fc.Arbitrary<string> {
  const key = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...keys) }, { weight: 1, arbitrary: fuzzString });
  const object = fc.tuple(fc.dictionary(key, fuzzJson, { maxKeys: 6 }), fc.boolean()).map(([o, keepValid]) => (keepValid ? { ...valid, ...o } : o));
  return fc.oneof(
    { weight: 5, arbitrary: object.map((o) => JSON.stringify(o)) },
    { weight: 1, arbitrary: fuzzJson.map((v) => JSON.stringify(v) ?? 'null') },
    // The same key twice, which JSON.parse would quietly merge.
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...keys), fuzzString, fuzzString).map(([k, a, b]) => `{${JSON.stringify(k)}:${JSON.stringify(a)},${JSON.stringify(k)}:${JSON.stringify(b)}}`) },
    // Truncated or otherwise broken JSON.
    { weight: 1, arbitrary: object.map((o) => JSON.stringify(o)).chain((s) => fc.nat({ max: Math.max(0, s.length - 1) }).map((n) => s.slice(0, n))) },
    // Deep nesting.
    { weight: 1, arbitrary: fc.integer({ min: 100, max: 5_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)) },
  );
}

/** Any body: form or JSON text under a matching or mismatching type, or bytes that are not UTF-8. */
export function rawBody(keys: readonly string[], valid: Record<string, unknown> = {}): fc.Arbitrary<RawBody> {
  const text = fc.oneof(formBody(keys).map((b) => ['form', b] as const), jsonBody(keys, valid).map((b) => ['json', b] as const));
  const matching = text.map(([kind, b]): RawBody => ({ kind, contentType: kind === 'form' ? FORM : JSON_TYPE, body: Buffer.from(b) }));
  const any = fc.tuple(text, contentType).map(([[kind, b], type]): RawBody => ({ kind: `${kind} as ${type}`, contentType: type, body: Buffer.from(b) }));
  const bytes = fc.tuple(fc.uint8Array({ maxLength: 200 }), fc.constantFrom(FORM, JSON_TYPE, undefined)).map(
    ([b, type]): RawBody => ({ kind: 'bytes', contentType: type, body: Buffer.from(b) }),
  );
  // Valid text with a byte sequence that is not UTF-8 inside a value.
  const invalidUtf8 = fc.tuple(fc.constantFrom(...keys), fc.constantFrom([0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]), fc.constantFrom(FORM, JSON_TYPE)).map(
    ([k, seq, type]): RawBody => {
      const bad = Buffer.from(seq);
      const body = type === FORM ? Buffer.concat([Buffer.from(`${k}=a`), bad, Buffer.from('b')]) : Buffer.concat([Buffer.from(`{"${k}":"a`), bad, Buffer.from('b"}')]);
      return { kind: 'invalid utf-8', contentType: type, body };
    },
  );
  return fc.oneof({ weight: 6, arbitrary: matching }, { weight: 2, arbitrary: any }, { weight: 1, arbitrary: bytes }, { weight: 1, arbitrary: invalidUtf8 });
}

/** An Authorization header: none, Basic of anything, broken Basic, or a Bearer of anything. */
export function authorization(valid: Array<[string, string]> = []): fc.Arbitrary<string | undefined> {
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
  const options: Array<fc.Arbitrary<string | undefined>> = [
    fc.constant(undefined),
    fc.tuple(fc.string({ maxLength: 30 }), fc.string({ maxLength: 30 })).map(([a, b]) => basic(a, b)),
    fc.constantFrom('Basic', 'Basic ', 'Basic !!!', 'Basic Og==', 'Basic JQ==', 'Basic JXp6OiV6eg==', 'Bearer', 'Bearer x', 'Digest a=b', 'basic Zm9vOmJhcg=='),
    fc.stringMatching(/^[\x20-\x7e]{0,60}$/),
  ];
  if (valid.length > 0) options.push(fc.constantFrom(...valid).map(([id, secret]) => basic(encodeURIComponent(id), encodeURIComponent(secret))));
  return fc.oneof(...options);
}

// ---------------------------------------------------------------------------------------
// Sending and checking

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string | undefined>;
  body?: RawBody;
}

/** Sends exactly these bytes over real HTTP; no redirect is followed. */
export async function send(server: TestServer, req: RawRequest): Promise<Answer> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers ?? {})) if (v !== undefined) headers[k] = v;
  if (req.body?.contentType !== undefined) headers['content-type'] = req.body.contentType;
  const res = await fetch(server.url + req.path, {
    method: req.method,
    headers,
    redirect: 'manual',
    ...(req.body !== undefined ? { body: new Uint8Array(req.body.body) } : {}),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/**
 * A line of a stack trace ("    at fn (file:1:2)"); a path of a source file, a position in
 * one, or the test database's file. The pages' own assets (/assets/copy.js) are not these.
 */
const STACK_FRAME = /^\s*at (?:async )?(?:\S+ \(|\/|file:|node:)/m;
const SOURCE_PATH = /file:\/\/|\/node_modules\/|\/(?:src|test|lib|dist)\/[\w./-]+\.(?:ts|js|mjs|cjs)\b|\.(?:ts|js|mjs|cjs):\d+:\d+|gatehouse-test-/;

/**
 * The property of every answer: no server error, no stack trace or file path, no secret
 * (the suite's known secrets and any password hash).
 */
export function expectSafeAnswer(answer: Answer, secrets: readonly string[], what: string): void {
  expect(answer.status, `${what} answered ${answer.status}: ${answer.text.slice(0, 300)}`).toBeLessThan(500);
  const headerText = [...answer.headers].map(([k, v]) => `${k}: ${v}`).join('\n');
  const all = `${headerText}\n${answer.text}`;
  expect(STACK_FRAME.exec(all)?.[0], `${what}: a stack frame in the answer`).toBeUndefined();
  expect(SOURCE_PATH.exec(all)?.[0], `${what}: a source path in the answer`).toBeUndefined();
  expect(all.includes(process.cwd()), `${what}: the working directory in the answer`).toBe(false);
  expect(/\$argon2/.test(all), `${what}: a password hash in the answer`).toBe(false);
  for (const secret of secrets) expect(all.includes(secret), `${what}: a secret in the answer`).toBe(false);
}

/** Answers per path pattern and status, printed at the end of a suite: shows what the cases reached. */
const statuses = new Map<string, number>();
function countStatus(path: string, status: number): void {
  const key = `${path.split('?')[0]!.replace(/\/[^/]{16,}/g, '/:id').slice(0, 80)} ${status}`;
  statuses.set(key, (statuses.get(key) ?? 0) + 1);
}
export function printStatuses(suite: string): void {
  if (statuses.size === 0) return;
  const lines = [...statuses].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `  ${k}: ${n}`);
  console.log(`fuzz ${suite}: answers by path and status\n${lines.join('\n')}`);
  statuses.clear();
}

// ---------------------------------------------------------------------------------------
// The database, before and after

/**
 * Audit events a refused request writes by design: a failed login is recorded
 * (docs/rules.md#audit-events). A replayed code or refresh token is refused AND revokes the grant (RFC 6749
 * §4.1.2, RFC 9700 §4.14.2): the whole change is by design, so such a case is not compared.
 */
const REFUSAL_AUDIT = new Set(['login.failed']);
const REVOKING_REFUSAL_AUDIT = new Set(['code.replayed', 'refresh_token.reused']);

/**
 * Row changes a refused request makes by design. A code presented to the token endpoint is
 * spent even when its redemption fails (a wrong redirect_uri or PKCE verifier): single use
 * means one try, so a stolen code cannot be retried with guessed verifiers
 * (src/oauth/grants/authorization-code.ts). A client that authenticated with its secret
 * and was then refused (a revoked refresh token, a missing parameter) did use that secret:
 * its last-used time moves on, so the developer sees which secret the application still
 * sends (docs/rules.md#client-secrets).
 */
type Row = Record<string, unknown>;
/** Every changed row differs from its former self in `column` only, and that column was `moved` on. */
function onlyColumnMoved(key: string, column: string, moved: (was: unknown, now: unknown) => boolean) {
  return (gone: Row[], came: Row[]) =>
    gone.length === came.length &&
    came.every((row) => {
      const was = gone.find((g) => g[key] === row[key]);
      return was !== undefined && moved(was[column], row[column]) && JSON.stringify({ ...was, [column]: null }) === JSON.stringify({ ...row, [column]: null });
    });
}

const REFUSAL_CHANGES: Record<string, (gone: Row[], came: Row[]) => boolean> = {
  client_secrets: onlyColumnMoved('id', 'last_used_at', (was, now) => typeof now === 'number' && (was === null || (typeof was === 'number' && now > was))),
  authorization_codes: onlyColumnMoved('code_hash', 'consumed_at', (was, now) => was === null && now !== null),
};

export type Snapshot = Map<string, string[]>;

const tableLists = new WeakMap<TestServer, Promise<string[]>>();

const backendOf = (server: TestServer) => (server.database.url.startsWith('sqlite:') ? 'sqlite' : 'postgres');

/** Every row of every table, as sorted JSON lines per table. */
export async function snapshot(server: TestServer): Promise<Snapshot> {
  let tables = tableLists.get(server);
  if (tables === undefined) tableLists.set(server, (tables = tablesOf(server.db, backendOf(server))));
  const names = await tables;
  const rows = await everyRow(server.db, backendOf(server), names);
  return new Map(names.map((t, i) => [t, rows[i]!.map((r) => JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).sort()]));
}

const digest = (lines: string[]) => createHash('sha256').update(lines.join('\n')).digest('hex');

/**
 * A refused request (4xx) left the database as it was: same rows in every table, except
 * the audit events a refusal writes by design.
 */
export function expectUnchangedByRefusal(before: Snapshot, after: Snapshot, answer: Answer, what: string): void {
  if (answer.status < 400 || answer.status >= 500) return;
  const beforeAudit = new Set(before.get('audit_events') ?? []);
  const added = (after.get('audit_events') ?? []).filter((r) => !beforeAudit.has(r)).map((r) => JSON.parse(r) as { type: string });
  if (added.some((e) => REVOKING_REFUSAL_AUDIT.has(e.type))) return;
  const unexpected = added.filter((e) => !REFUSAL_AUDIT.has(e.type)).map((e) => e.type);
  expect(unexpected, `${what} was refused (${answer.status}) but wrote audit events`).toEqual([]);
  const removedAudit = (before.get('audit_events') ?? []).length + added.length - (after.get('audit_events') ?? []).length;
  expect(removedAudit, `${what} was refused (${answer.status}) but removed audit events`).toBe(0);
  for (const [table, rows] of before) {
    if (table === 'audit_events') continue;
    const now = after.get(table) ?? [];
    if (digest(rows) === digest(now)) continue;
    const gone = rows.filter((r) => !now.includes(r));
    const came = now.filter((r) => !rows.includes(r));
    if (REFUSAL_CHANGES[table]?.(gone.map((r) => JSON.parse(r)), came.map((r) => JSON.parse(r)))) continue;
    expect.fail(`${what} was refused (${answer.status}: ${answer.text.slice(0, 200)}) but changed ${table}: removed ${JSON.stringify(gone)}, added ${JSON.stringify(came)}`);
  }
}

/** Runs one case: snapshot, request, answer checks, and the comparison when refused. */
export async function checkCase(server: TestServer, req: RawRequest, secrets: readonly string[], previous?: Snapshot): Promise<{ answer: Answer; after: Snapshot }> {
  const before = previous ?? (await snapshot(server));
  const answer = await send(server, req);
  countStatus(req.path, answer.status);
  const what = `${req.method} ${req.path.slice(0, 120)} [${req.body?.kind ?? 'no body'}]`;
  expectSafeAnswer(answer, secrets, what);
  const after = await snapshot(server);
  expectUnchangedByRefusal(before, after, answer, what);
  return { answer, after };
}
