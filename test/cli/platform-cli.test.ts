// gatehouse orgs create, teams create, members add (docs/rules.md#cli): the memberships they write are
// the ones the API enforces, --json is machine-readable, and bad input is one line, exit 1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/services/accounts/users.ts';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';
import { runCli, type CliResult } from '../helpers/cli.ts';
import { createServiceContext } from '../../src/storage/stores/index.ts';
import { testServiceOptions } from '../helpers/password-hashing.ts';

describe.each(backends)('gatehouse orgs, teams and members on $name', ({ name, available }) => {
  let database: TestDatabase;
  const owner = 'cli-owner@example.com';
  const helper = 'cli-helper@example.com';

  function gatehouse(...args: string[]): Promise<CliResult> {
    return runCli(args, { env: { ...database.env, DATABASE_URL: database.url } });
  }

  beforeAll(async () => {
    if (!available) return;
    database = await createTestDatabase(name);
    const services = createServiceContext(database.handle.db, Date.now, testServiceOptions);
    await createUser(services, { email: owner, name: 'CLI Owner', password: 'owner-password' });
    await createUser(services, { email: helper, name: 'CLI Helper', password: 'helper-password' });
  });
  afterAll(async () => database?.drop());

  it.skipIf(!available)('creates an organization and a team in it, each owned by its owner (--json)', async () => {
    const org = await gatehouse('orgs', 'create', '--name', 'Acme', '--owner', owner, '--json');
    expect(org.code, org.stderr).toBe(0);
    const orgJson = JSON.parse(org.stdout);
    expect(orgJson).toMatchObject({ name: 'Acme', owner });

    const team = await gatehouse('teams', 'create', '--name', 'Sales', '--owner', owner, '--org', orgJson.id, '--json');
    expect(team.code, team.stderr).toBe(0);
    const teamJson = JSON.parse(team.stdout);
    expect(teamJson).toMatchObject({ name: 'Sales', organization_id: orgJson.id });

    const stores = createServiceContext(database.handle.db, Date.now, testServiceOptions).stores;
    const ownerId = (await stores.users.findByEmail(owner))!.id;
    const roles = (await stores.teams.listMembershipsOfUser(ownerId)).map((m) => ({ role: m.role, teamId: m.teamId, organizationId: m.organizationId }));
    expect(roles).toEqual(
      expect.arrayContaining([
        { role: 'owner', teamId: null, organizationId: orgJson.id },
        { role: 'owner', teamId: teamJson.id, organizationId: null },
      ]),
    );

    const add = await gatehouse('members', 'add', '--team', teamJson.id, '--user', helper, '--role', 'admin', '--json');
    expect(add.code, add.stderr).toBe(0);
    expect(JSON.parse(add.stdout)).toMatchObject({ team_id: teamJson.id, organization_id: null, role: 'admin', user: helper });

    const addOrg = await gatehouse('members', 'add', '--org', orgJson.id, '--user', helper, '--role', 'member');
    expect(addOrg.code, addOrg.stderr).toBe(0);
    expect(addOrg.stdout.trim()).toBe(`added ${helper} to organization ${orgJson.id} as member`);
    // GET /v2/me reports the organization the user joined.
    expect((await stores.users.findByEmail(helper))?.organizationId).toBe(orgJson.id);

    const twice = await gatehouse('members', 'add', '--org', orgJson.id, '--user', helper, '--role', 'admin');
    expect(twice.code).toBe(1);
    expect(twice.stderr).toBe('gatehouse: that user is already a member of this organization\n');
  });

  it.skipIf(!available)('members add is an operator’s direct membership: accepted at once, with no invitation to answer (docs/rules.md#membership-invitations)', async () => {
    const joiner = `cli-joiner-${Date.now()}@example.com`;
    const services = createServiceContext(database.handle.db, Date.now, testServiceOptions);
    const joinerId = (await createUser(services, { email: joiner, name: 'CLI Joiner', password: 'joiner-password' })).id;
    const team = JSON.parse((await gatehouse('teams', 'create', '--name', 'Direct', '--owner', owner, '--json')).stdout) as { id: string };
    const add = await gatehouse('members', 'add', '--team', team.id, '--user', joiner, '--role', 'member', '--json');
    expect(add.code, add.stderr).toBe(0);
    const added = JSON.parse(add.stdout) as { id: string };
    // An accepted membership, and no invitation left waiting for the joiner's answer.
    const membership = await services.stores.teams.findMembershipOfUser({ teamId: team.id }, joinerId);
    expect({ id: membership?.id, role: membership?.role }).toEqual({ id: added.id, role: 'member' });
    expect((await services.stores.invitations.listFor({ id: joinerId, email: joiner })).filter((i) => i.teamId === team.id)).toEqual([]);
  });

  it.skipIf(!available)('refuses bad input with one line and exit code 1', async () => {
    const cases: Array<[string[], string]> = [
      [['members', 'add', '--team', 'x', '--org', 'y', '--user', helper, '--role', 'member'], 'gatehouse: give exactly one of --team ID and --org ID\n'],
      [['members', 'add', '--team', 'noSuchTeam', '--user', helper, '--role', 'boss'], 'gatehouse: role must be member, admin or owner, not "boss"\n'],
      [['members', 'add', '--team', 'noSuchTeam', '--user', helper, '--role', 'member'], 'gatehouse: no team noSuchTeam\n'],
      [['teams', 'create', '--name', 'Lost', '--owner', owner, '--org', 'noSuchOrg'], 'gatehouse: no organization noSuchOrg\n'],
      [['orgs', 'create', '--name', 'Ghost', '--owner', 'nobody@example.com'], 'gatehouse: no user with email nobody@example.com\n'],
    ];
    const runs = await Promise.all(cases.map(([args]) => gatehouse(...args)));
    runs.forEach((run, i) => {
      expect(run.code, cases[i]![0].join(' ')).toBe(1);
      expect(run.stderr).toBe(cases[i]![1]);
      expect(run.stdout).toBe('');
    });
  });
});
