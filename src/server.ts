// Process entry: configuration, database, migrations, listen, graceful shutdown.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { Config } from './config/index.ts';
import { openDatabase } from './storage/database.ts';
import { migrateToLatest } from './storage/migrator.ts';
import { purgeExpiredSuccessors } from './storage/repositories/tokens.ts';

/** SPEC §4: COOKIE_SECRET is generated and kept in the data folder when unset. */
export function resolveCookieSecret(config: Config, dataDir = resolve('data')): string {
  if (config.cookieSecret) return config.cookieSecret;
  const file = resolve(dataDir, 'cookie-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

export async function startServer(config: Config): Promise<RunningServer> {
  const database = openDatabase(config.databaseUrl);
  await migrateToLatest(database);
  const app = await buildApp(config, { database, cookieSecret: resolveCookieSecret(config) });
  for (const warning of config.warnings) app.log.warn(warning);

  // SPEC §2 item 9: successors of spent refresh tokens are deleted after the window.
  const sweep = setInterval(() => {
    const cutoff = Date.now() - config.ttl.refreshReuseWindow * 1000;
    purgeExpiredSuccessors(database.db, cutoff).catch((err: unknown) => app.log.warn({ err }, 'successor purge failed'));
  }, Math.max(1000, (config.ttl.refreshReuseWindow * 1000) / 3));
  sweep.unref();

  app.addHook('onClose', async () => {
    clearInterval(sweep);
    await database.close();
  });
  const url = await app.listen({ port: config.port, host: config.host });
  return { app, url, close: () => app.close() };
}
