import type { ServiceStores } from './stores.ts';

/** What the application services need: their stores and a clock. */
export interface ServiceContext {
  stores: ServiceStores;
  clock: () => number;
}
