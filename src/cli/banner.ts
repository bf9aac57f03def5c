// What `gatehouse serve` (and `npm start`) tells the person who started it, once, in words:
// where it listens, which database and data folder it uses, and what to do next. The JSON
// request logs that follow are for log pipelines and stay as they are.
import { resolve } from 'node:path';
import type { Config } from '../config/index.ts';

/** The database as a person would name it: the SQLite file, or the PostgreSQL server and database (never credentials). */
export function describeDatabase(databaseUrl: string): string {
  if (databaseUrl.startsWith('sqlite:')) {
    const location = databaseUrl.slice('sqlite:'.length);
    return location === ':memory:' ? 'SQLite in memory (gone when the process stops)' : `SQLite, ${resolve(location)}`;
  }
  const url = new URL(databaseUrl);
  return `PostgreSQL, ${url.host}${url.pathname}`;
}

export interface BannerFacts {
  version: string;
  /** The address the server is listening on, as Fastify reports it. */
  listening: string;
  dataDir: string;
  /** Whether any platform admin exists yet: without one, nobody can approve a client. */
  hasAdmin: boolean;
}

export function startupBanner(config: Config, facts: BannerFacts): string[] {
  return [
    `Gatehouse ${facts.version} is listening on ${facts.listening}`,
    `  web pages (APP_URL):  ${config.appUrl}`,
    `  API (BASE_URL):       ${config.baseUrl}  (issuer; token endpoint ${config.baseUrl}/v2/auth/oauth2/token)`,
    `  database:             ${describeDatabase(config.databaseUrl)}`,
    `  data folder:          ${facts.dataDir}${config.cookieSecret ? '' : '  (holds the generated cookie secret)'}`,
    '',
    facts.hasAdmin
      ? '  Admins review clients at ' + `${config.appUrl}/admin/oauth-clients`
      : '  No admin yet: npx gatehouse users create --email you@example.com --name "Your Name" --admin',
    '  Try the whole flow:   npx gatehouse demo',
    '  Every setting:        npx gatehouse --help',
    `  Request logs follow as JSON lines (LOG_LEVEL=${config.logLevel}; LOG_LEVEL=warn keeps only problems). Ctrl+C stops.`,
  ];
}
