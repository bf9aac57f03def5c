import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

describe.each(backends)('core flow on $name', ({ name, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (available) server = await startTestServer(name);
  });
  afterAll(async () => server?.close());

  it.skipIf(!available)('code → tokens → /v2/me → refresh', async () => {
    const dev = await server.user();
    const user = await server.user({ name: 'Ada' });
    const client = await server.client(dev);
    const code = await server.code(client, user);
    const res = await server.exchange(client, code);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'bearer', expires_in: 1800, scope: 'PROFILE_READ' });
    const me = await server.api('GET', '/v2/me', res.body.access_token as string);
    expect(me.status).toBe(200);
    expect(me.body.data.name).toBe('Ada');
    const refreshed = await server.token({ grant_type: 'refresh_token', refresh_token: res.body.refresh_token as string, client_id: client.clientId, client_secret: client.secret! });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.scope).toBe('PROFILE_READ');
  });
});
