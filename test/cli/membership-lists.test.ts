// gatehouse orgs list, teams list [--org], members list and members remove (docs/rules.md#cli): an operator who lost an id printed once finds it again, and removes a
// member as the API would, never the last owner; each --json, each refusal one line, each
// change in the audit log under the operator. On both databases, each over a database of its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/services/accounts/users.ts';
import { createServiceContext } from '../../src/storage/stores/index.ts';
import { testServiceOptions } from '../helpers/password-hashing.ts';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';
import { expectOneLineRefusal, runCli, type CliResult } from '../helpers/cli.ts';

function ok(result: CliResult): string {
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toBe('');
  return result.stdout;
}

describe.each(backends)('gatehouse lists and removes memberships on $name', { timeout: 120_000 }, ({ name, available }) => {
  let database: TestDatabase;
  const owner = 'list-owner@example.com';
  const helper = 'list-helper@example.com';
  const gatehouse = (...args: string[]) => runCli(args, { env: { ...database.env, DATABASE_URL: database.url } });
  const json = async (...args: string[]) => JSON.parse(ok(await gatehouse(...args, '--json')));

  beforeAll(async () => {
    if (!available) return;
    database = await createTestDatabase(name);
    const services = createServiceContext(database.handle.db, Date.now, testServiceOptions);
    await createUser(services, { email: owner, name: 'List Owner', password: 'owner-password' });
    await createUser(services, { email: helper, name: 'List Helper', password: 'helper-password' });
  });
  afterAll(async () => database?.drop());

  let acme: { id: string };
  let sales: { id: string };
  let solo: { id: string };

  it.skipIf(!available)('on an empty database each list says there is nothing yet and how to make one', async () => {
    expect(ok(await gatehouse('orgs', 'list'))).toBe('no organizations yet: `gatehouse orgs create --name NAME --owner EMAIL` makes one\n');
    expect(ok(await gatehouse('teams', 'list'))).toBe('no teams yet: `gatehouse teams create --name NAME --owner EMAIL` makes one\n');
    expect(await json('orgs', 'list')).toEqual([]);
    expect(await json('teams', 'list')).toEqual([]);
  });

  it.skipIf(!available)('orgs list and teams list [--org] find the ids that create printed once, with what each holds', async () => {
    acme = await json('orgs', 'create', '--name', 'Acme Corp', '--owner', owner);
    sales = await json('teams', 'create', '--name', 'Sales', '--owner', owner, '--org', acme.id);
    solo = await json('teams', 'create', '--name', 'Solo', '--owner', helper);
    ok(await gatehouse('members', 'add', '--team', sales.id, '--user', helper, '--role', 'member'));

    // Issue 40 item 5: the slug that `team_slug=` and the API's paths take is in the list itself.
    const [acmeRow] = await json('orgs', 'list');
    expect(ok(await gatehouse('orgs', 'list'))).toBe(`${acme.id}  Acme Corp  slug ${acmeRow.slug}  (1 member, 1 team)\n`);
    expect(await json('orgs', 'list')).toEqual([{ id: acme.id, name: 'Acme Corp', slug: expect.stringMatching(/^acme-corp-/), members: 1, teams: 1, created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }]);

    const slugs = Object.fromEntries((await json('teams', 'list')).map((t: { id: string; slug: string }) => [t.id, t.slug]));
    const salesLine = `${sales.id}  Sales  slug ${slugs[sales.id]}  (2 members; organization Acme Corp ${acme.id})`;
    expect(ok(await gatehouse('teams', 'list'))).toBe(`${salesLine}\n${solo.id}  Solo  slug ${slugs[solo.id]}  (1 member; no organization)\n`);
    expect(ok(await gatehouse('teams', 'list', '--org', acme.id))).toBe(`${salesLine}\n`);
    expect(await json('teams', 'list', '--org', acme.id)).toEqual([
      { id: sales.id, name: 'Sales', slug: expect.stringMatching(/^sales-/), organization_id: acme.id, organization_name: 'Acme Corp', members: 2, created_at: expect.any(String) },
    ]);
    // --limit 1 shows the first, and says there may be more.
    expect(ok(await gatehouse('teams', 'list', '--limit', '1'))).toBe(`${salesLine}\n(the first 1; --limit 10 shows more)\n`);
    // Organizations and teams share one series of ids: the organization's id given as a team says whose it is.
    expectOneLineRefusal(
      await gatehouse('members', 'list', '--team', acme.id),
      new RegExp(`^gatehouse: no team ${acme.id}: ${acme.id} is the organization Acme Corp \\(organizations and teams share one series of ids\\)$`),
    );
    const empty = await json('orgs', 'create', '--name', 'Empty Org', '--owner', owner);
    expect(ok(await gatehouse('teams', 'list', '--org', empty.id))).toBe(`organization ${empty.id} has no teams\n`);
  });

  it.skipIf(!available)('members list names each member of a team or an organization, with role and membership id', async () => {
    const text = ok(await gatehouse('members', 'list', '--team', sales.id));
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^list-owner@example\.com {3}owner {3}List Owner {2}\(membership \w+, since \d{4}-\d\d-\d\dT[\d:.]+Z\)$/);
    expect(lines[1]).toMatch(/^list-helper@example\.com {2}member {2}List Helper {2}\(membership \w+, since .+\)$/);
    const listed = await json('members', 'list', '--team', sales.id);
    expect(listed.map((m: { email: string; role: string; team_id: string; organization_id: null }) => [m.email, m.role, m.team_id, m.organization_id])).toEqual([
      [owner, 'owner', sales.id, null],
      [helper, 'member', sales.id, null],
    ]);
    expect(await json('members', 'list', '--org', acme.id)).toEqual([
      { id: expect.any(String), user_id: expect.any(String), email: owner, name: 'List Owner', role: 'owner', team_id: null, organization_id: acme.id, created_at: expect.any(String) },
    ]);
  });

  it.skipIf(!available)('members remove takes a member out, says so, and the audit log shows it under the operator; members add is audited too', async () => {
    expect(ok(await gatehouse('members', 'remove', '--team', sales.id, '--user', 'LIST-HELPER@example.com'))).toBe(`removed ${helper} (member) from team ${sales.id}\n`);
    expect((await json('members', 'list', '--team', sales.id)).map((m: { email: string }) => m.email)).toEqual([owner]);
    expect(ok(await gatehouse('teams', 'list', '--org', acme.id))).toContain('(1 member;');

    ok(await gatehouse('members', 'add', '--org', acme.id, '--user', helper, '--role', 'admin'));
    expect(await json('members', 'remove', '--org', acme.id, '--user', helper)).toEqual({
      id: expect.any(String),
      user_id: expect.any(String),
      user: helper,
      team_id: null,
      organization_id: acme.id,
      role: 'admin',
      removed: true,
    });

    const audit = await json('audit', '--user', helper);
    expect(audit.map((e: { type: string; actor: string; data: unknown }) => [e.type, e.actor, e.data])).toEqual([
      ['membership.removed', 'CLI (operator)', { organization_id: acme.id, role: 'admin' }],
      ['membership.added', 'CLI (operator)', { organization_id: acme.id, role: 'admin' }],
      ['membership.removed', 'CLI (operator)', { team_id: sales.id, role: 'member' }],
      ['membership.added', 'CLI (operator)', { team_id: sales.id, role: 'member' }],
      // The team the helper owns, made by `teams create` (test/cli/creation-audit.test.ts).
      ['team.created', 'CLI (operator)', { team_id: solo.id, organization_id: null }],
    ]);
  });

  it.skipIf(!available)('members remove never takes the last owner, and a second owner can go; nothing changes on a refusal', async () => {
    expectOneLineRefusal(
      await gatehouse('members', 'remove', '--team', sales.id, '--user', owner),
      new RegExp(`^gatehouse: list-owner@example\\.com is the last owner of team ${sales.id}: make another member an owner before removing them$`),
    );
    expect((await json('members', 'list', '--team', sales.id)).map((m: { email: string }) => m.email)).toEqual([owner]);
    ok(await gatehouse('members', 'add', '--team', sales.id, '--user', helper, '--role', 'owner'));
    expect(ok(await gatehouse('members', 'remove', '--team', sales.id, '--user', owner))).toBe(`removed ${owner} (owner) from team ${sales.id}\n`);
    expectOneLineRefusal(await gatehouse('members', 'remove', '--team', sales.id, '--user', helper), /is the last owner of team/);
  });

  it.skipIf(!available)('refuses bad input with one line and exit code 1', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['members', 'list'], /^gatehouse: give exactly one of --team ID and --org ID$/],
      [['members', 'list', '--team', 'x', '--org', 'y'], /^gatehouse: give exactly one of --team ID and --org ID$/],
      [['members', 'list', '--team', 'noSuchTeam'], /^gatehouse: no team noSuchTeam$/],
      [['members', 'list', '--org', 'noSuchOrg'], /^gatehouse: no organization noSuchOrg$/],
      [['teams', 'list', '--org', 'noSuchOrg'], /^gatehouse: no organization noSuchOrg$/],
      [['orgs', 'list', '--limit', '0'], /^gatehouse: --limit must be a whole number from 1 to 10000$/],
      [['teams', 'list', '--limit', 'all'], /^gatehouse: --limit must be a whole number from 1 to 10000$/],
      [['members', 'remove', '--team', solo.id], /^gatehouse: required option '--user <email>' not specified$/],
      [['members', 'remove', '--user', helper], /^gatehouse: give exactly one of --team ID and --org ID$/],
      [['members', 'remove', '--team', 'noSuchTeam', '--user', helper], /^gatehouse: no team noSuchTeam$/],
      [['members', 'remove', '--team', solo.id, '--user', owner], new RegExp(`^gatehouse: list-owner@example\\.com is not a member of team ${solo.id}$`)],
      [['members', 'remove', '--team', solo.id, '--user', 'nobody@example.com'], new RegExp(`^gatehouse: nobody@example\\.com is not a member of team ${solo.id}$`)],
      [['members', 'remove', '--team', solo.id, '--user', ' '], /^gatehouse: the email is empty: give the email of a member$/],
    ];
    for (const [args, message] of cases) expectOneLineRefusal(await gatehouse(...args), message);
  });
});
