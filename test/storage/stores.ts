// The store factories the storage contract suites (test/storage/*.test.ts) run against: the
// one place that knows where each implementation lives, so a move is one line here.
import { recordClientEvent } from '../../src/services/webhooks/outbox.ts';
import type { Executor } from '../../src/storage/repositories/executor.ts';
import { createOAuthStore as createOAuthStoreWith } from '../../src/storage/stores/oauth.ts';

/** The OAuth store as the app composes it: its notifications go to the outbox. */
export const createOAuthStore = (db: Executor) => createOAuthStoreWith(db, recordClientEvent);
export { createApiAccessStore } from '../../src/storage/repositories/api-access.ts';
export { createRetentionStore, deleteBatchQuery, forgetSuccessorsQuery } from '../../src/storage/stores/retention.ts';
