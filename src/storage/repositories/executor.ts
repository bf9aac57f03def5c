import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

/** The database or a transaction: every repository function accepts either (STYLE practice 7). */
export type Executor = Kysely<Database>;
