// docs/rules.md#numbered-ids: SQLite keeps each series' last id in a row of id_series, updated
// in the writer's transaction (SQLite runs one at a time); PostgreSQL takes the next value of
// the series' sequence, which holds no lock until commit, so concurrent inserts never wait on
// each other for a number (migration 017).
import { sql } from 'kysely';
import type { IdSeries, IdSeriesStore } from '../../services/ids.ts';
import type { Executor } from '../repositories/executor.ts';
import { dialectOf } from '../prepared.ts';

export function createIdSeriesStore(db: Executor): IdSeriesStore {
  return {
    async next(series: IdSeries): Promise<string> {
      if (dialectOf(db) === 'postgres') {
        const { rows } = await sql<{ id: string }>`select nextval(${`id_series_${series}`}::regclass)::text as id`.execute(db);
        return rows[0]!.id;
      }
      const row = await db
        .updateTable('id_series')
        .set((eb) => ({ last_value: eb('last_value', '+', 1) }))
        .where('name', '=', series)
        .returning('last_value')
        .executeTakeFirstOrThrow();
      return String(row.last_value);
    },
    // One statement for n ids, not n round trips. SQLite: the counter moves by n under the
    // writer's lock, so last_value - n + 1 … last_value are this caller's alone. PostgreSQL:
    // nextval() once per row of generate_series, each value the sequence's alone, ordered here.
    async nextMany(series: IdSeries, count: number): Promise<string[]> {
      if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`nextMany: count must be a whole number ≥ 0, not ${count}`);
      if (count === 0) return [];
      if (dialectOf(db) === 'postgres') {
        const { rows } = await sql<{ id: string }>`select id::text as id from (select nextval(${`id_series_${series}`}::regclass) as id from generate_series(1, ${count})) as taken order by taken.id`.execute(db);
        return rows.map((r) => r.id);
      }
      const row = await db
        .updateTable('id_series')
        .set((eb) => ({ last_value: eb('last_value', '+', count) }))
        .where('name', '=', series)
        .returning('last_value')
        .executeTakeFirstOrThrow();
      const last = BigInt(row.last_value);
      return Array.from({ length: count }, (_, i) => String(last - BigInt(count - 1 - i)));
    },
  };
}
