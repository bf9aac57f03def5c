import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: two workers; each test file has its own SQLite file and PostgreSQL schema.
    maxWorkers: 2,
    // A worker runs file after file in one module graph: each file used to import the whole
    // server again (311 s of a 14-minute run went to imports). Files share no state but
    // caches: each starts its own servers over its own databases and closes them.
    isolate: false,
    reporters: ['default'],
  },
});
