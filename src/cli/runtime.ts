// What every command needs: settings, the services over an opened and migrated database, and
// where it reads and writes: the process's own streams (main.ts), or a caller's (run.ts).
import { readFileSync } from 'node:fs';
import { isatty } from 'node:tty';
import { Option } from 'commander';
import { loadConfig, type Config } from '../config/index.ts';
import type { PlatformContext } from '../platform/stores.ts';
import { openDatabase, type DatabaseHandle } from '../storage/database.ts';
import { migrateToLatest } from '../storage/migrator.ts';
import { createServiceContext } from '../storage/stores/index.ts';
import { resolveLocalSecret } from '../storage/local-secrets.ts';
import { CliError, jsonText, writeLines } from './output.ts';

/** Where a command writes; `isTTY` and `columns` let the help fit a terminal. */
export interface CliOutput {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface CliIo {
  /** Where the settings come from; unset: the process's environment (config/index.ts reads it). */
  env?: Record<string, string | undefined>;
  stdout: CliOutput;
  stderr: CliOutput;
  /** Standard input, whole; '' when it is a terminal. */
  readStdin(): string;
}

export interface CliRuntime {
  readonly io: CliIo;
  config(): Config;
  /** Opens the database, applies pending migrations, runs fn, closes. The services of both wings: the platform's features an operator reads (phone calls) among them. */
  withServices<T>(fn: (services: PlatformContext) => Promise<T>): Promise<T>;
  /** Opens the database, applies pending migrations, closes; returns the names applied. */
  migrate(): Promise<string[]>;
  /** SIGNING_KEYS_SECRET, or the one the server generated into the data folder (docs/operating.md#signing-keys). */
  signingKeysSecret(): string;
  /** Copies the database (SQLite) to file without migrating it; returns the pages copied. An existing file only with `replace`. */
  backup(file: string, options?: { replace?: boolean }): Promise<number>;
  readStdin(): string;
  /**
   * One way to answer: JSON with --json, readable lines otherwise: `human` gives the line, or
   * the lines, each written through output.ts: printable, so no value quoted in a line can
   * start another or drive the terminal.
   */
  emit(json: boolean, data: unknown, human: () => string | readonly string[]): void;
}

/** The process's own streams and environment: what `gatehouse` run from a shell uses. */
export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // Not process.stdin: creating it puts a pipe into non-blocking mode, and the read then
    // fails with EAGAIN whenever the writer is slower than the command (a password manager).
    readStdin: () => (isatty(0) ? '' : readFileSync(0, 'utf8')),
  };
}

export function createRuntime(io: CliIo): CliRuntime {
  const config = () => loadConfig(io.env);
  async function withDatabase<T>(fn: (database: DatabaseHandle) => Promise<T>, options: { mustExist?: boolean } = {}): Promise<T> {
    const { databaseUrl, databaseConnectTimeoutMs } = config();
    const database = openDatabase(databaseUrl, { ...options, connectTimeoutMs: databaseConnectTimeoutMs });
    for (const warning of database.warnings) writeLines(io.stderr, `gatehouse: ${warning}`);
    try {
      return await fn(database);
    } finally {
      await database.close();
    }
  }
  return {
    io,
    config,
    withServices: (fn) => withDatabase(async (database) => {
      await migrateToLatest(database);
      return fn(createServiceContext(database.db, Date.now, { passwordHashing: config().passwordHashing }));
    }),
    migrate: () => withDatabase(migrateToLatest),
    signingKeysSecret: () => {
      const { secret, warnings } = resolveLocalSecret(config().signingKeys.secret, 'signing-keys-secret');
      for (const warning of warnings) writeLines(io.stderr, `gatehouse: ${warning}`);
      return secret;
    },
    // A backup of a database that is not there would be an empty one: refused instead.
    backup: (file, options) => withDatabase((database) => database.backup(file, options), { mustExist: true }),
    readStdin: () => io.readStdin(),
    emit: (json, data, human) => (json ? io.stdout.write(jsonText(data)) : writeLines(io.stdout, human())),
  };
}

/** A --limit value: a whole number from 1 to `max`, or a one-line refusal. */
export function limitOf(text: string, max: number): number {
  const limit = Number(text);
  if (!/^\d+$/.test(text) || limit < 1 || limit > max) throw new CliError(`--limit must be a whole number from 1 to ${max}`);
  return limit;
}

export function jsonOption(): Option {
  return new Option('--json', 'machine-readable output');
}
