// gatehouse keys list|rotate (docs/operating.md#signing-keys): the keys ID tokens are signed
// with, and their rotation.
import type { Command } from 'commander';
import { CLI_OPERATOR } from '../services/actors.ts';
import { listSigningKeys, rotateSigningKeys } from '../services/signing-keys.ts';
import { jsonOption, type CliRuntime } from './runtime.ts';

export function registerKeyCommands(program: Command, runtime: CliRuntime): void {
  const keys = program.command('keys').description('the keys ID tokens are signed with (OpenID Connect)');

  keys
    .command('list')
    .description('list the signing keys, newest first: active, retired but still published, or expired; no private part is shown')
    .addOption(jsonOption())
    .action(async (opts: { json?: boolean }) => {
      const config = runtime.config();
      const options = { refreshSeconds: config.signingKeys.refreshSeconds, idTokenTtlSeconds: config.ttl.accessToken };
      const list = await runtime.withServices((s) => listSigningKeys(s, options));
      runtime.emit(!!opts.json, list.map((k) => ({ kid: k.kid, kty: k.kty, generation: k.generation, status: k.status, created_at: k.createdAt, retired_at: k.retiredAt, published_until: k.publishedUntil })), () =>
        list.length === 0
          ? 'no signing keys yet: the server makes the first ones when it starts'
          : list.map((k) => `${k.kid}  ${k.kty.padEnd(3)}  set ${k.generation}  ${k.status.padEnd(9)}  made ${k.createdAt}${k.publishedUntil === null ? '' : `  published until ${k.publishedUntil}`}`),
      );
    });

  keys
    .command('rotate')
    .description('make a new set of signing keys and retire the current one: every instance signs with the new keys within SIGNING_KEYS_REFRESH_SECONDS, and the retired keys stay published until the ID tokens they signed have expired')
    .addOption(jsonOption())
    .action(async (opts: { json?: boolean }) => {
      const secret = runtime.signingKeysSecret();
      const { created, retired } = await runtime.withServices((s) => rotateSigningKeys(s, secret, CLI_OPERATOR));
      runtime.emit(!!opts.json, { created, retired }, () => [`new keys: ${created.join(' ')}`, `retired:  ${retired.length === 0 ? 'none' : retired.join(' ')}`]);
    });
}
