import type { PasswordHashing } from './accounts/passwords.ts';
import type { ServiceStores } from './stores.ts';

/** What the application services need: their stores, a clock, and the cost of new password hashes (RFC 9106's when unset). */
export interface ServiceContext {
  stores: ServiceStores;
  clock: () => number;
  passwordHashing?: PasswordHashing;
}
