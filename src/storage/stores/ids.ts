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
  };
}
