// A client's version (SPEC §2 item 22): every change of its configuration or of its held
// change raises it, and a review decision names the version it was made on, so that an
// admin never approves what the developer changed after the admin looked.
import { sql, type RawBuilder } from 'kysely';
import type { ClientRow } from '../storage/repositories/clients.ts';
import type { Executor } from '../storage/repositories/executor.ts';
import { conflict, notFound } from './errors.ts';

/** SPEC §2 item 22: the refusal of a decision made on an older version. */
export const STALE_VERSION = 'the client changed since you opened it: review it again';

/** The value that raises the version in an UPDATE's SET. */
export const nextVersion = (): RawBuilder<number> => sql<number>`version + 1`;

/** A version as typed on a form or a command line: a whole number from 1, or undefined when it is not one. */
export function parseVersion(text: string): number | undefined {
  if (!/^[1-9][0-9]{0,9}$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) && n <= 2_147_483_647 ? n : undefined;
}

export interface ClaimOptions {
  /** Raise the version now: the transaction is sure to change the client (or to fail). */
  raise?: boolean;
  /** Go on only if the client is still at this version (the one the reviewer saw). */
  expectedVersion?: number | undefined;
}

/**
 * Takes the client's row for the rest of the transaction: an UPDATE first, so that two
 * concurrent changes of one client are serialized (a portable stand-in for SELECT ... FOR
 * UPDATE). With `expectedVersion` the version is part of that UPDATE's WHERE, so the check
 * and the write are one statement: an edit that commits first makes it match no row, and
 * one that comes later waits for this transaction (SPEC §2 item 22). Returns the row as
 * this transaction left it.
 */
export async function claimClientRow(db: Executor, clientId: string, now: number, options: ClaimOptions = {}): Promise<ClientRow> {
  let update = db
    .updateTable('oauth_clients')
    .set(options.raise ? { updated_at: now, version: nextVersion() } : { updated_at: now })
    .where('id', '=', clientId);
  if (options.expectedVersion !== undefined) update = update.where('version', '=', options.expectedVersion);
  const row = await update.returningAll().executeTakeFirst();
  if (row !== undefined) return row;
  const exists = await db.selectFrom('oauth_clients').select('id').where('id', '=', clientId).executeTakeFirst();
  if (exists === undefined) throw notFound(`no client with id ${clientId}`);
  throw conflict(STALE_VERSION, 'version');
}
