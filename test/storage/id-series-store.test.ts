// The contract of IdSeriesStore (src/services/ids.ts) on both backends: next and nextMany hand
// out each number of a series once, increasing within a call, also to callers that run at the
// same time (docs/rules.md#numbered-ids).
import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { useServiceStores } from './seed.ts';

const asNumbers = (ids: string[]) => ids.map((id) => Number(id));
const increasing = (ids: string[]) => asNumbers(ids).every((n, i, all) => i === 0 || n > all[i - 1]!);

describe.each(backends)('IdSeriesStore on $name', ({ name, available }) => {
  const suite = useServiceStores(name, available);

  it.skipIf(!available)('nextMany: n distinct increasing ids, after the last next and before the following one; none for 0', async () => {
    const ids = suite.stores.ids;
    const before = Number(await ids.next('booking_attendees'));
    const taken = await ids.nextMany('booking_attendees', 5);
    expect(taken).toHaveLength(5);
    expect(taken.every((id) => /^[1-9][0-9]*$/.test(id))).toBe(true);
    // Nothing else takes numbers here: they follow each other.
    expect(asNumbers(taken)).toEqual([before + 1, before + 2, before + 3, before + 4, before + 5]);
    expect(Number(await ids.next('booking_attendees'))).toBe(before + 6);
    expect(await ids.nextMany('booking_attendees', 0)).toEqual([]);
    expect(Number(await ids.next('booking_attendees'))).toBe(before + 7);
    expect(await ids.nextMany('booking_attendees', 1)).toEqual([String(before + 8)]);
    // Another series is not moved.
    const other = Number(await ids.next('booking_references'));
    await ids.nextMany('booking_attendees', 3);
    expect(Number(await ids.next('booking_references'))).toBe(other + 1);
    await expect(ids.nextMany('booking_attendees', -1)).rejects.toThrow(RangeError);
    await expect(ids.nextMany('booking_attendees', 1.5)).rejects.toThrow(RangeError);
  });

  it.skipIf(!available)('nextMany and next at the same time, in transactions and outside: no number is handed out twice', async () => {
    const { stores } = suite;
    const calls: Promise<string[]>[] = [];
    for (let i = 0; i < 8; i++) {
      calls.push(stores.transaction((tx) => tx.ids.nextMany('booking_attendees', 7)));
      calls.push(stores.ids.nextMany('booking_attendees', 3));
      calls.push(stores.ids.next('booking_attendees').then((id) => [id]));
    }
    const results = await Promise.all(calls);
    for (const r of results) expect(increasing(r)).toBe(true);
    const all = results.flat();
    expect(all).toHaveLength(8 * (7 + 3 + 1));
    expect(new Set(all).size).toBe(all.length);
  });
});
