// `clients events-url` and `clients rotate-events-secret` (docs/rules.md#client-events): the
// same services as the developer settings page; a new signing secret is printed once.
import type { Command } from 'commander';
import { systemResolver } from '../services/outbound-url.ts';
import { requireClient } from '../services/clients/view.ts';
import { rotateEventsSecret, setEventsUrl } from '../services/webhooks/client-events.ts';
import { jsonOption, type CliRuntime } from './runtime.ts';
import { CLI_OPERATOR } from '../services/actors.ts';

export function registerClientEventsCommands(clients: Command, runtime: CliRuntime): void {
  clients
    .command('events-url')
    .argument('<clientId>', "the client's client_id, as `clients list` prints it")
    .argument('<url>', 'an https URL on a public address, or "" to remove it')
    .description("set the client's events URL (\"\" removes it); the first one comes with a signing secret, shown once")
    .addOption(jsonOption())
    .action(async (clientId: string, url: string, opts: { json?: boolean }) => {
      const outbound = { allowPrivate: runtime.config().outboundAllowPrivate, resolve: systemResolver };
      const { secret } = await runtime.withServices(async (s) => {
        await requireClient(s, clientId);
        return setEventsUrl(s, clientId, url, outbound, CLI_OPERATOR);
      });
      runtime.emit(!!opts.json, { client_id: clientId, events_url: url.trim() || null, ...(secret ? { signing_secret: secret } : {}) }, () =>
        [url.trim() === '' ? 'events URL removed' : `events URL set: ${url.trim()}`, ...(secret ? [`signing secret: ${secret}  (shown once; store it now)`] : [])],
      );
    });
  clients
    .command('rotate-events-secret')
    .argument('<clientId>', "the client's client_id, as `clients list` prints it")
    .description("replace the client's events signing secret at once; the new one is shown once")
    .addOption(jsonOption())
    .action(async (clientId: string, opts: { json?: boolean }) => {
      const secret = await runtime.withServices(async (s) => {
        await requireClient(s, clientId);
        return rotateEventsSecret(s, clientId, CLI_OPERATOR);
      });
      runtime.emit(!!opts.json, { client_id: clientId, signing_secret: secret }, () => `signing secret: ${secret}  (shown once; store it now)`);
    });
}
