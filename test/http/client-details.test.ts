// GET /v2/auth/oauth2/clients/:clientId: an approved client's public details in Cal.com API
// v2's shape (OAuth2ClientDto in the success envelope); every other id is one 404, so the
// answer tells nothing of clients no user can authorize (docs/rules.md#client-states). The
// route reads one client through ClientStore.find, whose contract test/storage/client-store.test.ts
// holds on both databases, so the answer is checked on SQLite only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

describe.each(backends.filter((b) => b.name === 'sqlite'))('a client’s public details on $name', ({ name, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (available) server = await startTestServer(name);
  });
  afterAll(async () => server?.close());

  const details = async (clientId: string) => {
    const res = await fetch(`${server.url}/v2/auth/oauth2/clients/${encodeURIComponent(clientId)}`);
    return { status: res.status, cacheControl: res.headers.get('cache-control'), body: (await res.json()) as Record<string, any> };
  };

  it.skipIf(!available)('answers an approved client’s id, first redirect URI, name, logo, trust and type, and nothing secret', async () => {
    const owner = await server.user();
    const client = await server.client(owner, { name: 'Planner', redirectUris: ['https://planner.example.com/cb', 'https://planner.example.com/cb2'] });
    const res = await details(client.clientId);
    expect(res).toMatchObject({ status: 200, cacheControl: 'no-store' });
    expect(res.body).toEqual({
      status: 'success',
      data: { client_id: client.clientId, redirect_uri: 'https://planner.example.com/cb', name: 'Planner', logo: null, is_trusted: false, client_type: 'CONFIDENTIAL' },
    });
    expect(JSON.stringify(res.body)).not.toContain(client.secret!);

    const mobile = await server.client(owner, { kind: 'public', name: 'Planner Mobile' });
    expect((await details(mobile.clientId)).body.data).toMatchObject({ client_id: mobile.clientId, client_type: 'PUBLIC' });
  });

  it.skipIf(!available)('is the same 404 for an unknown id and for a client awaiting review, rejected or suspended', async () => {
    const owner = await server.user();
    const ids = ['no-such-client', ...(await Promise.all((['pending', 'rejected', 'suspended'] as const).map(async (state) => (await server.client(owner, { state })).clientId)))];
    for (const id of ids) {
      expect(await details(id), id).toEqual({ status: 404, cacheControl: 'no-store', body: { status: 'error', timestamp: expect.any(String), path: expect.any(String), error: { code: 'not_found', message: 'no approved client has this client_id' } } });
    }
  });
});
