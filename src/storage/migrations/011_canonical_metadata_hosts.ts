// docs/integrating.md#connect-an-ai-agent-mcp: a trust decision names a host, not an origin. Decisions were
// stored as the host typed or parsed, port included (127.0.0.1:8443, agent.example.com.);
// each is now stored under its canonical host, the spelling services/clients/host-names.ts
// gives and lookups ask for. Where two stored spellings of one host disagree, distrust wins:
// whoever distrusted one spelling meant the host. Of equal decisions the latest is kept.
import ipaddr from 'ipaddr.js';
import type { Kysely } from 'kysely';

interface Decision {
  host: string;
  decision: 'trusted' | 'distrusted';
  decided_by: string | null;
  decided_at: number | string;
}

const outranks = (a: Decision, b: Decision) =>
  a.decision !== b.decision ? a.decision === 'distrusted' : Number(a.decided_at) > Number(b.decided_at);

/**
 * The host a stored decision is about, as host-names.ts spelled hosts when this migration
 * was written: the URL parser's host without port or trailing dot, an IPv4-mapped IPv6
 * address as IPv4, labels as DNS allows them (RFC 1035 §2.3.4). Kept here rather than
 * imported, so that what this migration does never changes with the live code. One that
 * does not read as a host is left as it is.
 */
function canonical(host: string): string {
  const given = host.trim();
  let parsed: URL;
  try {
    parsed = new URL(`https://${given}/`);
  } catch {
    return host;
  }
  if (given === '' || parsed.username !== '' || parsed.pathname !== '/' || parsed.search !== '' || parsed.hash !== '' || /[/?#@\\]/.test(given)) return host;
  const name = parsed.hostname.endsWith('.') ? parsed.hostname.slice(0, -1) : parsed.hostname;
  if (!name.startsWith('[')) {
    const isAddress = /^\d+\.\d+\.\d+\.\d+$/.test(name);
    return isAddress || (name.length <= 253 && name.split('.').every((label) => /^(?!-)[a-z0-9-]{1,63}(?<!-)$/.test(label))) ? name : host;
  }
  try {
    const address = ipaddr.IPv6.parse(name.slice(1, -1));
    return address.isIPv4MappedAddress() ? address.toIPv4Address().toString() : `[${address.toString()}]`;
  } catch {
    return host;
  }
}

async function rewrite(db: Kysely<any>): Promise<void> {
  const rows = (await db.selectFrom('client_metadata_hosts').selectAll().execute()) as Decision[];
  const kept = new Map<string, Decision>();
  for (const row of rows) {
    const host = canonical(row.host);
    const held = kept.get(host);
    if (held === undefined || outranks(row, held)) kept.set(host, row);
  }
  for (const [host, row] of kept) {
    const spellings = rows.filter((r) => canonical(r.host) === host);
    if (spellings.length === 1 && row.host === host) continue;
    await db.deleteFrom('client_metadata_hosts').where('host', 'in', spellings.map((r) => r.host)).execute();
    await db.insertInto('client_metadata_hosts').values({ ...row, host }).execute();
  }
}

/**
 * One transaction on both dialects, without opening one here: PostgreSQL runs each migration
 * in a transaction (transactional DDL), and on SQLite Kysely's migrator holds one connection
 * for the whole run, so its first write opens the group transaction of storage/group-commit.ts,
 * which commits only once the migrator lets the connection go. A transaction opened inside
 * that connection would release it early and leave the database locked for other processes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await rewrite(db);
}
