// A client's version (docs/rules.md#review-versions): every change of its configuration or of its held
// change raises it, and a review decision names the version it was made on, so that an
// admin never approves what the developer changed after the admin looked.
import { conflict, notFound } from '../errors.ts';
import type { ServiceStores } from '../stores.ts';
import type { LockOptions, StoredClient } from './store.ts';

/** docs/rules.md#review-versions: the refusal of a decision made on an older version. */
export const STALE_VERSION = 'the client changed since you opened it: review it again';

/** A version as typed on a form or a command line: a whole number from 1, or undefined when it is not one. */
export function parseVersion(text: string): number | undefined {
  if (!/^[1-9][0-9]{0,9}$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) && n <= 2_147_483_647 ? n : undefined;
}

/**
 * Takes the client's row lock for the rest of the transaction (ClientStore.lock), so that
 * two concurrent changes of one client are serialized; with `expectedVersion`, only if the
 * client is still at the version the reviewer saw. Returns the client as this transaction
 * left it; throws not_found for an unknown client and a conflict on `version` for a stale one.
 */
export async function claimClient(stores: ServiceStores, clientId: string, now: number, options: LockOptions = {}): Promise<StoredClient> {
  const client = await stores.clients.lock(clientId, now, options);
  if (client !== undefined) return client;
  if ((await stores.clients.find(clientId)) === undefined) throw notFound(`no client with id ${clientId}`);
  throw conflict(STALE_VERSION, 'version');
}
