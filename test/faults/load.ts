// A steady load of real requests against a running server, every answer kept with the
// phase of the test it arrived in and how long it took, so a test can say what clients saw.

export interface Answer {
  surface: string;
  phase: string;
  status: number;
  ms: number;
}

/** One kind of request a worker repeats: returns the status (and may update its own state). */
export type Request = (signal: AbortSignal) => Promise<number>;

/** An answer that did not come within this is recorded as status 0: a hang. */
const HANG_MS = 15_000;

export class Load {
  readonly answers: Answer[] = [];
  phase = 'before';
  private running = true;
  private readonly workers: Array<Promise<void>> = [];

  add(surface: string, request: Request): this {
    this.workers.push(
      (async () => {
        while (this.running) {
          const phase = this.phase;
          const started = Date.now();
          const status = await request(AbortSignal.timeout(HANG_MS)).catch(() => 0);
          this.answers.push({ surface, phase, status, ms: Date.now() - started });
          // Pacing, not waiting for a condition: the machine is shared.
          await new Promise((r) => setTimeout(r, 10));
        }
      })(),
    );
    return this;
  }

  /** Whether `surface` has answered `status` in `phase`. */
  saw(surface: string, phase: string, status: number): boolean {
    return this.answers.some((a) => a.surface === surface && a.phase === phase && a.status === status);
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
  }
}

/** Polls `condition` until it holds; throws with `what` past the deadline. */
export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
