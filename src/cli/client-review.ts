// `gatehouse clients approve|reject|suspend ID [--reason R] [--version N]` (docs/rules.md#cli,
// docs/rules.md#client-states, docs/rules.md#client-changes, docs/rules.md#review-versions). A decision binds to one version of the client: the one given with
// --version (refused when the client changed since), or else the one the command read
// before deciding. On an approved client with a held change, approve accepts the held
// change and reject refuses it; the client stays approved either way.
import type { Command } from 'commander';
import { CLI_OPERATOR } from '../services/actors.ts';
import { approveHeldChanges, rejectHeldChanges } from '../services/clients/review.ts';
import { parseVersion } from '../services/clients/version.ts';
import { hasHeldChange, requireClient, type ClientView } from '../services/clients/view.ts';
import { reviewClient, type ReviewDecision } from '../services/clients/review.ts';
import type { ServiceContext } from '../services/context.ts';
import { ServiceError } from '../services/errors.ts';
import { liveLines } from './client-details.ts';
import { CliError } from './output.ts';
import { jsonOption, type CliRuntime } from './runtime.ts';

interface DecisionOptions {
  reason?: string;
  version?: string;
  json?: boolean;
}

interface Outcome {
  client: ClientView;
  /** Set when the decision was about the held change rather than the client. */
  heldChange?: { decision: 'accepted' | 'refused'; redirectUris: string[]; scopes: string[] };
}

async function decide(s: ServiceContext, clientId: string, decision: ReviewDecision, reason: string | undefined, given: number | undefined): Promise<Outcome> {
  const current = await requireClient(s, clientId);
  if (given !== undefined && given !== current.version) throw new CliError(notCurrent(clientId, given, current.version));
  // What is decided below is chosen from `current`, so the decision binds to its version.
  const options = { expectedVersion: current.version };
  if (current.state === 'approved' && hasHeldChange(current) && decision !== 'suspend') {
    const changes = { redirectUris: current.proposedRedirectUris, scopes: current.proposedScopes };
    if (decision === 'approve') return { client: await approveHeldChanges(s, clientId, CLI_OPERATOR, options), heldChange: { decision: 'accepted', ...changes } };
    return { client: await rejectHeldChanges(s, clientId, CLI_OPERATOR, reason, options), heldChange: { decision: 'refused', ...changes } };
  }
  return { client: await reviewClient(s, clientId, decision, CLI_OPERATOR, reason, options) };
}

/**
 * docs/rules.md#review-versions: a version that is not the client's current one, named with
 * the current one; an older one means the client changed since it was read, a newer one was
 * never the client's (a typo, or another client's version).
 */
export function notCurrent(clientId: string, given: number, current: number): string {
  const why = given < current ? ': the client changed since you opened it, review it again' : '';
  return `version ${given} is not the current version of client ${clientId}, which is ${current}${why} (\`gatehouse clients show ${clientId}\` prints what it is now)`;
}

function describeHeld(o: Outcome & { heldChange: NonNullable<Outcome['heldChange']> }): string {
  const c = o.client;
  const asked = [...o.heldChange.redirectUris, ...o.heldChange.scopes].join(', ');
  const live = liveLines(c).join('; ');
  return o.heldChange.decision === 'accepted'
    ? `client ${c.clientId}: held change accepted (${asked}); ${live}`
    : `client ${c.clientId}: held change refused (${asked}); it stays ${c.state}, ${live}`;
}

export function registerClientReviewCommands(clients: Command, runtime: CliRuntime): void {
  for (const decision of ['approve', 'reject', 'suspend'] as ReviewDecision[]) {
    const held = decision === 'approve' ? '; on an approved client, accepts its held change' : decision === 'reject' ? '; on an approved client, refuses its held change' : '';
    clients
      .command(decision)
      .argument('<clientId>', "the client's client_id, as `clients list` prints it")
      .description(`${decision} a client (admin review)${held}`)
      .option('--reason <text>', decision === 'reject' ? 'why (required, shown to the developer)' : 'note for the developer')
      .option('--version <n>', 'the version you reviewed, as `clients show` prints it: refused if the client changed since')
      .addOption(jsonOption())
      .action(async (clientId: string, opts: DecisionOptions) => {
        const given = opts.version === undefined ? undefined : parseVersion(opts.version);
        if (opts.version !== undefined && given === undefined) throw new CliError('--version must be a whole number from 1, as `gatehouse clients show` prints it');
        const outcome = await runtime.withServices(async (s) => {
          try {
            return await decide(s, clientId, decision, opts.reason, given);
          } catch (error) {
            // docs/rules.md#review-versions: say where the current version is to be read.
            if (error instanceof ServiceError && error.field === 'version') throw new CliError(`${error.message} (\`gatehouse clients show ${clientId}\` prints what it is now)`);
            throw error;
          }
        });
        const c = outcome.client;
        const h = outcome.heldChange;
        if (h === undefined) {
          runtime.emit(!!opts.json, { client_id: c.clientId, state: c.state, review_note: c.reviewNote }, () => `client ${c.clientId} is now ${c.state}`);
          return;
        }
        runtime.emit(
          !!opts.json,
          {
            client_id: c.clientId,
            state: c.state,
            review_note: c.reviewNote,
            held_change: { decision: h.decision, redirect_uris: h.redirectUris, scopes: h.scopes },
            redirect_uris: c.redirectUris,
            scopes: c.scopes,
            version: c.version,
          },
          () => describeHeld({ ...outcome, heldChange: h }),
        );
      });
  }
}
