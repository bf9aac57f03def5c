// docs/operating.md#settings: an unset COOKIE_SECRET or SIGNING_KEYS_SECRET is generated once
// into the data folder and read from there by every later start. Two instances started at
// once over one data folder (a process manager starting two, or the server and the
// gatehouse command) must end up with one secret: with two, sessions or signing keys sealed
// by one cannot be opened by the other.
import { Worker } from 'node:worker_threads';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveLocalSecret } from '../../src/storage/local-secrets.ts';
import { projectRoot } from '../helpers/project-root.ts';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function freshFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-secrets-'));
  made.push(dir);
  return dir;
}

/**
 * Threads with the module loaded wait at one barrier, then each resolves the secret of every
 * folder of `dataDirs` in turn: the threads run through the folders side by side, so each
 * folder's first start is contended. What each thread got, folder by folder.
 */
async function resolveSideBySide(threads: number, dataDirs: string[]): Promise<string[][]> {
  const code = `
    const { workerData, parentPort } = require('node:worker_threads');
    (async () => {
      const { register } = await import(${JSON.stringify(pathToFileURL(join(projectRoot, 'node_modules/tsx/dist/esm/api/index.mjs')).href)});
      register();
      const { resolveLocalSecret } = await import(${JSON.stringify(pathToFileURL(join(projectRoot, 'src/storage/local-secrets.ts')).href)});
      const go = new Int32Array(workerData.barrier);
      parentPort.postMessage('ready');
      Atomics.wait(go, 0, 0);
      parentPort.postMessage(workerData.dataDirs.map((dir) => resolveLocalSecret(undefined, 'cookie-secret', dir).secret));
    })();
  `;
  const barrier = new SharedArrayBuffer(4);
  const go = new Int32Array(barrier);
  const workers = Array.from({ length: threads }, () => new Worker(code, { eval: true, workerData: { dataDirs, barrier } }));
  try {
    const answers = workers.map((worker) => {
      const ready = new Promise<void>((resolve, reject) => worker.on('message', (m) => m === 'ready' && resolve()).once('error', reject));
      const secrets = new Promise<string[]>((resolve, reject) => worker.on('message', (m) => m !== 'ready' && resolve(m as string[])).once('error', reject));
      return { ready, secrets };
    });
    await Promise.all(answers.map((a) => a.ready));
    Atomics.store(go, 0, 1);
    Atomics.notify(go, 0);
    return await Promise.all(answers.map((a) => a.secrets));
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

describe('a secret generated into the data folder (docs/operating.md#settings)', () => {
  it('is made once, owner-only, and read back by every later start', () => {
    const dataDir = join(freshFolder(), 'data');
    const first = resolveLocalSecret(undefined, 'cookie-secret', dataDir);
    expect(first.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(join(dataDir, 'cookie-secret'), 'utf8')).toBe(`${first.secret}\n`);
    expect(statSync(join(dataDir, 'cookie-secret')).mode & 0o777).toBe(0o600);
    expect(resolveLocalSecret(undefined, 'cookie-secret', dataDir).secret).toBe(first.secret);
  });

  it('a configured secret is used as it is, and nothing is written', () => {
    const dataDir = join(freshFolder(), 'data');
    expect(resolveLocalSecret('configured-secret-configured-secret', 'cookie-secret', dataDir)).toEqual({ secret: 'configured-secret-configured-secret', warnings: [] });
    expect(() => statSync(dataDir)).toThrow();
  });

  it('is one secret for starts racing over a fresh folder, and the folder keeps no half-made file', async () => {
    const base = freshFolder();
    const dataDirs = Array.from({ length: 200 }, (_, i) => join(base, String(i), 'data'));
    const byThread = await resolveSideBySide(4, dataDirs);
    const split = dataDirs.filter((_, i) => new Set(byThread.map((secrets) => secrets[i])).size > 1);
    expect(split.length, `folders whose racing starts got different secrets, e.g. ${split[0]}`).toBe(0);
    for (const [i, dir] of dataDirs.entries()) {
      expect(readFileSync(join(dir, 'cookie-secret'), 'utf8')).toBe(`${byThread[0]![i]}\n`);
    }
  });
});
