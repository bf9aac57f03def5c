// SIGTERM: the process stops taking connections but finishes the requests already in
// flight before it exits (issue: standards and operations, item 6).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/server.ts';

describe('graceful shutdown', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-shutdown-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finishes a request in flight after SIGTERM, then exits 0 and refuses new connections', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ['bin/gatehouse.mjs', 'serve'], {
      env: { ...process.env, PORT: String(port), BASE_URL: url, APP_URL: url, DATABASE_URL: `sqlite:${join(dir, 'g.db')}`, LOG_LEVEL: 'warn', COOKIE_SECRET: 'x'.repeat(40) },
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    for (;;) {
      const up = await fetch(`${url}/healthz`).then((r) => r.ok, () => false);
      if (up) break;
      await new Promise((r) => setTimeout(r, 100)); // polling until the server answers
    }

    // A token request whose body is still arriving when SIGTERM is sent.
    const body = 'grant_type=authorization_code&client_id=nobody&code=x&redirect_uri=https%3A%2F%2Fa.example%2Fcb';
    const req = request(`${url}/v2/auth/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(body.length) } });
    const inFlight = new Promise<{ status: number; text: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      });
      req.on('error', reject);
    });
    req.write(body.slice(0, 20));
    await new Promise<void>((resolve) => req.once('socket', (socket) => socket.once('connect', () => resolve())));
    child.kill('SIGTERM');
    // Wait until the server no longer accepts connections, then finish the old request.
    while (await fetch(`${url}/healthz`).then(() => true, () => false)) await new Promise((r) => setTimeout(r, 50));
    req.end(body.slice(20));
    const answered = await inFlight;
    expect(answered.status).toBe(401);
    expect(JSON.parse(answered.text)).toMatchObject({ error: 'invalid_client' });
    expect(await exited).toBe(0);
  });
});
