// The per-instance cache of metadata documents (docs/integrating.md#connect-an-ai-agent-mcp) is bounded: expired entries are
// never served and are dropped first, and past the bound the oldest entry goes.
import { describe, expect, it } from 'vitest';
import { ExpiringCache } from '../../src/services/clients/expiring-cache.ts';

describe('ExpiringCache', () => {
  it('never holds more than its bound, however many keys are set: 10,000 document URLs leave 100 entries', () => {
    let now = 0;
    const cache = new ExpiringCache<string>(100, () => now);
    for (let i = 0; i < 10_000; i++) cache.set(`https://agent-${i}.example.com/doc.json`, 'doc', now + 60_000);
    expect(cache.size).toBe(100);
    // The newest are kept, the oldest went.
    expect(cache.get('https://agent-9999.example.com/doc.json')).toBe('doc');
    expect(cache.get('https://agent-0.example.com/doc.json')).toBeUndefined();
  });

  it('does not serve an expired entry, and drops expired entries before live ones when it needs room', () => {
    let now = 0;
    const cache = new ExpiringCache<string>(3, () => now);
    cache.set('live', 'a', 10_000);
    cache.set('short-1', 'b', 100);
    cache.set('short-2', 'c', 100);
    now = 100;
    expect(cache.get('short-1')).toBeUndefined();
    expect(cache.size).toBe(2);
    cache.set('new-1', 'd', 10_000);
    cache.set('new-2', 'e', 10_000); // full: short-2 (expired) goes, not 'live'
    expect(cache.size).toBe(3);
    expect(cache.get('live')).toBe('a');
    expect(cache.get('new-1')).toBe('d');
    expect(cache.get('new-2')).toBe('e');
  });

  it('a key set again counts as the newest', () => {
    const cache = new ExpiringCache<number>(2, () => 0);
    cache.set('a', 1, 10);
    cache.set('b', 2, 10);
    cache.set('a', 3, 10);
    cache.set('c', 4, 10); // b is the oldest now
    expect(cache.get('a')).toBe(3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('c')).toBe(4);
  });
});
