import type { Command } from 'commander';
// gatehouse prune (docs/rules.md#retention) and gatehouse backup (docs/rules.md#cli): an operator's upkeep.
import { pruneEnded, type PruneCounts } from '../services/retention/prune.ts';
import { snakeCase } from './output.ts';
import { jsonOption, type CliRuntime } from './runtime.ts';

const labels: Record<keyof PruneCounts, string> = {
  authorizationCodes: 'authorization codes',
  accessTokens: 'access tokens',
  refreshTokens: 'refresh tokens',
  pushedAuthorizationRequests: 'pushed requests',
  sessions: 'sessions',
  authorizationRequests: 'authorization requests',
  auditEvents: 'audit events',
  dpopProofs: 'DPoP proofs',
  inviteLinks: 'invite links',
  teamDepartures: 'team departures',
  emailChangeRequests: 'address changes',
  connectionRequests: 'connect requests',
  slotReservations: 'slot reservations',
  unusedOpenRegistrations: 'unused registrations',
  successorsForgotten: 'successor pairs',
};

/**
 * What happened to each: rows are deleted; a spent refresh token's kept successor pair is
 * forgotten while the spent token stays for reuse detection (docs/rules.md#refresh-rotation).
 */
const verbs: Record<keyof PruneCounts, string> = {
  authorizationCodes: 'deleted',
  accessTokens: 'deleted',
  refreshTokens: 'deleted',
  pushedAuthorizationRequests: 'deleted',
  sessions: 'deleted',
  authorizationRequests: 'deleted',
  auditEvents: 'deleted',
  dpopProofs: 'deleted',
  inviteLinks: 'deleted',
  teamDepartures: 'deleted',
  emailChangeRequests: 'deleted',
  connectionRequests: 'deleted',
  slotReservations: 'deleted',
  unusedOpenRegistrations: 'deleted',
  successorsForgotten: 'forgotten',
};

export function registerMaintenanceCommands(program: Command, runtime: CliRuntime): void {
  program
    .command('prune')
    .description('delete ended codes, tokens, pushed authorization requests, sessions, invite links, team departures, address changes, connect requests, open registrations unused for a day, old authorization requests and audit events; print the counts')
    .addOption(jsonOption())
    .action(async (opts: { json?: boolean }) => {
      const { retention } = runtime.config();
      const counts = await runtime.withServices((s) => pruneEnded(s, retention));
      runtime.emit(!!opts.json, Object.fromEntries(Object.entries(counts).map(([kind, n]) => [snakeCase(kind), n])), () =>
        (Object.keys(labels) as Array<keyof PruneCounts>).map((k) => `${labels[k].padEnd(24)} ${counts[k]} ${verbs[k]}`),
      );
    });

  program
    .command('backup')
    .description('write a consistent copy of the SQLite database to FILE while it serves (PostgreSQL: use pg_dump)')
    .argument('<file>', 'where the copy goes; an existing file is refused unless --force')
    .option('--force', 'replace FILE if it exists')
    .addOption(jsonOption())
    .action(async (file: string, opts: { force?: boolean; json?: boolean }) => {
      const pages = await runtime.backup(file, { replace: !!opts.force });
      runtime.emit(!!opts.json, { file, pages, replaced: !!opts.force }, () => `backed up ${pages} pages to ${file}`);
    });
}
