import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

/** The database or a transaction: every repository function accepts either (ARCHITECTURE.md#transactions-are-explicit). */
export type Executor = Kysely<Database>;
