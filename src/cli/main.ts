// The gatehouse command as a process (bin/gatehouse.mjs): its arguments, its streams, its
// environment, and the exit status run.ts answers.
import { runGatehouse } from './run.ts';
import { processIo } from './runtime.ts';

process.exitCode = await runGatehouse(process.argv.slice(2), processIo());
