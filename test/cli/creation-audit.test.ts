// Issue 34 item 7b: making a platform admin, an organization or a team from the command line
// left no audit event. Each is now in the audit log under "CLI (operator)", written with the
// change (docs/rules.md#audit-events), as `gatehouse audit` shows it. Commands only: each
// database of its own, no server.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';
import { runCli, type CliResult } from '../helpers/cli.ts';

function json<T>(result: CliResult): T {
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
}

interface Event {
  type: string;
  user_email: string | null;
  actor_id: string | null;
  actor: string | null;
  client_id: string | null;
  data: Record<string, unknown> | null;
}

describe.each(backends)('what the operator creates is audited ($name)', { timeout: 120_000 }, ({ name, available }) => {
  let database: TestDatabase;
  beforeAll(async () => {
    if (!available) return;
    database = await createTestDatabase(name);
  });
  afterAll(async () => database?.drop());

  const gh = (args: string[]) => runCli(args, { env: { ...database.env, DATABASE_URL: database.url } });
  const eventsAbout = async (email: string) => json<Event[]>(await gh(['audit', '--user', email, '--json']));
  const address = () => `op-${randomBytes(4).toString('hex')}@example.com`;

  it.skipIf(!available)('users create --admin: user.created with admin true, by the CLI; set-admin: user.admin_changed', async () => {
    const email = address();
    const created = json<{ id: string; admin: boolean }>(await gh(['users', 'create', '--email', email, '--name', 'New Admin', '--password', 'a long enough password', '--admin', '--json']));
    expect(created.admin).toBe(true);
    expect(await eventsAbout(email)).toEqual([
      { id: expect.any(Number), type: 'user.created', created_at: expect.any(String), client_id: null, user_id: created.id, user_email: email, actor_id: 'cli:operator', actor: 'CLI (operator)', data: { admin: true } },
    ]);

    const plain = address();
    json(await gh(['users', 'create', '--email', plain, '--name', 'Plain User', '--password', 'a long enough password', '--json']));
    json(await gh(['users', 'set-admin', plain, '--json']));
    const events = await eventsAbout(plain);
    expect(events.map((e) => [e.type, e.actor, e.data])).toEqual([
      ['user.admin_changed', 'CLI (operator)', { admin: true }],
      ['user.created', 'CLI (operator)', { admin: false }],
    ]);
  });

  it.skipIf(!available)('orgs create: organization.created about its owner; teams create: team.created, inside the organization or alone', async () => {
    const owner = { email: address() };
    json(await gh(['users', 'create', '--email', owner.email, '--name', 'Org Owner', '--password', 'a long enough password', '--json']));
    const org = json<{ id: string }>(await gh(['orgs', 'create', '--name', 'Audited Org', '--owner', owner.email, '--json']));
    const inOrg = json<{ id: string }>(await gh(['teams', 'create', '--name', 'Audited Team', '--owner', owner.email, '--org', org.id, '--json']));
    const alone = json<{ id: string }>(await gh(['teams', 'create', '--name', 'Lone Team', '--owner', owner.email, '--json']));

    const events = (await eventsAbout(owner.email)).filter((e) => e.type !== 'user.created');
    expect(events.map((e) => [e.type, e.user_email, e.actor_id, e.actor, e.client_id, e.data])).toEqual([
      ['team.created', owner.email, 'cli:operator', 'CLI (operator)', null, { team_id: alone.id, organization_id: null }],
      ['team.created', owner.email, 'cli:operator', 'CLI (operator)', null, { team_id: inOrg.id, organization_id: org.id }],
      ['organization.created', owner.email, 'cli:operator', 'CLI (operator)', null, { organization_id: org.id }],
    ]);
  });
});
