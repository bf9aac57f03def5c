// Fuzzing every write route of the /v2 API: each case builds the route's
// valid example (test/platform/route-examples.ts) and changes it — a field of another type, a
// nested object or array where a string belongs, a dropped or unknown key, a whole other
// body, another encoding or Content-Type, a path id of any text, another token — and sends
// it. Never a 5xx, a stack trace or a secret; a refusal changes nothing.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { apiRoutes, pathParams, type ApiRoute } from '../../src/platform/route-table.ts';
import { backends } from '../helpers/backends.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { ALL_SCOPES, buildWorld, fixtures, mint, type World } from '../platform/fixtures.ts';
import { examples } from '../platform/route-examples.ts';
import { announce, checkCase, encodeText, fuzzJson, fuzzString, printStatuses, rawBody, runsFor, settings, timeoutFor, type RawBody } from './harness.ts';

const WRITES: ApiRoute[] = apiRoutes.filter((r) => r.method !== 'GET');

type Mutation =
  | { op: 'none' }
  | { op: 'set'; key: string | null; value: unknown }
  | { op: 'drop'; index: number }
  | { op: 'nest'; index: number; wrap: 'array' | 'object' }
  | { op: 'replace'; value: unknown }
  | { op: 'raw'; raw: RawBody }
  | { op: 'repeat'; index: number; value: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ op: 'none' as const }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('set' as const), key: fc.option(fuzzString.map((s) => s.slice(0, 50)), { freq: 2 }), value: fuzzJson }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('drop' as const), index: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('nest' as const), index: fc.nat(), wrap: fc.constantFrom<'array' | 'object'>('array', 'object') }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('replace' as const), value: fuzzJson }) },
  { weight: 2, arbitrary: rawBody(['name', 'title', 'email', 'start', 'id', 'role', 'userId']).map((raw) => ({ op: 'raw' as const, raw })) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('repeat' as const), index: fc.nat(), value: fuzzJson }) },
);

type TokenKind = 'owner' | 'none' | 'garbage' | 'outsider' | 'no scopes';

/** JSON text of an object whose entries may repeat a key (JSON.stringify cannot write that). */
function objectText(entries: Array<[string, unknown]>): string {
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'}`).join(',')}}`;
}

/** The example body changed by `m`, as the bytes and Content-Type it is sent with. */
function mutate(body: unknown, m: Mutation): RawBody | undefined {
  const json = (text: string, kind: string): RawBody => ({ kind, contentType: 'application/json', body: Buffer.from(text) });
  const entries: Array<[string, unknown]> = body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.entries(body) : [];
  const at = (index: number) => (entries.length === 0 ? -1 : index % entries.length);
  switch (m.op) {
    case 'none':
      return body === undefined ? undefined : json(JSON.stringify(body), 'example');
    case 'set': {
      const key = m.key ?? entries[at(0)]?.[0] ?? 'name';
      const next = entries.filter(([k]) => k !== key);
      next.push([key, m.value]);
      return json(objectText(next), `example with ${key.slice(0, 30)} set`);
    }
    case 'drop': {
      const i = at(m.index);
      return json(objectText(entries.filter((_e, j) => j !== i)), `example without ${entries[i]?.[0] ?? 'nothing'}`);
    }
    case 'nest': {
      const i = at(m.index);
      const next = entries.map(([k, v], j): [string, unknown] => [k, j === i ? (m.wrap === 'array' ? [v] : { value: v }) : v]);
      return json(objectText(next), `example with ${entries[i]?.[0] ?? 'nothing'} in an ${m.wrap}`);
    }
    case 'replace':
      return json(JSON.stringify(m.value) ?? 'null', 'another body');
    case 'raw':
      return m.raw;
    case 'repeat': {
      const i = at(m.index);
      const key = entries[i]?.[0] ?? 'name';
      return json(objectText([...entries, [key, m.value]]), `example with ${key.slice(0, 30)} twice`);
    }
  }
}

describe.each(backends)('fuzzing the API write routes on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;
  let tokens: Record<Exclude<TokenKind, 'none' | 'garbage'>, string>;
  let secrets: string[];

  beforeAll(async () => {
    if (!available) return;
    announce('API write routes');
    server = await startTestServer(name, { LOG_LEVEL: 'warn' });
    w = await buildWorld(server);
    f = fixtures(server);
    tokens = {
      owner: await mint(server, w, w.owner, ALL_SCOPES),
      outsider: await mint(server, w, w.outsider, ALL_SCOPES),
      'no scopes': await mint(server, w, w.owner, ['PROFILE_READ']),
    };
    secrets = [...Object.values(tokens), w.client.secret!, w.legacyClient.secret!];
  });
  afterAll(async () => {
    printStatuses(`API write routes on ${name}`);
    await server?.close();
  });

  it.skipIf(!available)(`every write route (${WRITES.length}): any body, encoding, path id and token`, { timeout: timeoutFor(runsFor('api')) }, async () => {
    const cases = fc.record({
      route: fc.constantFrom(...WRITES),
      mutation,
      token: fc.constantFrom<TokenKind>('owner', 'owner', 'owner', 'owner', 'none', 'garbage', 'outsider', 'no scopes'),
      // Which path parameter to replace, and with what.
      pathId: fc.option(fc.tuple(fc.nat(), fuzzString.map((s) => s.slice(0, 250) || 'x')), { freq: 4 }),
    });
    await fc.assert(
      fc.asyncProperty(cases, async ({ route, mutation: m, token, pathId }) => {
        const example = await examples[route.handler]!({ server, w, f, actor: w.owner, teamId: w.team.id, orgId: w.org.id });
        const params: Record<string, string> = { teamId: w.team.id, orgId: w.org.id, ...example.params };
        const names = pathParams(route.path);
        if (pathId && names.length > 0) params[names[pathId[0] % names.length]!] = pathId[1];
        const query = example.query ? `?${new URLSearchParams(example.query)}` : '';
        const body = mutate(example.body, m);
        const auth = token === 'none' ? undefined : token === 'garbage' ? 'Bearer gat_not-a-token' : `Bearer ${tokens[token]}`;
        const caseSecrets = [...secrets];
        const manage = (example.body as { manageToken?: unknown } | undefined)?.manageToken;
        if (typeof manage === 'string') caseSecrets.push(manage);
        await checkCase(server, { method: route.method, path: route.path.replace(/:([A-Za-z]+)/g, (_m, p: string) => encodeText(params[p]!)) + query, headers: { authorization: auth }, body }, caseSecrets);
      }),
      settings(runsFor('api')),
    );
  });
});
