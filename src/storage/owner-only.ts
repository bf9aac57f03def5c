// docs/rules.md#file-permissions: files that hold secrets — the SQLite database and its WAL, backups, the generated
// cookie secret — are created readable by their owner only (0600), whatever the umask. The
// database holds webhook and events signing secrets in plain text, so under the common
// umask 022 (files 0644) every local account could read them.
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';

/** Read and write for the owner only. */
export const OWNER_ONLY_FILE = 0o600;
/** A folder Gatehouse creates for such files: its owner's only too. */
export const OWNER_ONLY_FOLDER = 0o700;

/**
 * Creates `folder` and any missing parents as 0700 (the umask can only take bits away). A
 * folder that exists is left as it is: it may be the operator's, shared on purpose.
 */
export function makeOwnerOnlyFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: OWNER_ONLY_FOLDER });
}

/**
 * Creates `file` empty and 0600 if it does not exist, so that what is written into it later
 * (SQLite, which opens an existing file without changing its mode, and makes its -wal and
 * -shm files with the database file's mode) is never readable by others, not even for a moment.
 */
export function createOwnerOnlyFile(file: string): void {
  try {
    closeSync(openSync(file, 'wx', OWNER_ONLY_FILE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/**
 * Takes the group's and others' bits off each of `files` that exists with them (made by an
 * older version, or under another umask), and says so: the owner keeps reading and writing,
 * nobody else can. What could not be changed (a file of another user) is said too.
 */
export function tightenToOwnerOnly(files: string[]): string[] {
  const said: string[] = [];
  for (const file of files) {
    let mode: number;
    try {
      mode = statSync(file).mode & 0o777;
    } catch {
      continue; // not there: nothing to tighten
    }
    if ((mode & 0o077) === 0) continue;
    const was = `${file} was readable by others (mode ${mode.toString(8)})`;
    try {
      chmodSync(file, mode & OWNER_ONLY_FILE);
      said.push(`${was}: it is now readable by its owner only (${(mode & OWNER_ONLY_FILE).toString(8)})`);
    } catch (error) {
      said.push(`${was} and its mode could not be changed (${(error as NodeJS.ErrnoException).code}): make it readable by its owner only, e.g. chmod 600`);
    }
  }
  return said;
}
