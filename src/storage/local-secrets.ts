// Secrets a fresh machine needs before anyone configured them (docs/operating.md#settings):
// COOKIE_SECRET and SIGNING_KEYS_SECRET are generated once into the data folder when unset,
// and read from there at every later start (the server's and the gatehouse command's).
// docs/rules.md#file-permissions: the file is its owner's only (0600), and so is the data
// folder when Gatehouse makes it (0700).
import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { makeOwnerOnlyFolder, OWNER_ONLY_FILE, tightenToOwnerOnly } from './owner-only.ts';

/** The data folder: ./data of the working folder (the generated secrets; the default SQLite file). */
export const defaultDataDir = (): string => resolve('data');

/**
 * `configured` when set; else the secret kept in `dataDir/fileName`, made there the first
 * time. `warnings`: a kept file that was readable by others, now tightened.
 */
export function resolveLocalSecret(configured: string | undefined, fileName: string, dataDir = defaultDataDir()): { secret: string; warnings: string[] } {
  if (configured) return { secret: configured, warnings: [] };
  const file = resolve(dataDir, fileName);
  const kept = () => readFileSync(file, 'utf8').trim();
  if (existsSync(file)) return { secret: kept(), warnings: tightenToOwnerOnly([file]) };
  makeOwnerOnlyFolder(dataDir);
  // Two starts at once over a fresh folder must keep one secret, and no start may read a
  // half-written one: the secret is written whole under a name of this start's own, then
  // linked to its place, which fails if another start linked its own first; that one is read.
  const secret = randomBytes(32).toString('base64url');
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  writeFileSync(draft, secret + '\n', { mode: OWNER_ONLY_FILE, flag: 'wx' });
  try {
    linkSync(draft, file);
    return { secret, warnings: [] };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { secret: kept(), warnings: [] };
  } finally {
    rmSync(draft, { force: true });
  }
}
