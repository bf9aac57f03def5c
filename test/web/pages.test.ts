// The pages over real HTTP on every backend (docs/rules.md#forms-and-pages): the headers every
// page and every /v2 answer carries (pages/security.ts), the words the pages say
// (pages/words.ts), and POST/redirect/GET with its one-time notices (pages/post-redirect-get.ts).
// They share one server per database, each making its own users and clients; the one that
// moves the server's clock forward runs last.
import { afterAll, beforeAll, describe } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { postRedirectGet } from './pages/post-redirect-get.ts';
import { securityHeaders } from './pages/security.ts';
import { pageWords } from './pages/words.ts';

describe.each(backends)('the pages on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    if (backend.available) server = await startTestServer(backend.name);
  });
  afterAll(async () => server?.close());
  const shared = () => server;

  securityHeaders(backend, shared);
  pageWords(backend, shared);
  postRedirectGet(backend, shared);
});
