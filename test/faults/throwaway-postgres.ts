// A PostgreSQL server of the test's own, which the test may stop and start: a cluster in a
// temporary folder, from the machine's PostgreSQL binaries, on a free port, run as the
// `postgres` user with trust authentication. The machine's own server is never touched.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../helpers/ports.ts';

function binDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const newest = readdirSync(root).sort((a, b) => Number(b) - Number(a))[0];
  const dir = newest === undefined ? undefined : join(root, newest, 'bin');
  return dir !== undefined && existsSync(join(dir, 'pg_ctl')) ? dir : undefined;
}

const bin = binDir();

/** initdb refuses to run as root: the cluster runs as `postgres`, which needs root to become. */
export const throwawayPostgresAvailable = bin !== undefined && process.getuid?.() === 0;

export class ThrowawayPostgres {
  private constructor(
    private readonly dir: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  static async create(): Promise<ThrowawayPostgres> {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-pg-'));
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    chownSync(dir, uid, gid);
    const server = new ThrowawayPostgres(dir, await freePort());
    server.asPostgres('initdb', ['-D', server.data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    await server.start();
    return server;
  }

  private get data(): string {
    return join(this.dir, 'data');
  }

  private asPostgres(program: string, args: string[]): void {
    execFileSync('runuser', ['-u', 'postgres', '--', join(bin!, program), ...args], { stdio: 'ignore', cwd: this.dir });
  }

  /** Starts the server and waits until it accepts connections. */
  async start(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    this.asPostgres('pg_ctl', ['-D', this.data, '-o', options, '-l', join(this.dir, 'server.log'), '-w', 'start']);
  }

  /** Fast shutdown: sessions are ended at once, as when an operator or a failover stops it. */
  async stop(): Promise<void> {
    this.asPostgres('pg_ctl', ['-D', this.data, '-m', 'fast', '-w', 'stop']);
  }

  async destroy(): Promise<void> {
    try {
      this.asPostgres('pg_ctl', ['-D', this.data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
