// Hot-path queries compiled once (src/storage/prepared.ts): every run takes its parameters
// by name, and a name it was not given is an error, never a NULL written in silence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeholderRow, prepare } from '../../src/storage/prepared.ts';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';

const insertEvent = prepare<Record<string, unknown>, unknown>((db) =>
  db.insertInto('audit_events').values(placeholderRow(['type', 'actor_id', 'client_id', 'user_id', 'data', 'created_at'] as const, 'event_')),
);

describe.each(backends)('prepared queries on $name', ({ name, available }) => {
  let database: TestDatabase;
  beforeAll(async () => {
    if (available) database = await createTestDatabase(name);
  });
  afterAll(async () => database?.drop());

  it.skipIf(!available)('runs with every named parameter; a missing one is refused and nothing is written', async () => {
    const { db } = database.handle;
    const row = { event_type: 'token.issued', event_actor_id: null, event_client_id: null, event_user_id: null, event_data: null, event_created_at: 1 };
    await insertEvent.run(db, row);
    const { event_data: _, ...withoutData } = row;
    await expect(insertEvent.run(db, withoutData)).rejects.toThrow('prepared query: no value for parameter event_data');
    expect(await db.selectFrom('audit_events').select(['type', 'created_at']).execute()).toEqual([{ type: 'token.issued', created_at: 1 }]);
  });
});
