// `gatehouse backup FILE` (docs/rules.md#cli): a consistent copy of a SQLite database while other
// processes write to it, through SQLite's online backup API (better-sqlite3's backup()).
import { randomBytes } from 'node:crypto';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type SQLite from 'better-sqlite3';
import { createOwnerOnlyFile } from './owner-only.ts';

export class BackupRefused extends Error {}

export interface BackupOptions {
  /** Replace `file` when it exists; refused otherwise. */
  replace?: boolean;
}

/** Every page left after the first step is copied in one step (see below). */
const ALL_REMAINING_PAGES = 0x7fffffff;

/**
 * Copies the database to `file`; returns the number of pages copied. A write by another
 * connection between two steps would restart the copy, so after the first step the rest
 * is copied in one step, inside one read transaction: the copy is the database as of one
 * commit, and under WAL the serving process keeps writing meanwhile. The copy is written
 * beside `file` and renamed into place, so `file` is never a half-written database. The copy
 * holds the same secrets as the database: it is 0600 from its first byte (docs/rules.md#file-permissions).
 * An existing `file` is replaced only with `replace` (the command's --force): it may be the
 * one good backup an operator has.
 */
export async function backupSqlite(sqlite: SQLite.Database, source: string, file: string, options: BackupOptions = {}): Promise<number> {
  const target = resolve(file);
  if (target === resolve(source)) throw new BackupRefused('the backup file must not be the database itself');
  if (!existsSync(dirname(target))) throw new BackupRefused(`the folder ${dirname(file)} does not exist`);
  const refuseExisting = () => {
    if (!options.replace && existsSync(target)) throw new BackupRefused(`${file} already exists: choose another file, or give --force to replace it`);
  };
  refuseExisting();
  const partial = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.partial`);
  try {
    createOwnerOnlyFile(partial);
    const { totalPages } = await sqlite.backup(partial, { progress: () => ALL_REMAINING_PAGES });
    // Again: another backup may have written it while this one copied.
    refuseExisting();
    renameSync(partial, target);
    return totalPages;
  } finally {
    rmSync(partial, { force: true });
  }
}
