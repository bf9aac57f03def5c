// The stores the application services reach the database through (ARCHITECTURE.md). Each
// area declares its own store interface beside its services, with camelCase records and the
// contract of every method; this interface gathers them, so that one transaction can span
// areas. src/storage/stores implements it; app.ts and cli/runtime.ts wire it.
import type { ApiStores } from '../api/stores/index.ts';
import type { BookingStore } from './booking-store.ts';

export interface ServiceStores {
  bookings: BookingStore;
  api: ApiStores;
  /**
   * Runs fn with every store bound to one transaction: all of fn's writes land, or none.
   * Inside a transaction already, fn joins it.
   */
  transaction<T>(fn: (tx: ServiceStores) => Promise<T>): Promise<T>;
}
