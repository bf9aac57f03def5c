// Process entry: configuration, database, migrations, listen, graceful shutdown.
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { Config } from './config/index.ts';
import { openDatabase } from './storage/database.ts';
import { defaultDataDir, resolveLocalSecret } from './storage/local-secrets.ts';
import { migrateToLatest } from './storage/migrator.ts';
import { createServiceContext } from './storage/stores/index.ts';
import { startPruner } from './services/retention/pruner.ts';
import { systemResolver } from './services/outbound-url.ts';
import { createDeliveryEngine } from './services/webhooks/engine.ts';
import { StoreTablesMissing } from './services/store-unavailable.ts';

export { defaultDataDir };

/** docs/operating.md: COOKIE_SECRET is generated and kept in the data folder when unset. */
export function resolveCookieSecret(config: Config, dataDir = defaultDataDir()): { secret: string; warnings: string[] } {
  return resolveLocalSecret(config.cookieSecret, 'cookie-secret', dataDir);
}

/** docs/operating.md#signing-keys: SIGNING_KEYS_SECRET likewise, in data/signing-keys-secret. */
export function resolveSigningKeysSecret(config: Config, dataDir = defaultDataDir()): { secret: string; warnings: string[] } {
  return resolveLocalSecret(config.signingKeys.secret, 'signing-keys-secret', dataDir);
}

/** Why the server could not listen, in terms of the setting to change (docs/operating.md#settings). */
function listenFailure(error: unknown, config: Config): Error {
  const code = (error as NodeJS.ErrnoException).code;
  const where = `port ${config.port} on ${config.host}`;
  if (code === 'EADDRINUSE') return new Error(`${where} is already in use: set PORT to a free port, or stop what listens there`);
  if (code === 'EACCES') return new Error(`not allowed to listen on ${where}: set PORT above 1023, or run with the right to bind it`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new Error(`HOST ${config.host} is not an address of this machine: set HOST to 127.0.0.1, 0.0.0.0 or one of its addresses`);
  }
  return error instanceof Error ? error : new Error(String(error));
}

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

export interface ServerOptions {
  /** Milliseconds since the epoch; a test passes a clock it can move. */
  clock?: () => number;
}

export async function startServer(config: Config, options: ServerOptions = {}): Promise<RunningServer> {
  const clock = options.clock ?? Date.now;
  const database = openDatabase(config.databaseUrl, { connectTimeoutMs: config.databaseConnectTimeoutMs });
  await migrateToLatest(database);
  const cookieSecret = resolveCookieSecret(config);
  const signingKeysSecret = resolveSigningKeysSecret(config);
  const app = await buildApp(config, { database, cookieSecret: cookieSecret.secret, signingKeysSecret: signingKeysSecret.secret, clock });
  for (const warning of [...config.warnings, ...database.warnings, ...cookieSecret.warnings, ...signingKeysSecret.warnings]) app.log.warn(warning);

  // Stopped in this order when the app closes; the background work joins once listening.
  const background: Array<{ stop(): Promise<void> }> = [];
  app.addHook('onClose', async () => {
    for (const work of background) await work.stop();
    await database.close();
  });
  // Listening first: an instance that cannot serve must not prune or deliver in the
  // background (its timers would also keep the failed process alive).
  let url: string;
  try {
    url = await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app.close();
    throw listenFailure(error, config);
  }

  // The background work of every instance, on the same clock as its requests.
  const services = createServiceContext(database.db, clock, { passwordHashing: config.passwordHashing });

  // docs/rules.md#refresh-rotation, docs/rules.md#retention: every instance deletes what has ended, in small batches.
  const pruner = startPruner(services, config.retention, config.retention.pruneIntervalSeconds * 1000, {
    pruned: (counts) => app.log.debug({ pruned: counts }, 'pruned ended rows'),
    failed: (err) => app.log.warn({ err }, 'pruning failed; trying again at the next interval'),
  });

  // docs/rules.md#webhooks: every instance delivers from the outbox; the store makes each claim exclusive.
  const deliveries = createDeliveryEngine({
    services,
    outbound: { allowPrivate: config.outboundAllowPrivate, resolve: systemResolver },
    // An attempt's failure is logged by its delivery id and the cause's words only: a
    // database error's detail may quote the row, the receiver's answer included.
    onError: (err, deliveryId) =>
      deliveryId === undefined
        ? app.log.warn({ err }, 'webhook delivery pass failed')
        : app.log.warn({ deliveryId, cause: err instanceof Error ? err.message : String(err) }, 'webhook delivery attempt could not be recorded'),
    // docs/operating.md#backup-and-restore: a restore, or an outage, is said once, not every pass.
    onWait: {
      waiting: (err) =>
        app.log.warn(
          { cause: err.driverError instanceof Error ? err.driverError.message : String(err.driverError) },
          err instanceof StoreTablesMissing ? 'webhook deliveries wait: their tables are missing (a restore under way?)' : 'webhook deliveries wait: the database is unavailable',
        ),
      resumed: () => app.log.info('webhook deliveries go on'),
    },
  });
  deliveries.start(config.webhookPollIntervalMs);
  background.push(deliveries, pruner);
  return { app, url, close: () => app.close() };
}
