// How long a webhook delivery waits for its receiver (docs/rules.md#webhooks: a 10-second timeout), as the
// webhook's owner meets it: the README's promise and the error a delivery records. The
// receiver is real; only setTimeout is faked, so that ten seconds pass at once.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DELIVERY_TIMEOUT_MS, sendDelivery, type SendResult } from '../../src/services/webhooks/sender.ts';
import { testResolver } from '../helpers/test-dns.ts';

describe('webhook delivery timeout (docs/rules.md#webhooks)', () => {
  let receiver: Server;
  let url: string;
  let arrived: () => void = () => {};
  beforeAll(async () => {
    // Takes every delivery and never answers.
    receiver = createServer(() => arrived());
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('docs/integrating.md promises the sender\'s default: no answer within 10 seconds is a failed attempt', () => {
    const guide = readFileSync(new URL('../../docs/integrating.md', import.meta.url), 'utf8');
    expect(guide).toContain(`no answer within ${DELIVERY_TIMEOUT_MS / 1000} seconds — is a failed attempt`);
  });

  it('a delivery sent without a timeout of its own (as `gatehouse serve` sends them) waits 10 seconds, then records that no answer came', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    let result: SendResult | undefined;
    const sending = sendDelivery(url, {}, '{"type":"BOOKING_CREATED"}', { allowPrivate: true, resolve: testResolver }).then((r) => (result = r));
    await reached;

    await vi.advanceTimersByTimeAsync(9_999);
    await new Promise((resolve) => setImmediate(resolve));
    expect(result).toBeUndefined();

    await vi.advanceTimersByTimeAsync(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(result).toEqual({ status: null, body: null, error: 'no answer within 10 seconds' });
    await sending;
  });
});
