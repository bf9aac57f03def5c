// docs/integrating.md#connect-an-ai-agent-mcp: trust and distrust decisions name a host, not an origin. They
// cover every port and every spelling of the host (case, a trailing dot, IDNA, an IPv4
// address written as an IPv4-mapped IPv6 address or in another numeric form), through the
// authorization endpoint as through `gatehouse cimd`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend } from '../../helpers/backends.ts';
import { runCli } from '../../helpers/cli.ts';
import { authorizeQuery, startDocumentHost, type DocumentHost } from '../../helpers/document-host.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { pkcePair } from '../token-endpoint/setup.ts';
import { up as canonicalHostsMigration } from '../../../src/storage/migrations/011_canonical_metadata_hosts.ts';

export function hostSpellings({ name, available }: Backend): void {
  describe('trust decisions name a host', () => {
    let docs: DocumentHost;
    let server: TestServer;
    let port: string;
    beforeAll(async () => {
      docs = await startDocumentHost();
      port = new URL(docs.origin).port;
      if (available) server = await startTestServer(name, { OUTBOUND_ALLOW_PRIVATE: '1' });
    });
    afterAll(async () => {
      await server?.close();
      await docs?.close();
    });
    const gh = (args: string[]) => runCli(args, { env: { DATABASE_URL: server.database.url, ...server.database.env } });
    const authorize = (clientId: string) => fetch(`${server.url}/auth/oauth2/authorize?${authorizeQuery(clientId, pkcePair().challenge)}`, { redirect: 'manual' });

    it.skipIf(!available)('gatehouse cimd takes every spelling of a host, with or without a port, and records the host itself', async () => {
      const cases: Array<[string, string]> = [
        ['localhost.', 'localhost'],
        ['LocalHost:8443', 'localhost'],
        ['[::ffff:7f00:1]', '127.0.0.1'],
        ['0x7f.0.0.1', '127.0.0.1'],
        ['BÜCHER.example.', 'xn--bcher-kva.example'],
        ['[2001:DB8:0:0::1]', '[2001:db8::1]'],
      ];
      for (const [typed, host] of cases) {
        const decided = await gh(['cimd', 'distrust', typed, '--json']);
        expect(decided.stderr, typed).toBe('');
        expect(JSON.parse(decided.stdout), typed).toEqual({ host, decision: 'distrusted', changed_clients: [] });
      }
      const listed = JSON.parse((await gh(['cimd', 'list', '--json'])).stdout) as Array<{ host: string }>;
      expect(listed.map((d) => d.host).sort()).toEqual(['127.0.0.1', '[2001:db8::1]', 'localhost', 'xn--bcher-kva.example']);
      // What is more than a host is still refused, with the form to use.
      for (const notHost of ['https://agent.example.com', 'user@agent.example.com', 'localhost..']) {
        const refused = await gh(['cimd', 'trust', notHost]);
        expect(refused.code, notHost).toBe(1);
        expect(refused.stderr, notHost).toMatch(/is not a host name: give it as agent\.example\.com/);
      }
    }, 120_000); // a process per command

    it.skipIf(!available)('docs/integrating.md#connect-an-ai-agent-mcp: a distrusted host is refused under any spelling and on any port of its documents, and nothing is fetched', async () => {
      expect((await gh(['cimd', 'distrust', '127.0.0.1'])).code).toBe(0);
      expect((await gh(['cimd', 'distrust', 'localhost'])).code).toBe(0);
      const spellings = [
        `http://[::ffff:7f00:1]:${port}/spelled/mapped.json`,
        `http://127.1:${port}/spelled/short.json`,
        `http://2130706433:${port}/spelled/decimal.json`,
        `http://127.0.0.1.:${port}/spelled/dot.json`,
        `http://localhost.:${port}/spelled/localhost-dot.json`,
        `http://LOCALHOST:${port}/spelled/localhost-case.json`,
        'http://127.0.0.1:1/spelled/other-port.json',
      ];
      for (const clientId of spellings) {
        const page = await authorize(clientId);
        expect(page.status, clientId).toBe(400);
        expect(await page.text(), clientId).toMatch(/a platform admin has blocked applications from (127\.0\.0\.1|localhost)\b/);
      }
      for (const clientId of spellings) expect(docs.reads(new URL(clientId).pathname), clientId).toBe(0);
      const made = (await server.services.stores.clients.list({})).filter((c) => c.id.includes('/spelled/'));
      expect(made).toEqual([]);
    });

    it.skipIf(!available)('migration 011: decisions stored with a port or another spelling are stored under the host, and distrust wins where spellings disagree', async () => {
      const decide = (host: string, decision: 'trusted' | 'distrusted', decidedAt: number) => server.services.stores.metadataHosts.decide({ host, decision, decidedBy: null, decidedAt });
      // As decisions were stored before: the host as typed, port included.
      await decide('agent.example.net:8443', 'trusted', 1);
      await decide('agent.example.net', 'distrusted', 2);
      await decide('agent.example.net:9443', 'trusted', 3);
      await decide('other.example.net.', 'trusted', 4);
      await decide('[::ffff:a00:1]:8443', 'trusted', 5);
      await canonicalHostsMigration(server.db);
      const stored = await server.services.stores.metadataHosts.list();
      const about = (host: string) => stored.find((d) => d.host === host);
      expect(stored.filter((d) => /example\.net|10\.0\.0\.1/.test(d.host)).map((d) => d.host).sort()).toEqual(['10.0.0.1', 'agent.example.net', 'other.example.net']);
      expect(about('agent.example.net')).toMatchObject({ decision: 'distrusted', decidedAt: 2 });
      expect(about('other.example.net')).toMatchObject({ decision: 'trusted', decidedAt: 4 });
      expect(about('10.0.0.1')).toMatchObject({ decision: 'trusted', decidedAt: 5 });
    });
  });
}
