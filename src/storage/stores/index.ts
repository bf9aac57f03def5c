// The stores of every area over one Kysely database (or transaction), and the service
// context built on them: the one place where the services meet storage.
import type { Kysely } from 'kysely';
import type { ServiceContext } from '../../services/context.ts';
import type { ServiceStores } from '../../services/stores.ts';
import type { Database } from '../schema.ts';
import { createBookingStore } from './bookings.ts';
import { createPlatformStores } from './platform.ts';

export function createServiceStores(db: Kysely<Database>): ServiceStores {
  return {
    bookings: createBookingStore(db),
    api: createPlatformStores(db),
    transaction: (fn) => (db.isTransaction ? fn(createServiceStores(db)) : db.transaction().execute((trx) => fn(createServiceStores(trx)))),
  };
}

export function createServiceContext(db: Kysely<Database>, clock: () => number): ServiceContext {
  return { stores: createServiceStores(db), clock, db };
}
