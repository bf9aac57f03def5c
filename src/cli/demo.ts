import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { createClient } from '../services/clients/registration.ts';
import { reviewClient } from '../services/clients/review.ts';
import { createUser, findUserByEmail } from '../services/accounts/users.ts';
import { emit } from './output.ts';
import { jsonOption, type CliRuntime } from './runtime.ts';

export function registerDemoCommand(program: Command, runtime: CliRuntime): void {
  program
    .command('demo')
    .description('create a demo user and an approved client, and print a ready authorization URL')
    .addOption(jsonOption())
    .action(async (opts: { json?: boolean }) => {
      const config = runtime.config();
      const redirectUri = 'http://localhost:8080/callback';
      const result = await runtime.withServices(async (s) => {
        const email = 'demo@example.com';
        let password: string | null = null;
        let user = await findUserByEmail(s, email);
        if (user === undefined) {
          password = randomBytes(9).toString('base64url');
          user = await createUser(s, { email, name: 'Demo User', password });
        }
        const { client, secret } = await createClient(s, {
          ownerId: user.id,
          name: 'Demo Application',
          homepageUrl: 'http://localhost:8080',
          kind: 'confidential',
          redirectUris: [redirectUri],
          scopes: ['PROFILE_READ', 'BOOKING_READ'],
        });
        await reviewClient(s, client.clientId, 'approve', null, 'demo');
        return { email, password, clientId: client.clientId, secret: secret! };
      });
      const state = randomBytes(8).toString('hex');
      const authorizeUrl = `${config.appUrl}/auth/oauth2/authorize?${new URLSearchParams({
        client_id: result.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'PROFILE_READ BOOKING_READ',
        state,
      })}`;
      const tokenUrl = `${config.baseUrl}/v2/auth/oauth2/token`;
      const curl = `curl -s ${tokenUrl} -d grant_type=authorization_code -d client_id=${result.clientId} -d client_secret=${result.secret} -d redirect_uri=${encodeURIComponent(redirectUri)} -d code=CODE_FROM_REDIRECT`;
      emit(
        !!opts.json,
        { user: { email: result.email, password: result.password }, client_id: result.clientId, client_secret: result.secret, authorization_url: authorizeUrl, token_url: tokenUrl, curl },
        () =>
          [
            `demo user:      ${result.email}${result.password ? ` / password ${result.password}` : ' (already existed; password unchanged)'}`,
            `client_id:      ${result.clientId}`,
            `client_secret:  ${result.secret}`,
            `token URL:      ${tokenUrl} (also for refresh)`,
            '',
            'Open in a browser (with `gatehouse serve` running) and log in as the demo user:',
            `  ${authorizeUrl}`,
            '',
            'The browser lands on http://localhost:8080/callback?code=...; exchange the code within 60 seconds:',
            `  ${curl}`,
          ].join('\n'),
      );
    });
}
