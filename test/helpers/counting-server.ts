// A test server whose database counts the statements the application sends, to assert
// what a request costs in queries.
import { randomBytes } from 'node:crypto';
import type { KyselyPlugin } from 'kysely';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config/index.ts';
import { createServiceContext } from '../../src/storage/stores/index.ts';
import { testServiceOptions } from './password-hashing.ts';
import { createTestDatabase, type Backend } from './backends.ts';
import { freePort } from './ports.ts';
import { TEST_SIGNING_KEYS_SECRET, TestServer } from './server.ts';

/**
 * Counts the statements that reach the database; set `n` to 0 before the request measured.
 * With `rows` (set it to 0 too), also the rows they answered: what a lookup reads, when
 * reading all of an owner's rows to pick one would cost no more statements.
 */
export interface StatementCounter {
  n: number;
  rows?: number;
}

function countingPlugin(counter: StatementCounter): KyselyPlugin {
  return {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      counter.n += 1;
      if (counter.rows !== undefined) counter.rows += args.result.rows.length;
      return args.result;
    },
  };
}

/**
 * The application counts through `counter`; the test's own fixtures (server.db) are not counted.
 * `sharing`: serve the database of that server instead of a new one (startTestServer's).
 */
export async function startCountingServer(backend: Backend['name'], counter: StatementCounter, sharing?: TestServer): Promise<TestServer> {
  const database = sharing?.database ?? (await createTestDatabase(backend));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig({ BASE_URL: url, APP_URL: url, DATABASE_URL: database.url, LOG_LEVEL: 'silent', PORT: String(port) });
  const counted = { ...database.handle, db: database.handle.db.withPlugin(countingPlugin(counter)) };
  const app = await buildApp(config, { database: counted, cookieSecret: randomBytes(32).toString('hex'), signingKeysSecret: TEST_SIGNING_KEYS_SECRET });
  const server = new TestServer(app, url, config, database, createServiceContext(database.handle.db, Date.now, testServiceOptions), [], sharing === undefined);
  await app.listen({ port, host: '127.0.0.1' });
  return server;
}
