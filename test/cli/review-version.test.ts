// `gatehouse clients show|list|approve|reject` and the client's version (security issue
// item 2; docs/rules.md#cli, docs/rules.md#audit-events, docs/rules.md#client-changes, docs/rules.md#review-versions), run as a real child process over the database
// a real server uses: a decision names the version it was made on and a stale one is
// refused with one line; on an approved client, approve and reject act on its held change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireClient } from '../../src/services/clients/view.ts';
import { CLI_OPERATOR } from '../../src/services/actors.ts';
import { backends } from '../helpers/backends.ts';
import { expectOneLineRefusal, runCli, type CliResult } from '../helpers/cli.ts';
import { visibleText } from '../helpers/pages.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';

const A = 'https://app.example.com/callback';
const B = 'https://second.example.com/callback';
const EVIL = 'https://evil.example/steal';
/** Issue 24, item 3: the refusal names the version given and the current one. */
const stale = (clientId: string, given: number, current: number) =>
  new RegExp(`^gatehouse: version ${given} is not the current version of client ${clientId}, which is ${current}: the client changed since you opened it, review it again \\(\`gatehouse clients show ${clientId}\` prints what it is now\\)$`);

function ok(result: CliResult): string {
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toBe('');
  return result.stdout;
}

describe.each(backends)('client versions in the gatehouse CLI on $name', { timeout: 120_000 }, ({ name, available }) => {
  let server: TestServer;
  let dev: TestUser;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer(name);
    dev = await server.user();
  });
  afterAll(async () => server?.close());

  const gh = (args: string[]) => runCli(args, { env: { DATABASE_URL: server.database.url, ...server.database.env } });
  const version = async (client: TestClient) => (await requireClient(server.services, client.clientId)).version;

  async function snapshot(client: TestClient) {
    const row = (await server.services.stores.clients.find(client.clientId))!;
    return { row, events: (await server.services.stores.auditLog.list({ clientId: client.clientId })).length };
  }

  function authorize(client: TestClient, redirectUri: string) {
    const query = new URLSearchParams({ client_id: client.clientId, redirect_uri: redirectUri, response_type: 'code', scope: 'PROFILE_READ' });
    return server.browser().get(`/auth/oauth2/authorize?${query}`);
  }

  it.skipIf(!available)('clients show prints the version and the held change in text and --json; clients list mentions the held change (docs/rules.md#client-changes, docs/rules.md#review-versions)', async () => {
    const client = await server.client(dev, { redirectUris: [A], scopes: ['PROFILE_READ'], name: 'Held App' });
    const before = await version(client);
    ok(await gh(['clients', 'update', client.clientId, '--redirect-uri', A, '--redirect-uri', B, '--scope', 'PROFILE_READ', '--scope', 'BOOKING_READ']));
    const now = await version(client);
    expect(now).toBeGreaterThan(before);

    const text = ok(await gh(['clients', 'show', client.clientId]));
    expect(text).toMatch(new RegExp(`^version: +${now}$`, 'm'));
    expect(text).toMatch(/^redirect URIs: https:\/\/app\.example\.com\/callback$/m);
    expect(text).toContain(`held change:   adds redirect URIs ${B}; scopes BOOKING_READ (awaiting admin review)`);
    expect(text).toMatch(new RegExp(`^to decide: +gatehouse clients approve ${client.clientId} --version (\\d+) \\(accepts it\\); gatehouse clients reject ${client.clientId} --version \\1 --reason TEXT \\(refuses it\\)$`, 'm'));
    const shown = JSON.parse(ok(await gh(['clients', 'show', client.clientId, '--json'])));
    expect(shown).toMatchObject({ version: now, state: 'approved', redirect_uris: [A], scopes: ['PROFILE_READ'], proposed_redirect_uris: [B], proposed_scopes: ['BOOKING_READ'] });

    const list = ok(await gh(['clients', 'list']));
    expect(list).toMatch(new RegExp(`^${client.clientId} +approved +confidential +Held App +\\(change awaiting review\\)$`, 'm'));
    const listed = JSON.parse(ok(await gh(['clients', 'list', '--json']))) as Array<Record<string, unknown>>;
    expect(listed.find((c) => c.client_id === client.clientId)).toMatchObject({ change_awaiting_review: true });
  });

  it.skipIf(!available)('approve --version N is refused with one line when the client changed since N, and nothing changes; the current version decides (docs/rules.md#review-versions)', async () => {
    const client = await server.client(dev, { state: 'pending', redirectUris: [A], scopes: ['PROFILE_READ'] });
    const reviewed = JSON.parse(ok(await gh(['clients', 'show', client.clientId, '--json']))).version as number;
    // After the operator looked, the developer points the client elsewhere and asks for more.
    ok(await gh(['clients', 'update', client.clientId, '--redirect-uri', EVIL, '--scope', 'PROFILE_READ', '--scope', 'BOOKING_WRITE']));
    const before = await snapshot(client);

    const now = await version(client);
    expectOneLineRefusal(await gh(['clients', 'approve', client.clientId, '--version', String(reviewed)]), stale(client.clientId, reviewed, now));
    expectOneLineRefusal(await gh(['clients', 'reject', client.clientId, '--reason', 'no', '--version', String(reviewed)]), stale(client.clientId, reviewed, now));
    // A version the client never had (`--version 9` on a client at version 1): which one is current.
    const never = now + 8;
    for (const decision of [['approve'], ['reject', '--reason', 'no'], ['suspend']]) {
      expectOneLineRefusal(
        await gh(['clients', decision[0]!, client.clientId, ...decision.slice(1), '--version', String(never)]),
        new RegExp(`^gatehouse: version ${never} is not the current version of client ${client.clientId}, which is ${now} \\(\`gatehouse clients show ${client.clientId}\` prints what it is now\\)$`),
      );
    }
    expectOneLineRefusal(await gh(['clients', 'approve', client.clientId, '--version', 'latest']), /^gatehouse: --version must be a whole number from 1, as `gatehouse clients show` prints it$/);
    expect(await snapshot(client)).toEqual(before);
    expect(before.row.state).toBe('pending');

    const current = JSON.parse(ok(await gh(['clients', 'show', client.clientId, '--json']))).version as number;
    expect(current).toBeGreaterThan(reviewed);
    expect(JSON.parse(ok(await gh(['clients', 'reject', client.clientId, '--reason', 'evil.example is not yours', '--version', String(current), '--json'])))).toEqual({
      client_id: client.clientId,
      state: 'rejected',
      review_note: 'evil.example is not yours',
    });
  });

  it.skipIf(!available)('on an approved client with a held change, approve accepts it and reject --reason refuses it; the client stays approved and both are audited (docs/rules.md#audit-events, docs/rules.md#client-changes, docs/rules.md#review-versions)', async () => {
    const client = await server.client(dev, { redirectUris: [A], scopes: ['PROFILE_READ'] });
    ok(await gh(['clients', 'update', client.clientId, '--redirect-uri', A, '--redirect-uri', B, '--scope', 'PROFILE_READ', '--scope', 'BOOKING_READ']));
    const accepted = JSON.parse(ok(await gh(['clients', 'approve', client.clientId, '--version', String(await version(client)), '--json'])));
    expect(accepted).toMatchObject({
      client_id: client.clientId,
      state: 'approved',
      held_change: { decision: 'accepted', redirect_uris: [B], scopes: ['BOOKING_READ'] },
      redirect_uris: [A, B],
      scopes: ['BOOKING_READ', 'PROFILE_READ'],
    });
    expect(accepted.version).toBe(await version(client));
    // B is registered now: the authorization request goes on to the login page.
    const viaB = await authorize(client, B);
    expect(viaB.status).toBe(303);
    expect(viaB.location).toMatch(/^\/login\?/);
    let events = await server.services.stores.auditLog.list({ clientId: client.clientId });
    expect(events.find((e) => e.type === 'client.approved' && e.data?.changes !== undefined)?.data).toEqual({ changes: { redirectUris: [B], scopes: ['BOOKING_READ'] } });
    expect(events.find((e) => e.type === 'client.scopes_changed' && e.actorId === CLI_OPERATOR)?.data).toEqual({ from: 'PROFILE_READ', to: 'BOOKING_READ PROFILE_READ' });

    ok(await gh(['clients', 'update', client.clientId, '--redirect-uri', A, '--redirect-uri', B, '--redirect-uri', EVIL, '--scope', 'PROFILE_READ', '--scope', 'BOOKING_READ', '--scope', 'BOOKING_WRITE']));
    const before = await snapshot(client);
    expectOneLineRefusal(await gh(['clients', 'reject', client.clientId]), /^gatehouse: declining changes needs a reason for the developer$/);
    expect(await snapshot(client)).toEqual(before);

    const refused = ok(await gh(['clients', 'reject', client.clientId, '--reason', 'evil.example is not your domain']));
    expect(refused.trim()).toBe(
      `client ${client.clientId}: held change refused (${EVIL}, BOOKING_WRITE); it stays approved, live redirect URIs: ${A}, ${B}; live scopes: BOOKING_READ PROFILE_READ`,
    );
    expect(await requireClient(server.services, client.clientId)).toMatchObject({
      state: 'approved',
      redirectUris: [A, B],
      scopes: ['BOOKING_READ', 'PROFILE_READ'],
      proposedRedirectUris: [],
      proposedScopes: [],
      reviewNote: 'evil.example is not your domain',
    });
    const evil = await authorize(client, EVIL);
    expect(evil.status).toBe(400);
    expect(visibleText(evil.body)).toContain(`redirect_uri "${EVIL}" is not registered`);
    events = await server.services.stores.auditLog.list({ clientId: client.clientId });
    expect(events.find((e) => e.type === 'client.rejected')).toMatchObject({
      actorId: CLI_OPERATOR,
      data: { changes: { redirectUris: [EVIL], scopes: ['BOOKING_WRITE'] }, reason: 'evil.example is not your domain' },
    });

    // With nothing held any more, reject is about the client again, and an approved client cannot be rejected.
    expectOneLineRefusal(await gh(['clients', 'reject', client.clientId, '--reason', 'again']), /^gatehouse: cannot reject a client that is approved/);
  });
});
