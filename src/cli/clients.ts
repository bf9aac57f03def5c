import type { Command } from 'commander';
import { formatScopes } from '../oauth/scopes.ts';
import { CLI_OPERATOR } from '../services/actors.ts';
import type { ClientState } from '../oauth/storage.ts';
import { createClient, importLegacyClient } from '../services/clients/registration.ts';
import { hasHeldChange, listClients, requireClient, type ClientView } from '../services/clients/view.ts';
import { setResourceServer } from '../services/clients/review.ts';
import { addSecret, removeSecret } from '../services/clients/secrets.ts';
import { findUserById, requireUserByEmail } from '../services/accounts/users.ts';
import { registerClientEventsCommands } from './client-events.ts';
import { registerClientReviewCommands } from './client-review.ts';
import { protocolLines, scopesOf } from './client-details.ts';
import { AUTH_METHOD_HELP, ID_TOKEN_ALG_HELP, JWKS_FILE_HELP, POST_LOGOUT_HELP, readJwksFile, registerClientUpdateCommand } from './client-update.ts';
import { CliError, formatTime } from './output.ts';
import { jsonOption, type CliRuntime } from './runtime.ts';

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** docs/rules.md#client-changes: what the developer asked to add, not yet live. */
function heldChange(c: ClientView): string {
  const parts = [
    c.proposedRedirectUris.length > 0 ? `redirect URIs ${c.proposedRedirectUris.join(', ')}` : '',
    c.proposedScopes.length > 0 ? `scopes ${formatScopes(c.proposedScopes)}` : '',
  ];
  return `adds ${parts.filter(Boolean).join('; ')} (awaiting admin review)`;
}

function describe(c: ClientView, ownerEmail: string): string[] {
  const lines = [
    `client_id:     ${c.clientId}`,
    `name:          ${c.name}`,
    `owner:         ${ownerEmail}`,
    `kind:          ${c.kind}`,
    `state:         ${c.state}${c.reviewNote ? ` (${c.reviewNote})` : ''}`,
    // docs/rules.md#review-versions: the version a decision can name with --version.
    `version:       ${c.version}`,
    `scopes:        ${scopesOf(c)}`,
    `redirect URIs: ${c.redirectUris.join(', ')}`,
    // docs/rules.md#pushed-authorization.
    `PAR:           ${c.requirePushedAuthorizationRequests ? 'required (RFC 9126)' : 'optional'}`,
    ...protocolLines(c),
  ];
  if (hasHeldChange(c)) {
    lines.push(`held change:   ${heldChange(c)}`);
    // The operator's next step, with the version just shown so that a newer change is not decided unseen.
    lines.push(`to decide:     gatehouse clients approve ${c.clientId} --version ${c.version} (accepts it); gatehouse clients reject ${c.clientId} --version ${c.version} --reason TEXT (refuses it)`);
  }
  for (const s of c.secrets) lines.push(`secret ${s.id}: …${s.lastFour}, created ${formatTime(s.createdAt)}, last used ${formatTime(s.lastUsedAt)}`);
  return lines;
}

/** `clients show --json`: the same snake_case names as the other commands' output. */
function showJson(c: ClientView, ownerEmail: string) {
  return {
    client_id: c.clientId,
    name: c.name,
    description: c.description,
    homepage_url: c.homepageUrl,
    logo_url: c.logoUrl,
    owner_id: c.ownerId,
    owner_email: ownerEmail,
    kind: c.kind,
    state: c.state,
    version: c.version,
    review_note: c.reviewNote,
    reviewed_by: c.reviewedBy,
    reviewed_at: c.reviewedAt === null ? null : formatTime(c.reviewedAt),
    legacy: c.legacy,
    redirect_uris: c.redirectUris,
    scopes: c.scopes,
    require_pushed_authorization_requests: c.requirePushedAuthorizationRequests,
    proposed_redirect_uris: c.proposedRedirectUris,
    proposed_scopes: c.proposedScopes,
    dpop_bound_access_tokens: c.dpopBoundAccessTokens,
    fapi2: c.fapi2,
    token_endpoint_auth_method: c.tokenEndpointAuthMethod,
    jwks: c.jwks,
    id_token_signed_response_alg: c.idTokenSignedResponseAlg,
    post_logout_redirect_uris: c.postLogoutRedirectUris,
    created_at: formatTime(c.createdAt),
    updated_at: formatTime(c.updatedAt),
    secrets: c.secrets.map((s) => ({ id: s.id, last_four: s.lastFour, created_at: formatTime(s.createdAt), last_used_at: s.lastUsedAt === null ? null : formatTime(s.lastUsedAt) })),
  };
}

export function registerClientCommands(program: Command, runtime: CliRuntime): void {
  const clients = program.command('clients').description('register, review and inspect OAuth clients');
  registerClientUpdateCommand(clients, runtime);
  registerRegistrationCommands(clients, runtime);
  registerClientReviewCommands(clients, runtime);
  registerInspectionCommands(clients, runtime);
  registerClientEventsCommands(clients, runtime);
  registerSecretCommands(program, runtime);
}

/** `clients create` and `clients import-legacy` (docs/rules.md#client-states, docs/rules.md#client-record, docs/rules.md#legacy-clients). */
function registerRegistrationCommands(clients: Command, runtime: CliRuntime): void {
  clients
    .command('create')
    .description('register a client for a developer; it starts pending')
    .requiredOption('--owner <email>', 'the developer who owns the client')
    .requiredOption('--name <name>', 'application name shown on the consent page')
    .option('--description <text>', 'what the application does')
    .option('--homepage <url>', 'application homepage')
    .option('--logo <url>', 'logo URL (https), shown on the consent page')
    .option('--redirect-uri <uri>', 'registered redirect URI (repeat, 1-10)', collect, [])
    .option('--scope <scope>', 'enabled scope (repeat, at least one)', collect, [])
    .option('--public', 'a public client (PKCE, no secret)')
    .option('--require-par', 'require pushed authorization requests (RFC 9126) of this client')
    .option('--require-dpop', 'require a DPoP proof on every token request of this client (RFC 9449 dpop_bound_access_tokens)')
    .option('--fapi2', 'the client follows the FAPI 2.0 Security Profile: PAR, PKCE S256, DPoP and private_key_jwt required (confidential clients; give --auth-method private_key_jwt and --jwks-file)')
    .option('--auth-method <method>', AUTH_METHOD_HELP)
    .option('--jwks-file <path>', JWKS_FILE_HELP)
    .option('--id-token-alg <alg>', ID_TOKEN_ALG_HELP)
    .option('--post-logout-redirect-uri <uri>', POST_LOGOUT_HELP, collect, [])
    .addOption(jsonOption())
    .action(async (opts: { owner: string; name: string; description?: string; homepage?: string; logo?: string; redirectUri: string[]; scope: string[]; public?: boolean; requirePar?: boolean; requireDpop?: boolean; fapi2?: boolean; authMethod?: string; jwksFile?: string; idTokenAlg?: string; postLogoutRedirectUri: string[]; json?: boolean }) => {
      const jwks = opts.jwksFile === undefined ? undefined : readJwksFile(opts.jwksFile);
      const { client, secret } = await runtime.withServices(async (s) => {
        const owner = await requireUserByEmail(s, opts.owner);
        return createClient(s, {
          ownerId: owner.id,
          name: opts.name,
          description: opts.description,
          homepageUrl: opts.homepage,
          logoUrl: opts.logo,
          kind: opts.public ? 'public' : 'confidential',
          redirectUris: opts.redirectUri,
          scopes: opts.scope,
          requirePushedAuthorizationRequests: opts.requirePar === true,
          dpopBoundAccessTokens: opts.requireDpop === true,
          fapi2: opts.fapi2 === true,
          ...(opts.authMethod !== undefined ? { tokenEndpointAuthMethod: opts.authMethod } : {}),
          ...(jwks !== undefined ? { jwks } : {}),
          ...(opts.idTokenAlg !== undefined ? { idTokenSignedResponseAlg: opts.idTokenAlg } : {}),
          postLogoutRedirectUris: opts.postLogoutRedirectUri,
          actorId: CLI_OPERATOR,
        });
      });
      runtime.emit(!!opts.json, { client_id: client.clientId, client_secret: secret, state: client.state, kind: client.kind }, () =>
        [`client_id: ${client.clientId}`, secret ? `client_secret: ${secret}  (shown once; store it now)` : 'public client: no secret, use PKCE', `state: ${client.state} (an admin must approve it)`],
      );
    });

  clients
    .command('import-legacy')
    .description('carry over a client from before scopes existed (approved, no scope enforcement)')
    .requiredOption('--owner <email>', 'the developer who owns the client')
    .requiredOption('--name <name>', 'application name')
    .option('--redirect-uri <uri>', 'registered redirect URI (repeat, 1-10)', collect, [])
    .option('--public', 'a public client (PKCE, no secret)')
    .addOption(jsonOption())
    .action(async (opts: { owner: string; name: string; redirectUri: string[]; public?: boolean; json?: boolean }) => {
      const { client, secret } = await runtime.withServices(async (s) => {
        const owner = await requireUserByEmail(s, opts.owner);
        return importLegacyClient(s, { ownerId: owner.id, name: opts.name, kind: opts.public ? 'public' : 'confidential', redirectUris: opts.redirectUri, actorId: CLI_OPERATOR });
      });
      runtime.emit(!!opts.json, { client_id: client.clientId, client_secret: secret, state: client.state, legacy: true }, () =>
        [`client_id: ${client.clientId}`, secret ? `client_secret: ${secret}  (shown once; store it now)` : '', 'legacy client: approved, no scope enforcement'].filter(Boolean),
      );
    });
}

/** `clients list`, `clients resource-server` (docs/rules.md#introspection) and `clients show`. */
function registerInspectionCommands(clients: Command, runtime: CliRuntime): void {
  clients
    .command('list')
    .description('list clients')
    .option('--state <state>', 'only clients in this state (pending, approved, rejected, suspended)')
    .addOption(jsonOption())
    .action(async (opts: { state?: string; json?: boolean }) => {
      const states = ['pending', 'approved', 'rejected', 'suspended'];
      if (opts.state !== undefined && !states.includes(opts.state)) throw new CliError(`--state must be one of ${states.join(', ')}`);
      const list = await runtime.withServices((s) => listClients(s, opts.state ? { state: opts.state as ClientState } : {}));
      runtime.emit(
        !!opts.json,
        list.map((c) => ({ client_id: c.clientId, name: c.name, kind: c.kind, state: c.state, legacy: c.legacy, change_awaiting_review: hasHeldChange(c) })),
        () =>
          list.length === 0
            ? 'no clients'
            : list
                .map((c) => `${c.clientId}  ${c.state.padEnd(9)}  ${c.kind.padEnd(12)}  ${c.name}${c.legacy ? '  (legacy)' : ''}${hasHeldChange(c) ? '  (change awaiting review)' : ''}`),
      );
    });

  clients
    .command('resource-server')
    .argument('<clientId>', "the client's client_id, as `clients list` prints it")
    .description('mark a client as a resource server, which may introspect any token (--off removes the mark)')
    .option('--off', 'remove the mark')
    .addOption(jsonOption())
    .action(async (clientId: string, opts: { off?: boolean; json?: boolean }) => {
      await runtime.withServices((s) => setResourceServer(s, clientId, !opts.off, CLI_OPERATOR));
      runtime.emit(!!opts.json, { client_id: clientId, resource_server: !opts.off }, () => `client ${clientId} ${opts.off ? 'is no longer' : 'is now'} a resource server`);
    });

  clients
    .command('show')
    .argument('<clientId>', "the client's client_id, as `clients list` prints it")
    .description('show one client with its secrets (last four characters only)')
    .addOption(jsonOption())
    .action(async (clientId: string, opts: { json?: boolean }) => {
      const { client, ownerEmail } = await runtime.withServices(async (s) => {
        const found = await requireClient(s, clientId);
        // The owner is named by email, as people are everywhere in the CLI's text.
        return { client: found, ownerEmail: (await findUserById(s, found.ownerId))?.email ?? found.ownerId };
      });
      runtime.emit(!!opts.json, showJson(client, ownerEmail), () => describe(client, ownerEmail));
    });
}

/** `secrets add` and `secrets remove` (docs/rules.md#secret-rotation, docs/rules.md#client-secrets). */
function registerSecretCommands(program: Command, runtime: CliRuntime): void {
  const secrets = program.command('secrets').description('rotate client secrets (at most 2 active, never fewer than 1)');
  secrets
    .command('add')
    .argument('<clientId>', "the client's client_id, as `clients list` prints it")
    .description('add a secret; it is shown once')
    .addOption(jsonOption())
    .action(async (clientId: string, opts: { json?: boolean }) => {
      const created = await runtime.withServices((s) => addSecret(s, clientId, CLI_OPERATOR));
      runtime.emit(!!opts.json, { secret_id: created.id, client_secret: created.secret }, () => `secret ${created.id}: ${created.secret}  (shown once; store it now)`);
    });
  secrets
    .command('remove')
    .argument('<clientId>', "the client's client_id, as `clients list` prints it")
    .argument('<secretId>', 'the secret\'s id, as `clients show` prints it')
    .description('remove a secret at once; the last one cannot be removed')
    .addOption(jsonOption())
    .action(async (clientId: string, secretId: string, opts: { json?: boolean }) => {
      await runtime.withServices((s) => removeSecret(s, clientId, secretId, CLI_OPERATOR));
      runtime.emit(!!opts.json, { removed: secretId }, () => `removed secret ${secretId}`);
    });
}
