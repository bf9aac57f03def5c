// `gatehouse serve` as a real process, as an operator runs it, with its log lines kept so a
// test can read what it reported. Started and stopped by serve-process.ts, like every other
// test that runs a serving process.
import { freePort } from '../helpers/ports.ts';
import { startServe, stopServe, type ServeProcess } from '../helpers/serve-process.ts';

export class RunningGatehouse {
  private constructor(private readonly serve: ServeProcess) {}

  /** Starts the server on a free port, logging at info, and waits until /healthz answers. */
  static async start(env: Record<string, string>): Promise<RunningGatehouse> {
    return new RunningGatehouse(await startServe(await freePort(), { LOG_LEVEL: 'info', ...env }));
  }

  get url(): string {
    return this.serve.url;
  }

  /** Log records whose message is `msg`, among every line printed so far. */
  logged(msg: string): Array<Record<string, unknown>> {
    return this.serve.output
      .join('')
      .split('\n')
      .flatMap((line) => {
        try {
          const record = JSON.parse(line) as Record<string, unknown>;
          return record.msg === msg ? [record] : [];
        } catch {
          return []; // the start-up banner and other lines for people
        }
      });
  }

  stop(): Promise<void> {
    return stopServe(this.serve);
  }
}
