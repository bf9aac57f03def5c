// docs/rules.md#retention: every running instance prunes on a timer. Runs never overlap; several
// instances pruning at once is safe (RetentionStore.deleteBatch).
import type { ServiceContext } from '../context.ts';
import type { RetentionPolicy } from './policy.ts';
import { pruneEnded, totalPruned, type PruneCounts } from './prune.ts';

/** Per run, at most this many batches of each kind: a backlog is worked off over several runs. */
const MAX_BATCHES_PER_RUN = 20;

export interface PrunerHooks {
  pruned(counts: PruneCounts): void;
  failed(error: unknown): void;
}

export interface Pruner {
  /** Cancels the next run and waits for a run in progress, so the database can close. */
  stop(): Promise<void>;
}

export function startPruner(ctx: ServiceContext, policy: RetentionPolicy, everyMs: number, hooks: PrunerHooks): Pruner {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  const run = async () => {
    try {
      const counts = await pruneEnded(ctx, policy, { maxBatches: MAX_BATCHES_PER_RUN });
      if (totalPruned(counts) > 0) hooks.pruned(counts);
    } catch (error) {
      hooks.failed(error);
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = run().then(schedule);
    }, everyMs);
    // A timer alone never keeps the process alive.
    timer.unref();
  };
  schedule();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
