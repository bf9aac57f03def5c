// What the operator's terminal is given (docs/rules.md#cli): every human line of the CLI goes
// through one helper that escapes what a terminal would act on rather than show, so a name
// or a URI stored before names and URIs refused control characters (issue 34 item 2) prints
// as text: an escape sequence cannot erase the line above, a newline cannot forge a line of
// its own, a bidi override cannot turn the rest around. The values are stored through the
// stores' ports, as data written before the fix would be. On both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/services/accounts/users.ts';
import { createServiceContext } from '../../src/storage/stores/index.ts';
import { testServiceOptions } from '../helpers/password-hashing.ts';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';
import { runCli, type CliResult } from '../helpers/cli.ts';

/** Anything a terminal acts on: C0 but the newline that ends each line, DEL, C1, and the bidi controls. */
const ACTED_ON = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

function ok(result: CliResult): string {
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toBe('');
  expect(result.stdout).not.toMatch(ACTED_ON);
  return result.stdout;
}

describe.each(backends)('the CLI prints stored names and URIs escaped on $name', { timeout: 120_000 }, ({ name, available }) => {
  let database: TestDatabase;
  const gatehouse = (...args: string[]) => runCli(args, { env: { ...database.env, DATABASE_URL: database.url } });

  // What an attacker left before the fix: a line eraser (ESC [1A ESC [2K), a newline with a
  // forged line after it, a C1 control sequence introducer and a right-to-left override.
  const teamName = 'Sales\u001b[1A\u001b[2K\n9  Payroll  (1 member; no organization)';
  const clientId = 'https://agent.example.com/\u001b[1A\u001b[2Kagent.json';
  const clientName = 'Agent\u009b2J \u202Etxt.exe';
  const redirectUri = 'https://agent.example.com/cb\u001b]0;owned\u0007\nforged';
  let teamId: string;

  beforeAll(async () => {
    if (!available) return;
    database = await createTestDatabase(name);
    const services = createServiceContext(database.handle.db, Date.now, testServiceOptions);
    const owner = await createUser(services, { email: 'printable-owner@example.com', name: 'Printable Owner', password: 'owner-password' });
    const now = Date.now();
    teamId = await services.stores.ids.next('teams');
    await services.stores.teams.insertTeam({ id: teamId, organizationId: null, name: teamName, slug: 'sales-escaped', bio: '', timeZone: 'UTC', brandColor: '#292929', createdAt: now, updatedAt: now });
    await services.stores.clients.insert({
      id: clientId,
      name: clientName,
      description: '',
      homepageUrl: '',
      logoUrl: null,
      ownerId: owner.id,
      kind: 'public',
      state: 'pending',
      redirectUris: [redirectUri],
      scopes: ['PROFILE_READ'],
      createdAt: now,
    });
  });
  afterAll(async () => database?.drop());

  const escapedClientId = 'https://agent.example.com/\\u001b[1A\\u001b[2Kagent.json';
  const escapedClientName = 'Agent\\u009b2J \\u202etxt.exe';

  it.skipIf(!available)('teams list prints the name on its one line, its escape sequence and newline written out', async () => {
    expect(ok(await gatehouse('teams', 'list'))).toBe(`${teamId}  Sales\\u001b[1A\\u001b[2K\\n9  Payroll  (1 member; no organization)  slug sales-escaped  (0 members; no organization)\n`);
  });

  it.skipIf(!available)('clients list --state pending prints the client id and name of the queue escaped, one line per client', async () => {
    expect(ok(await gatehouse('clients', 'list', '--state', 'pending'))).toBe(`${escapedClientId}  pending    public        ${escapedClientName}\n`);
  });

  it.skipIf(!available)('clients show prints the id, the name and the redirect URI escaped, each on its own line', async () => {
    const lines = ok(await gatehouse('clients', 'show', clientId)).split('\n');
    expect(lines).toContain(`client_id:     ${escapedClientId}`);
    expect(lines).toContain(`name:          ${escapedClientName}`);
    expect(lines).toContain('redirect URIs: https://agent.example.com/cb\\u001b]0;owned\\u0007\\nforged');
    expect(lines.filter((line) => line.startsWith('forged'))).toEqual([]);
  });

  it.skipIf(!available)('--json keeps the values as they are, written as JSON escapes a terminal does not act on', async () => {
    const listed = ok(await gatehouse('clients', 'list', '--state', 'pending', '--json'));
    expect(JSON.parse(listed)).toEqual([expect.objectContaining({ client_id: clientId, name: clientName })]);
    expect(listed).toContain('Agent\\u009b2J \\u202etxt.exe');
    const shown = JSON.parse(ok(await gatehouse('clients', 'show', clientId, '--json'))) as { redirect_uris: string[] };
    expect(shown.redirect_uris).toEqual([redirectUri]);
  });

  it.skipIf(!available)('a refusal that quotes what the operator gave is one line on standard error, escaped', async () => {
    const refused = await gatehouse('clients', 'show', 'nobody\u001b[2K\nforged');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe('gatehouse: no client with id nobody\\u001b[2K\\nforged\n');
  });
});
