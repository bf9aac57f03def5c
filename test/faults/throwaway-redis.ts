// A Redis server of the test's own, on a free port, with nothing persisted, which the test
// may kill and start again on the same port. The machine's own Redis is never touched.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect, createServer, type Socket } from 'node:net';
import { freePort } from '../helpers/ports.ts';

export const throwawayRedisAvailable = spawnSync('redis-server', ['--version']).status === 0;

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(500);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

export class ThrowawayRedis {
  private process: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async create(): Promise<ThrowawayRedis> {
    const redis = await ThrowawayRedis.reserve();
    await redis.start();
    return redis;
  }

  /**
   * A free port for a Redis that is not started yet: connections to it are refused until
   * start(). The port stays unbound meanwhile, so it is picked below the range the system
   * hands out for port 0 (freePort), where no other test's server will take it.
   */
  static async reserve(): Promise<ThrowawayRedis> {
    for (;;) {
      const port = 20_000 + Math.floor(Math.random() * 10_000);
      if (await isFree(port)) return new ThrowawayRedis(port);
    }
  }

  /** Starts the server and waits until it answers PING. */
  async start(): Promise<void> {
    this.process = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const deadline = Date.now() + 10_000;
    while (!(await answersPing(this.port))) {
      if (Date.now() > deadline) throw new Error('redis-server did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** SIGKILL: gone at once, as in a crash. */
  async kill(): Promise<void> {
    const child = this.process;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}

/**
 * A Redis that answers late: a port of its own in front of `redis` that takes connections
 * and answers nothing on them, as a Redis too slow to answer would, until answer(); from
 * then on every new connection is passed through to `redis`. `givenUp` counts the held
 * connections the other side closed, having waited long enough (by ending or resetting them).
 */
export async function lateRedis(redis: ThrowawayRedis): Promise<{ url: string; givenUp(): number; answer(): void; close(): Promise<void> }> {
  const held = new Set<Socket>();
  const open = new Set<Socket>();
  let givenUp = 0;
  let answering = false;
  const front = createServer((socket) => {
    socket.on('error', () => undefined);
    if (!answering) {
      // Read and drop what the client sends: a socket sees the client's FIN only once the
      // bytes before it are read, so a held connection that read nothing would never see the
      // client give up on it politely (ioredis ends its side after its ready check times out).
      socket.resume();
      held.add(socket);
      socket.once('close', () => {
        if (held.delete(socket)) givenUp += 1;
      });
      return;
    }
    const back = connect(redis.port, '127.0.0.1');
    back.on('error', () => socket.destroy());
    for (const s of [socket, back]) {
      open.add(s);
      s.once('close', () => open.delete(s));
    }
    socket.pipe(back).pipe(socket);
  });
  const port = await freePort();
  await new Promise<void>((resolve, reject) => front.once('error', reject).listen(port, '127.0.0.1', resolve));
  return {
    url: `redis://127.0.0.1:${port}`,
    givenUp: () => givenUp,
    answer: () => {
      answering = true;
      for (const socket of held) {
        held.delete(socket);
        socket.destroy();
      }
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => front.close(() => resolve()));
      for (const socket of [...held, ...open]) socket.destroy();
      await closed;
    },
  };
}
