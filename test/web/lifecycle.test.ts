// A client's lifecycle in the pages, over real HTTP on every backend: registering, who sees
// which page, editing, the admin's review, the risks it points out and what it binds to,
// secret rotation, the admin's operations, `gatehouse clients update` over the server's
// database, authorized apps and the legacy migration. What the services decide is tested in
// process (test/services/clients.test.ts, client-review.test.ts); these suites keep what only
// HTTP shows: statuses, redirects, pages, cookies and CSRF. They share one server per
// database, each making its own users and clients; the two that move the server's clock
// forward run last.
import { afterAll, beforeAll, describe } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { pageAccess } from './lifecycle/access.ts';
import { adminClientOperations } from './lifecycle/admin-ops.ts';
import { authorizedApps } from './lifecycle/apps.ts';
import { editingAClient } from './lifecycle/changes.ts';
import { clientsUpdateCommand } from './lifecycle/cli.ts';
import { legacyMigrationPages } from './lifecycle/migration.ts';
import { registeringAClient } from './lifecycle/register.ts';
import { reviewBindsToVersion } from './lifecycle/review-version.ts';
import { adminReview } from './lifecycle/review.ts';
import { reviewRisks } from './lifecycle/review-risks.ts';
import { secretRotationPages } from './lifecycle/secrets.ts';

describe.each(backends)('the client lifecycle on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    if (backend.available) server = await startTestServer(backend.name);
  });
  afterAll(async () => server?.close());
  const shared = () => server;

  registeringAClient(backend, shared);
  pageAccess(backend, shared);
  editingAClient(backend, shared);
  adminReview(backend, shared);
  reviewRisks(backend, shared);
  reviewBindsToVersion(backend, shared);
  secretRotationPages(backend, shared);
  adminClientOperations(backend, shared);
  clientsUpdateCommand(backend, shared);
  authorizedApps(backend, shared);
  legacyMigrationPages(backend, shared);
});
