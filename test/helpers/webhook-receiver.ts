// A webhook receiver on loopback for the tests (docs/rules.md#webhooks): it verifies every delivery's
// signature with the `standardwebhooks` package (a verifier nobody here wrote), counts what
// arrives per path, and answers as told: 200, 500, a redirect, never (a timeout), or any
// status and body given.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';

export type Answer = 'ok' | 'fail' | 'redirect' | 'hang' | 'big-fail' | { status: number; body: string };

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** The parsed payload when the signature verified; undefined when it did not. */
  verified: unknown;
  verifyError: string | null;
}

export class WebhookReceiver {
  readonly received: Received[] = [];
  private readonly answers = new Map<string, Answer>();
  private readonly secrets = new Map<string, string>();
  private readonly hanging: ServerResponse[] = [];

  private constructor(
    private readonly server: Server,
    readonly base: string,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    let receiver!: WebhookReceiver;
    const server = createServer((req, res) => receiver.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver = new WebhookReceiver(server, `http://127.0.0.1:${(server.address() as { port: number }).port}`);
    return receiver;
  }

  /** The URL of a path, and the secret its deliveries must be signed with (set once known). */
  url(path: string): string {
    return `${this.base}${path}`;
  }

  expectSecret(path: string, secret: string): void {
    this.secrets.set(path, secret);
  }

  answer(path: string, answer: Answer): void {
    this.answers.set(path, answer);
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      let verified: unknown;
      let verifyError: string | null = null;
      try {
        const secret = this.secrets.get(path);
        if (secret === undefined) throw new Error(`no secret known for ${path}`);
        verified = new Webhook(secret).verify(body, headers);
      } catch (err) {
        verifyError = (err as Error).message;
      }
      this.received.push({ path, headers, body, verified, verifyError });
      const answer = this.answers.get(path) ?? 'ok';
      if (typeof answer === 'object') return void res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body);
      if (answer === 'hang') return void this.hanging.push(res);
      if (answer === 'redirect') return void res.writeHead(302, { location: this.url('/redirect-target') }).end('moved');
      if (answer === 'fail') return void res.writeHead(500, { 'content-type': 'text/plain' }).end('receiver is down');
      if (answer === 'big-fail') return void res.writeHead(503, { 'content-type': 'text/plain' }).end('x'.repeat(3000));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    });
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
