// `npm run test:unit`: the unit tests alone, in seconds: the protocol core on SQLite :memory:
// through the real adapter (test/oauth), and the tests that start no server and need no
// database file, PostgreSQL or Redis (the documentation's checks among them). `npm test` (vitest.config.ts) runs them with the rest.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'test/oauth/**/*.test.ts',
      'test/config/**/*.test.ts',
      'test/services/**/*.test.ts',
      'test/architecture/**/*.test.ts',
      'test/docs/**/*.test.ts',
      'test/platform/access-policy.test.ts',
      'test/fuzz/harness.test.ts',
    ],
    testTimeout: 30_000,
    // Two cores: two workers, as the whole suite uses. A worker keeps the modules it loaded
    // for its next file (most of the time was each file loading src/ again): these tests keep
    // their state in their own fixtures (test/oauth/core.ts gives each test its own database).
    maxWorkers: 2,
    pool: 'threads',
    isolate: false,
  },
});
