// `gatehouse clients update` (docs/rules.md#cli, docs/rules.md#legacy-clients, docs/rules.md#client-changes): the developer's edit from a
// script. On an approved client, added redirect URIs and scopes are held for review; on
// a legacy client --scope is its migration, and --yes confirms it when recent
// authorization requests came without scope.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { formatScopes } from '../oauth/scopes.ts';
import { CLI_OPERATOR } from '../services/actors.ts';
import { updateClient, type ClientEdit, type EditResult } from '../services/clients/changes.ts';
import { requireClient } from '../services/clients/view.ts';
import type { ServiceContext } from '../services/context.ts';
import { ServiceError } from '../services/errors.ts';
import { liveLines, protocolLines } from './client-details.ts';
import { CliError } from './output.ts';
import { jsonOption, type CliRuntime } from './runtime.ts';

const collect = (value: string, previous: string[] = []) => [...previous, value];

interface UpdateOptions {
  name?: string;
  description?: string;
  homepage?: string;
  logo?: string;
  redirectUri: string[];
  scope: string[];
  /** docs/rules.md#pushed-authorization: --require-par / --no-require-par. */
  requirePar?: boolean;
  /** docs/rules.md#dpop: --require-dpop / --no-require-dpop. */
  requireDpop?: boolean;
  /** docs/rules.md#fapi2: --fapi2 / --no-fapi2. */
  fapi2?: boolean;
  /** docs/rules.md#client-authentication: --auth-method and --jwks-file. */
  authMethod?: string;
  jwksFile?: string;
  /** OpenID Connect: --id-token-alg and --post-logout-redirect-uri. */
  idTokenAlg?: string;
  postLogoutRedirectUri: string[];
  /** False by --no-post-logout-redirect-uris: remove them all. */
  postLogoutRedirectUris?: boolean;
  yes?: boolean;
  json?: boolean;
}

/** docs/rules.md#client-authentication: the JWK Set file's text; the service checks what it holds. */
export function readJwksFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read --jwks-file ${path}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
}

export const AUTH_METHOD_HELP = 'how the client authenticates: private_key_jwt (needs --jwks-file), client_secret_basic, client_secret_post, or none (public clients)';
export const JWKS_FILE_HELP = "a file holding the client's public keys, a JWK Set (JSON), for private_key_jwt";
export const ID_TOKEN_ALG_HELP = 'the algorithm of its ID tokens (OpenID Connect): RS256 (the default), PS256, ES256 or EdDSA; "" for the default';
export const POST_LOGOUT_HELP = 'where logout may return (OpenID Connect RP-initiated logout), on the origin of one of its redirect URIs (repeat)';

/** The edit the options ask for: only the fields given, by their service names. */
function editFromOptions(opts: UpdateOptions): ClientEdit {
  const edit: ClientEdit = {
    ...(opts.name !== undefined ? { name: opts.name } : {}),
    ...(opts.description !== undefined ? { description: opts.description } : {}),
    ...(opts.homepage !== undefined ? { homepageUrl: opts.homepage } : {}),
    ...(opts.logo !== undefined ? { logoUrl: opts.logo } : {}),
    ...(opts.redirectUri.length > 0 ? { redirectUris: opts.redirectUri } : {}),
    ...(opts.scope.length > 0 ? { scopes: opts.scope } : {}),
    ...(opts.requirePar !== undefined ? { requirePushedAuthorizationRequests: opts.requirePar } : {}),
    ...(opts.requireDpop !== undefined ? { dpopBoundAccessTokens: opts.requireDpop } : {}),
    ...(opts.fapi2 !== undefined ? { fapi2: opts.fapi2 } : {}),
    ...(opts.authMethod !== undefined ? { tokenEndpointAuthMethod: opts.authMethod } : {}),
    ...(opts.jwksFile !== undefined ? { jwks: readJwksFile(opts.jwksFile) } : {}),
    ...(opts.idTokenAlg !== undefined ? { idTokenSignedResponseAlg: opts.idTokenAlg } : {}),
    ...(opts.postLogoutRedirectUri.length > 0 ? { postLogoutRedirectUris: opts.postLogoutRedirectUri } : {}),
    ...(opts.postLogoutRedirectUris === false ? { postLogoutRedirectUris: [] } : {}),
  };
  if (Object.keys(edit).length === 0) {
    throw new CliError('nothing to change: give --name, --description, --homepage, --logo, --redirect-uri, --scope, --require-par, --no-require-par, --require-dpop, --no-require-dpop, --fapi2, --no-fapi2, --auth-method, --jwks-file, --id-token-alg or --post-logout-redirect-uri');
  }
  return edit;
}

async function applyEdit(s: ServiceContext, clientId: string, edit: ClientEdit, yes: boolean): Promise<EditResult> {
  try {
    // The operator edits the developer's client for them; the audit trail says who did it.
    await requireClient(s, clientId);
    return await updateClient(s, clientId, CLI_OPERATOR, edit, { confirmScopeless: yes });
  } catch (error) {
    // docs/rules.md#legacy-clients: on the command line, the confirmation is --yes.
    if (error instanceof ServiceError && error.field === 'confirm') throw new CliError(`${error.message} (rerun with --yes)`);
    throw error;
  }
}

function emitResult(runtime: CliRuntime, json: boolean, result: EditResult): void {
  const c = result.client;
  runtime.emit(
    json,
    {
      client_id: c.clientId,
      state: c.state,
      legacy: c.legacy,
      migrated: result.migrated,
      resubmitted: result.resubmitted,
      redirect_uris: c.redirectUris,
      scopes: c.scopes,
      require_pushed_authorization_requests: c.requirePushedAuthorizationRequests,
      dpop_bound_access_tokens: c.dpopBoundAccessTokens,
      fapi2: c.fapi2,
      token_endpoint_auth_method: c.tokenEndpointAuthMethod,
      jwks: c.jwks,
      awaiting_review: { redirect_uris: result.held.redirectUris, scopes: result.held.scopes },
    },
    () =>
      [
        `client ${c.clientId} updated (${c.state}${result.resubmitted ? ', resubmitted for review' : ''})`,
        result.migrated ? `migrated: scope-enforced with ${formatScopes(c.scopes)}` : '',
        ...liveLines(c),
        `pushed authorization requests: ${c.requirePushedAuthorizationRequests ? 'required' : 'optional'}`,
        ...protocolLines(c),
        result.held.redirectUris.length + result.held.scopes.length > 0
          ? `awaiting admin review: ${[...result.held.redirectUris, ...result.held.scopes].join(', ')}`
          : '',
      ].filter(Boolean),
  );
}

export function registerClientUpdateCommand(clients: Command, runtime: CliRuntime): void {
  clients
    .command('update')
    .argument('<clientId>', "the client's client_id, as `clients list` prints it")
    .description('change a client; on an approved client added redirect URIs and scopes await admin review')
    .option('--name <name>', 'application name')
    .option('--description <text>', 'what the application does')
    .option('--homepage <url>', 'application homepage')
    .option('--logo <url>', 'logo URL (https)')
    .option('--redirect-uri <uri>', 'the complete list of redirect URIs (repeat, 1-10)', collect, [])
    .option('--scope <scope>', 'the complete list of scopes (repeat); on a legacy client this migrates it', collect, [])
    .option('--require-par', 'require pushed authorization requests (RFC 9126) of this client')
    .option('--no-require-par', 'let this client send authorization requests in the browser again')
    .option('--require-dpop', 'require a DPoP proof on every token request of this client (RFC 9449 dpop_bound_access_tokens)')
    .option('--no-require-dpop', 'let this client ask for tokens without a DPoP proof again')
    .option('--fapi2', 'the client follows the FAPI 2.0 Security Profile: PAR, PKCE S256, DPoP and private_key_jwt required (confidential clients; give --auth-method private_key_jwt and --jwks-file)')
    .option('--no-fapi2', 'the client no longer follows the FAPI 2.0 Security Profile')
    .option('--auth-method <method>', AUTH_METHOD_HELP)
    .option('--jwks-file <path>', JWKS_FILE_HELP)
    .option('--id-token-alg <alg>', ID_TOKEN_ALG_HELP)
    .option('--post-logout-redirect-uri <uri>', `the complete list: ${POST_LOGOUT_HELP}`, collect, [])
    .option('--no-post-logout-redirect-uris', 'remove every post-logout redirect URI')
    .option('--yes', 'confirm a legacy migration although recent authorization requests lacked scope')
    .addOption(jsonOption())
    .action(async (clientId: string, opts: UpdateOptions) => {
      const edit = editFromOptions(opts);
      const result = await runtime.withServices((s) => applyEdit(s, clientId, edit, !!opts.yes));
      emitResult(runtime, !!opts.json, result);
    });
}
