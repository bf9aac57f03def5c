// The store factories the storage contract suites (test/storage/*.test.ts) run against: the
// one place that knows where each implementation lives, so a move is one line here.
export { createOAuthStore } from '../../src/storage/stores/oauth.ts';
export { createApiAccessStore } from '../../src/storage/repositories/api-access.ts';
export { createDpopProofStore } from '../../src/storage/stores/dpop-proofs.ts';
export { createRetentionStore, deleteBatchQuery, deleteUnusedOpenRegistrationsQuery, forgetSuccessorsQuery } from '../../src/storage/stores/retention.ts';
export { createIdentityAssertionStore } from '../../src/storage/stores/identity-assertions.ts';
