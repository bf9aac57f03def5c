// The walk-throughs the documentation gives, run as written against a real server:
// - the README's quick start: `npx gatehouse demo` (through the function bin/gatehouse.mjs
//   runs), the token request it prints and the README's `curl` of /v2/me, both run by a shell
//   with the code and the token in place, as a reader pastes them;
// - the "Connect your app" program of docs/integrating.md: the fenced block between the
//   connect-your-app markers is given to `node` as it stands, with the environment the guide
//   tells a reader to set; and the openid-client program of "Sign in with Gatehouse" likewise.
// The browser step (log in, Allow) is the harness browser; the redirect back is fetched from
// the program's own callback server, as a browser would follow it.
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { runCli } from '../helpers/cli.ts';
import { projectRoot } from '../helpers/project-root.ts';
import { loggedIn } from '../helpers/pages.ts';
import { freePort } from '../helpers/ports.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/** The fenced block of `file` between `<!-- NAME:start -->` and `<!-- NAME:end -->`. */
function block(file: string, name: string, language: string): string {
  const text = readFileSync(join(projectRoot, file), 'utf8');
  const match = new RegExp(`<!-- ${name}:start -->\\n\`\`\`${language}\\n([^]*?)\`\`\`\\n<!-- ${name}:end -->`).exec(text);
  if (match === null) throw new Error(`${file} has no ${name} block`);
  return match[1]!;
}

const walkthrough = () => block('docs/integrating.md', 'connect-your-app', 'js');
const signInProgram = () => block('docs/integrating.md', 'sign-in-with-gatehouse', 'js');

/** A block's commands: its lines without their comments. */
const commandsOf = (script: string) =>
  script
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '');

const sh = promisify(execFile);
const hasCurl = ['/usr/bin/curl', '/bin/curl', '/usr/local/bin/curl'].some((path) => existsSync(path));

describe('the README\'s quick start on sqlite', { timeout: 120_000 }, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => server?.close());

  it('says to start the server and run the demo, in the two terminals', () => {
    expect(commandsOf(block('README.md', 'quick-start', 'sh'))).toEqual(['npm ci && npm start', 'npx gatehouse demo']);
  });

  it.skipIf(!hasCurl)('demo, Allow, the printed token request and the README\'s /v2/me call reach the demo user\'s profile', async () => {
    // `npx gatehouse demo`, pointed at this server as the README's section on ports says:
    // with the server's PORT and nothing else.
    const port = new URL(server.url).port;
    const [, args] = /^npx gatehouse (.*)$/.exec(commandsOf(block('README.md', 'quick-start', 'sh'))[1]!)!;
    const onAnotherPort = commandsOf(block('README.md', 'another-port', 'sh'));
    expect(onAnotherPort).toEqual(['PORT=4000 npm start', `PORT=4000 npx gatehouse ${args}`]);
    const env = { DATABASE_URL: server.database.url, PORT: port };
    const demo = await runCli(args!.split(' '), { env });
    expect(demo.code, demo.stderr).toBe(0);
    const password = /^demo user: +demo@example\.com \/ password (\S+)/m.exec(demo.stdout)![1]!;
    const authorizationUrl = new URL(/^ {2}(http\S+\/auth\/oauth2\/authorize\?\S+)$/m.exec(demo.stdout)![1]!);
    const tokenRequest = /^ {2}(curl .*CODE_FROM_REDIRECT)$/m.exec(demo.stdout)![1]!;
    expect(demo.stdout).not.toContain('localhost:3000');

    // Steps 1 and 2: log in as the demo user, Allow, and take the code from the address.
    const browser = server.browser();
    expect((await browser.login('demo@example.com', password)).status).toBe(303);
    const back = await server.authorize(browser, Object.fromEntries(authorizationUrl.searchParams));
    expect(`${back.origin}${back.pathname}`).toBe('http://localhost:8080/callback');
    const code = back.searchParams.get('code')!;

    // Step 3: the printed curl command, run by a shell with the code in place.
    const exchange = await sh('sh', ['-c', tokenRequest.replace('CODE_FROM_REDIRECT', code)]);
    const tokens = JSON.parse(exchange.stdout) as { access_token: string; scope: string };
    expect(tokens.access_token).toMatch(/^gat_/);
    expect(tokens.scope).toBe('BOOKING_READ PROFILE_READ');

    // Step 4: the README's block, with the token of the answer and this server's address.
    const [assignment, call] = commandsOf(block('README.md', 'quick-start-api', 'sh'));
    expect(assignment).toBe('ACCESS_TOKEN=gat_...');
    const me = await sh('sh', ['-c', call!.replace('http://localhost:3000', server.url)], { env: { PATH: process.env.PATH ?? '', ACCESS_TOKEN: tokens.access_token } });
    // The README shows the id as a number, as the platform writes it (docs/rules.md#numbered-ids).
    expect(JSON.parse(me.stdout)).toMatchObject({ status: 'success', data: { id: expect.any(Number), email: 'demo@example.com', name: 'Demo User' } });
    // And the same call as demo printed it last, with the token in place, on PORT's address.
    const printedMe = /^ {2}(curl -s \S+\/v2\/me .*ACCESS_TOKEN.*)$/m.exec(demo.stdout)![1]!;
    expect(printedMe).toBe(`curl -s http://localhost:${port}/v2/me -H "Authorization: Bearer ACCESS_TOKEN"`);
    const printed = await sh('sh', ['-c', printedMe.replace('ACCESS_TOKEN', tokens.access_token)]);
    expect(JSON.parse(printed.stdout)).toMatchObject({ status: 'success', data: { email: 'demo@example.com' } });
  });
});

async function waitFor(output: () => string, pattern: RegExp, what: string): Promise<RegExpExecArray> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = pattern.exec(output());
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no ${what} within 60 s:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.each(backends)('the programs of docs/integrating.md ("Connect your app", "Sign in with Gatehouse") on $name', { timeout: 120_000 }, ({ name, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer(name);
  });
  afterAll(async () => server?.close());

  it.skipIf(!available)('the walk-through, as printed, signs a user in through the consent page and calls /v2/me', async () => {
    const port = await freePort();
    const redirectUri = `http://127.0.0.1:${port}/callback`;
    const developer = await server.user();
    const client = await server.client(developer, { redirectUris: [redirectUri], scopes: ['PROFILE_READ', 'BOOKING_READ'] });
    const { user, browser } = await loggedIn(server, { name: 'Walk Through' });

    // As a reader runs it: `node connect.mjs`, from where oauth4webapi is installed.
    const { child, output, exited } = runAsPrinted(walkthrough(), { GATEHOUSE_URL: server.url, CLIENT_ID: client.clientId, CLIENT_SECRET: client.secret!, REDIRECT_URI: redirectUri });
    try {
      const [, printed] = await waitFor(() => output.stdout, /^(http:\/\/\S+\/auth\/oauth2\/authorize\?\S+)$/m, 'authorization URL');
      const url = new URL(printed!);
      expect(url.searchParams.get('response_type')).toBe('code');
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');

      // The user logs in and chooses Allow; the browser then follows the redirect back.
      const callback = await server.authorize(browser, Object.fromEntries(url.searchParams));
      expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
      const landed = await waitForCallback(callback);
      expect(landed, output.stderr).toEqual({ status: 200, text: 'Connected: you can close this tab.' });

      expect(await exited).toBe(0);
      expect(output.stdout).toContain(`Signed in as Walk Through <${user.email}>\n`);
      expect(output.stderr).toBe('');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it.skipIf(!available)('"Sign in with Gatehouse": the openid-client program, as printed, signs a user in with an ID token and reads UserInfo', async () => {
    const port = await freePort();
    const redirectUri = `http://127.0.0.1:${port}/callback`;
    const developer = await server.user();
    const client = await server.client(developer, { redirectUris: [redirectUri], scopes: ['openid', 'profile', 'email'] });
    const { user, browser } = await loggedIn(server, { name: 'Sign In' });

    const { child, output, exited } = runAsPrinted(signInProgram(), { GATEHOUSE_URL: server.url, CLIENT_ID: client.clientId, CLIENT_SECRET: client.secret!, REDIRECT_URI: redirectUri });
    try {
      const [, printed] = await waitFor(() => output.stdout, /^(http:\/\/\S+\/auth\/oauth2\/authorize\?\S+)$/m, 'authorization URL');
      const url = new URL(printed!);
      expect(url.searchParams.get('scope')).toBe('openid profile email');
      expect(url.searchParams.get('nonce')).toBeTruthy();
      const callback = await server.authorize(browser, Object.fromEntries(url.searchParams));
      const landed = await waitForCallback(callback);
      expect(landed, output.stderr).toEqual({ status: 200, text: 'Signed in: you can close this tab.' });
      expect(await exited).toBe(0);
      expect(output.stdout).toContain(`Signed in as Sign In <${user.email}> (sub ${user.id})\n`);
      expect(output.stderr).toBe('');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});

/** A program of the docs run as a reader runs it (`node --input-type=module`, from the project, with `env`), its output gathered as it comes. */
function runAsPrinted(program: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--input-type=module'], { cwd: projectRoot, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (c: Buffer) => (output.stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output.stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stdin.end(program);
  return { child, output, exited };
}

/** The script's callback server listens once it has printed the URL; a refused connection is retried until it does. */
async function waitForCallback(callback: URL): Promise<{ status: number; text: string }> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const res = await fetch(callback);
      return { status: res.status, text: await res.text() };
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
