// The README's "Connect your app" walk-through, run verbatim: the fenced block between the
// connect-your-app markers is given to `node` as it stands, with the environment the README
// tells a reader to set, against a real server. The browser step (log in, Allow) is the
// harness browser with a logged-in session; the redirect back is fetched from the script's
// own callback server, as a browser would follow it.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { projectRoot } from '../helpers/cli.ts';
import { loggedIn } from '../helpers/pages.ts';
import { freePort, startTestServer, type TestServer } from '../helpers/server.ts';

function walkthrough(): string {
  const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
  const match = /<!-- connect-your-app:start -->\n```js\n([^]*?)```\n<!-- connect-your-app:end -->/.exec(readme);
  if (match === null) throw new Error('README.md has no connect-your-app block');
  return match[1]!;
}

async function waitFor(output: () => string, pattern: RegExp, what: string): Promise<RegExpExecArray> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = pattern.exec(output());
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no ${what} within 60 s:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.each(backends)('README "Connect your app" on $name', { timeout: 120_000 }, ({ name, available }) => {
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
    const child = spawn(process.execPath, ['--input-type=module'], {
      cwd: projectRoot,
      env: { PATH: process.env.PATH ?? '', GATEHOUSE_URL: server.url, CLIENT_ID: client.clientId, CLIENT_SECRET: client.secret!, REDIRECT_URI: redirectUri },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.stdin.end(walkthrough());
    try {
      const [, printed] = await waitFor(() => stdout, /^(http:\/\/\S+\/auth\/oauth2\/authorize\?\S+)$/m, 'authorization URL');
      const url = new URL(printed!);
      expect(url.searchParams.get('response_type')).toBe('code');
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');

      // The user logs in and chooses Allow; the browser then follows the redirect back.
      const callback = await server.authorize(browser, Object.fromEntries(url.searchParams));
      expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
      const landed = await waitForCallback(callback);
      expect(landed, stderr).toEqual({ status: 200, text: 'Connected: you can close this tab.' });

      expect(await exited).toBe(0);
      expect(stdout).toContain(`Signed in as Walk Through <${user.email}>\n`);
      expect(stderr).toBe('');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});

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
