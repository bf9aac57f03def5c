// `gatehouse demo` (docs/rules.md#cli): a demo user and an approved client, and a ready authorization
// URL. Idempotent: a second run reuses both, so there is one demo client however often it
// runs. A lost password or secret is replaced only when asked (--reset-password,
// --reset-secret), since a second run must not break what the first one set up. With
// --redirect-uri the demo sends the browser to the developer's own callback instead of the
// default one that nothing listens on; the operator running it approves that address too.
import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { DEFAULT_PORT, type Config } from '../config/index.ts';
import { AUTHORIZE_PATH } from '../http/oauth/paths.ts';
import { CLI_OPERATOR } from '../services/actors.ts';
import { createUser, findUserByEmail, resetPassword, type User } from '../services/accounts/users.ts';
import type { ServiceContext } from '../services/context.ts';
import { createClient } from '../services/clients/registration.ts';
import { approveHeldChanges, reviewClient } from '../services/clients/review.ts';
import { updateClient } from '../services/clients/changes.ts';
import { replaceSecrets } from '../services/clients/secrets.ts';
import { listClients } from '../services/clients/view.ts';
import { jsonOption, type CliRuntime } from './runtime.ts';

const DEMO_EMAIL = 'demo@example.com';
const DEMO_CLIENT_NAME = 'Demo Application';
const DEFAULT_REDIRECT_URI = 'http://localhost:8080/callback';
const SCOPES = ['PROFILE_READ', 'BOOKING_READ'];

interface DemoOptions {
  resetPassword?: boolean;
  resetSecret?: boolean;
  redirectUri?: string;
  json?: boolean;
}

interface DemoSetup {
  email: string;
  /** Set when this run chose the password: a new user, or --reset-password. */
  password: string | null;
  clientId: string;
  /** Set when this run made the secret: a new client, or --reset-secret. */
  secret: string | null;
  clientState: string;
}

const newPassword = () => randomBytes(12).toString('base64url');

async function demoUser(s: ServiceContext, reset: boolean): Promise<{ user: User; password: string | null }> {
  const existing = await findUserByEmail(s, DEMO_EMAIL);
  const password = existing === undefined || reset ? newPassword() : null;
  if (existing === undefined) return { user: await createUser(s, { email: DEMO_EMAIL, name: 'Demo User', password: password! }, { actorId: CLI_OPERATOR }), password };
  if (password !== null) await resetPassword(s, DEMO_EMAIL, password, CLI_OPERATOR);
  return { user: existing, password };
}

async function setUp(s: ServiceContext, opts: DemoOptions, redirectUri: string): Promise<DemoSetup> {
  const { user, password } = await demoUser(s, !!opts.resetPassword);
  const existing = (await listClients(s, { ownerId: user.id })).find((c) => c.name === DEMO_CLIENT_NAME);
  if (existing === undefined) {
    const { client, secret } = await createClient(s, {
      ownerId: user.id,
      name: DEMO_CLIENT_NAME,
      homepageUrl: 'http://localhost:8080',
      kind: 'confidential',
      redirectUris: [redirectUri],
      scopes: SCOPES,
    });
    const approved = await reviewClient(s, client.clientId, 'approve', CLI_OPERATOR, 'demo');
    return { email: user.email, password, clientId: client.clientId, secret, clientState: approved.state };
  }
  // A new callback joins the ones it has, held for review as any addition is
  // (docs/rules.md#client-changes), and approved at once: whoever runs demo is the operator.
  if (!existing.redirectUris.includes(redirectUri)) {
    await updateClient(s, existing.clientId, CLI_OPERATOR, { redirectUris: [...existing.redirectUris, redirectUri] });
    await approveHeldChanges(s, existing.clientId, CLI_OPERATOR);
  }
  // An operator may have suspended or rejected it on purpose: only a pending one is approved.
  const state = existing.state === 'pending' ? (await reviewClient(s, existing.clientId, 'approve', CLI_OPERATOR, 'demo')).state : existing.state;
  const secret = opts.resetSecret ? (await replaceSecrets(s, existing.clientId, CLI_OPERATOR)).secret : null;
  return { email: user.email, password, clientId: existing.clientId, secret, clientState: state };
}

/**
 * When neither PORT nor the addresses are set where the command runs, its links assume a
 * server on the default port (config/index.ts: localAddress): say so, and what to set when
 * `gatehouse serve` runs elsewhere. None when the addresses come from the settings.
 */
export function addressesNote(config: Config): string[] {
  if (config.addressesAssumed.length === 0) return [];
  return [
    `Addresses below assume the server at http://localhost:${DEFAULT_PORT} (no PORT, ${config.addressesAssumed.join(' or ')} set here).`,
    'If `gatehouse serve` runs with another PORT, run this with the same one (PORT=4000 npx gatehouse demo);',
    'behind a proxy or on another host, with its APP_URL and BASE_URL.',
  ];
}

export function registerDemoCommand(program: Command, runtime: CliRuntime): void {
  program
    .command('demo')
    .description('create a demo user and an approved client (or reuse them), and print a ready authorization URL')
    .option('--reset-password', "give the demo user a new password and print it (the old one stops working)")
    .option('--reset-secret', "give the demo client a new secret and print it (the old ones stop working)")
    .option('--redirect-uri <uri>', `where the browser goes back with the code: your application's callback (default ${DEFAULT_REDIRECT_URI}, where nothing listens)`)
    .addOption(jsonOption())
    .action(async (opts: DemoOptions) => {
      const config = runtime.config();
      const redirectUri = opts.redirectUri ?? DEFAULT_REDIRECT_URI;
      const result = await runtime.withServices((s) => setUp(s, opts, redirectUri));
      const state = randomBytes(8).toString('hex');
      const authorizeUrl = `${config.appUrl}${AUTHORIZE_PATH}?${new URLSearchParams({
        response_type: 'code',
        client_id: result.clientId,
        redirect_uri: redirectUri,
        scope: SCOPES.join(' '),
        state,
      })}`;
      const tokenUrl = `${config.baseUrl}/v2/auth/oauth2/token`;
      const secretArg = result.secret ?? 'YOUR_CLIENT_SECRET';
      const curl = `curl -s ${tokenUrl} -d grant_type=authorization_code -d client_id=${result.clientId} -d client_secret=${secretArg} -d redirect_uri=${encodeURIComponent(redirectUri)} -d code=CODE_FROM_REDIRECT`;
      // The quick start's last step (README.md): the API call the access token is for.
      const meCurl = `curl -s ${config.baseUrl}/v2/me -H "Authorization: Bearer ACCESS_TOKEN"`;
      const assumed = addressesNote(config);
      runtime.emit(
        !!opts.json,
        {
          user: { email: result.email, password: result.password },
          client_id: result.clientId,
          client_secret: result.secret,
          client_state: result.clientState,
          redirect_uri: redirectUri,
          authorization_url: authorizeUrl,
          token_url: tokenUrl,
          curl,
          me_curl: meCurl,
          addresses_assumed: config.addressesAssumed,
        },
        () =>
          [
            ...(assumed.length === 0 ? [] : [...assumed, '']),
            `demo user:      ${result.email}${result.password ? ` / password ${result.password}  (shown once)` : ' (already existed; password unchanged: `gatehouse demo --reset-password` sets a new one)'}`,
            `client_id:      ${result.clientId}${result.clientState === 'approved' ? '' : `  (${result.clientState}: \`gatehouse clients approve ${result.clientId}\` to use it)`}`,
            `client_secret:  ${result.secret ? `${result.secret}  (shown once)` : '(shown when it was made; `gatehouse demo --reset-secret` replaces it)'}`,
            `token URL:      ${tokenUrl} (also for refresh)`,
            '',
            'Open in a browser (with `gatehouse serve` running) and log in as the demo user:',
            `  ${authorizeUrl}`,
            '',
            `The browser lands on ${redirectUri}?code=...; exchange the code within 60 seconds:`,
            `  ${curl}`,
            '',
            'Then call the API with the access_token of the answer in place of ACCESS_TOKEN:',
            `  ${meCurl}`,
          ],
      );
    });
}
