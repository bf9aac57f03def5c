import type { Command } from 'commander';
// gatehouse cimd trust|distrust HOST, gatehouse cimd list (docs/rules.md#cimd-policy): an operator's trust
// decisions about client metadata document hosts, through the same service as the admin.
import { decideHost, listHostDecisions } from '../services/clients/metadata-hosts.ts';
import { formatTime } from './output.ts';
import { jsonOption, type CliRuntime } from './runtime.ts';
import { CLI_OPERATOR } from '../services/actors.ts';

export function registerCimdCommands(program: Command, runtime: CliRuntime): void {
  const cimd = program.command('cimd').description('trust decisions about client metadata document hosts');
  for (const [name, decision, words] of [
    ['trust', 'trusted', 'approve the clients this host publishes, now and later'],
    ['distrust', 'distrusted', 'refuse the clients this host publishes; suspend approved ones'],
  ] as const) {
    cimd
      .command(name)
      .argument('<host>', 'a host name or address, in any spelling (case, trailing dot, IDNA): all its spellings and ports are one host')
      .description(words)
      .addOption(jsonOption())
      .action(async (host: string, opts: { json?: boolean }) => {
        const result = await runtime.withServices((s) => decideHost(s, host, decision, CLI_OPERATOR));
        runtime.emit(!!opts.json, { host: result.host, decision, changed_clients: result.changedClients }, () => `${result.host}: ${decision}${result.changedClients.length ? `; ${result.changedClients.length} client(s) ${decision === 'trusted' ? 'approved' : 'refused'}` : ''}`);
      });
  }
  cimd
    .command('list')
    .description('every decision, by host')
    .addOption(jsonOption())
    .action(async (opts: { json?: boolean }) => {
      const list = await runtime.withServices((s) => listHostDecisions(s));
      const json = list.map((d) => ({ host: d.host, decision: d.decision, decided_by: d.decidedBy, decided_at: formatTime(d.decidedAt) }));
      runtime.emit(!!opts.json, json, () => (list.length === 0 ? 'no decisions' : list.map((d) => `${d.host.padEnd(40)} ${d.decision.padEnd(10)} ${formatTime(d.decidedAt)}`)));
    });
}
