// Issue 12 item 4: slow and abusive connections. A caller sending its request a byte at a
// time is cut off at the configured bound, an idle keep-alive connection is closed, and
// many idle connections do not keep new requests out. (HTTP only: no database involved.)
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './load.ts';
import { RunningGatehouse } from './running-gatehouse.ts';

/** A raw connection that keeps what it received and when it was closed. */
async function rawConnection(url: string): Promise<{ socket: Socket; received: () => string; closed: () => boolean }> {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  let received = '';
  let closed = false;
  socket.on('data', (data: Buffer) => (received += data.toString()));
  socket.on('close', () => (closed = true));
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  return { socket, received: () => received, closed: () => closed };
}

/** Writes `text` one byte a second until it is all sent or the connection is closed. */
async function trickle(connection: Awaited<ReturnType<typeof rawConnection>>, text: string): Promise<void> {
  for (const byte of text) {
    if (connection.closed()) return;
    connection.socket.write(byte);
    await new Promise((r) => setTimeout(r, 1_000)); // the slowness under test
  }
}

describe('slow and idle connections', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-slow-'));
  let server: RunningGatehouse;

  beforeAll(async () => {
    server = await RunningGatehouse.start({
      DATABASE_URL: `sqlite:${join(dir, 'slow.db')}`,
      HTTP_HEADERS_TIMEOUT_SECONDS: '2',
      HTTP_REQUEST_TIMEOUT_SECONDS: '3',
      HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '1',
      HTTP_TIMEOUT_CHECK_INTERVAL_SECONDS: '1',
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('closes a connection that sends its headers one byte a second once HTTP_HEADERS_TIMEOUT_SECONDS (plus the check interval) has passed', async () => {
    const slow = await rawConnection(server.url);
    const opened = Date.now();
    const sending = trickle(slow, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${'a'.repeat(60)}\r\n\r\n`);
    await waitFor('the slow connection to be closed', slow.closed, 20_000);
    await sending;
    // 2 s allowed for the headers, checked every 1 s: closed within 3 s, 1 s of slack.
    expect(Date.now() - opened).toBeLessThan(4_500);
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
  }, 30_000);

  it('closes a connection whose body arrives one byte a second once HTTP_REQUEST_TIMEOUT_SECONDS has passed', async () => {
    const slow = await rawConnection(server.url);
    const opened = Date.now();
    slow.socket.write('POST /v2/auth/oauth2/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n');
    const sending = trickle(slow, 'grant_type=refresh_token&refresh_token='.padEnd(100, 'x'));
    await waitFor('the slow connection to be closed', slow.closed, 20_000);
    await sending;
    expect(Date.now() - opened).toBeLessThan(5_500);
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
  }, 30_000);

  it('closes an idle keep-alive connection after HTTP_KEEP_ALIVE_TIMEOUT_SECONDS', async () => {
    const idle = await rawConnection(server.url);
    idle.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
    await waitFor('the answer', () => idle.received().includes('"status":"ok"'));
    const answered = Date.now();
    expect(idle.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(idle.received().toLowerCase()).toContain('keep-alive: timeout=1');
    await waitFor('the idle connection to be closed', idle.closed, 10_000);
    expect(Date.now() - answered).toBeLessThan(3_000);
  });

  it('answers new requests while 300 connections sit idle, some never sending a byte and some half-way through their headers', async () => {
    const idle = await Promise.all(Array.from({ length: 300 }, () => rawConnection(server.url)));
    idle.filter((_, i) => i % 2 === 0).forEach((c) => c.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n'));
    try {
      for (let i = 0; i < 10; i++) {
        const res = await fetch(`${server.url}/healthz`);
        expect(res.status).toBe(200);
      }
      const token = await fetch(`${server.url}/v2/auth/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      });
      expect(token.status).toBe(400);
      expect(await token.json()).toMatchObject({ error: 'unsupported_grant_type' });
      // And they are closed in their turn: none of them is kept forever.
      await waitFor('the idle connections to be closed', () => idle.every((c) => c.closed()), 15_000);
    } finally {
      idle.forEach((c) => c.socket.destroy());
    }
  }, 30_000);
});
