// The proof of docs/rules.md#mcp-agents with a client nobody here wrote: the MCP TypeScript SDK's own
// client (Client + StreamableHTTPClientTransport, with an OAuthClientProvider implemented
// below as an agent would) starts from nothing but {BASE_URL}/mcp. It meets the 401, reads
// the resource metadata (RFC 9728), discovers the authorization server (RFC 8414),
// registers dynamically (RFC 7591), sends the user to the consent page, where a person
// approves in Chromium, exchanges the code with PKCE and `resource` (RFC 8707), lists and
// calls tools, refreshes when its access token expires, and its token, bound to /mcp, is
// refused at /v2/me. On SQLite and PostgreSQL.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Browser } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer, globalAgent } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { chromiumAvailable, launchChromium, logIn, startCallbackApp } from '../helpers/chromium.ts';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.ts';

/** An agent's memory: what the SDK asks its provider to keep, and the URL it must open. */
class AgentProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  /** Set: the agent identifies itself by this metadata document instead of registering. */
  clientMetadataUrl: string | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  refreshed = 0;

  constructor(readonly redirectUrl: string) {}

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'Test Agent', redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    if (this.saved !== undefined) this.refreshed += 1;
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

describe.each(backends)('an MCP agent built on the official SDK, from {BASE_URL}/mcp alone, on $name', ({ name, available }) => {
  const enabled = available && chromiumAvailable;
  let server: TestServer;
  let user: TestUser;
  let browser: Browser;
  let callback: Awaited<ReturnType<typeof startCallbackApp>>;

  beforeAll(async () => {
    if (!enabled) return;
    server = await startTestServer(name, { DCR_POLICY: 'open', ACCESS_TOKEN_TTL_SECONDS: '60' });
    user = await server.user({ name: 'Grace' });
    browser = await launchChromium();
    callback = await startCallbackApp();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await callback?.close();
    await server?.close();
  });

  it.skipIf(!enabled)('discovers, registers, is approved in a browser, calls tools, refreshes, and its token is refused at /v2 (docs/rules.md#mcp-agents)', async () => {
    const mcpUrl = new URL(`${server.url}/mcp`);
    const provider = new AgentProvider(callback.url);

    // 1. Nothing but the URL: the first request is 401, and the SDK runs discovery and
    //    registration on its own, then asks for the user's browser.
    const first = new Client({ name: 'test-agent', version: '1.0.0' });
    await expect(first.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }))).rejects.toThrow(UnauthorizedError);
    expect(provider.client?.client_id).toEqual(expect.any(String));
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${server.url}/auth/oauth2/authorize`);
    expect(authorizationUrl.searchParams.get('resource')).toBe(`${server.url}/mcp`);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    const registered = await server.services.stores.clients.find(provider.client!.client_id);
    expect({ kind: registered?.kind, state: registered?.state }).toEqual({ kind: 'public', state: 'approved' });

    // 2. The person logs in and approves in a real browser.
    const page = await browser.newPage();
    await page.goto(authorizationUrl.toString());
    await logIn(page, user);
    await page.locator('#client-name').filter({ hasText: 'Test Agent' }).waitFor();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.locator('#code').filter({ hasText: /^gac_/ }).waitFor();
    const code = (await page.locator('#code').textContent())!;
    expect(await page.locator('#iss').textContent()).toBe(server.url);
    await page.close();

    // 3. The SDK exchanges the code (PKCE verifier and resource) and connects.
    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    await transport.finishAuth(code);
    const access = provider.saved!.access_token;
    expect(provider.saved!.refresh_token).toMatch(/^grt_/);
    const agent = new Client({ name: 'test-agent', version: '1.0.0' });
    await agent.connect(transport);
    const tools = (await agent.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('get_profile');
    expect(tools).not.toContain('create_event_type');
    const profile = await agent.callTool({ name: 'get_profile', arguments: {} });
    expect(JSON.parse((profile.content as Array<{ text: string }>)[0]!.text)).toMatchObject({ email: user.email });

    // 4. The access token expires (60 s, on the server's clock): the SDK refreshes and retries.
    server.advance(61);
    const again = await agent.callTool({ name: 'get_profile', arguments: {} });
    expect(again.isError).toBeFalsy();
    expect(provider.refreshed).toBe(1);
    expect(provider.saved!.access_token).not.toBe(access);
    await agent.close();

    // 5. The token is bound to /mcp (RFC 8707): the REST API refuses it.
    const me = await server.api('GET', '/v2/me', provider.saved!.access_token);
    expect(me.status).toBe(401);
    expect(me.body.error.code).toBe('invalid_token');
  }, 90_000);
});

/** A self-signed certificate for 127.0.0.1, made with openssl (the SDK wants https document URLs). */
function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-cimd-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.each(backends)('an MCP agent that identifies itself by a client metadata document, on $name', ({ name, available }) => {
  const enabled = available && chromiumAvailable && existsSync('/usr/bin/openssl');
  let server: TestServer;
  let user: TestUser;
  let browser: Browser;
  let callback: Awaited<ReturnType<typeof startCallbackApp>>;
  let documentUrl: string;
  let closeDocuments: () => Promise<void>;
  let documentReads = 0;

  beforeAll(async () => {
    if (!enabled) return;
    server = await startTestServer(name, { CIMD_POLICY: 'open', OUTBOUND_ALLOW_PRIVATE: '1' });
    user = await server.user({ name: 'Ada' });
    browser = await launchChromium();
    callback = await startCallbackApp();
    // The agent's own site, over https with a certificate this process trusts.
    const tls = selfSignedCertificate();
    globalAgent.options.ca = tls.cert;
    const site = createHttpsServer(tls, (_request, res) => {
      documentReads += 1;
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=3600' });
      res.end(JSON.stringify({ client_id: documentUrl, client_name: 'Doc Agent', client_uri: 'https://agent.example.com', redirect_uris: [callback.url], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' }));
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    documentUrl = `https://127.0.0.1:${(site.address() as { port: number }).port}/agent/client.json`;
    closeDocuments = () => new Promise<void>((resolve) => site.close(() => resolve()));
  }, 60_000);
  afterAll(async () => {
    globalAgent.options.ca = undefined;
    await closeDocuments?.();
    await browser?.close();
    await callback?.close();
    await server?.close();
  });

  it.skipIf(!enabled)('uses its document URL as client_id without registering, and the consent page calls it unverified (docs/rules.md#cimd-policy)', async () => {
    const mcpUrl = new URL(`${server.url}/mcp`);
    const provider = new AgentProvider(callback.url);
    provider.clientMetadataUrl = documentUrl;
    await expect(new Client({ name: 'doc-agent', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }))).rejects.toThrow(UnauthorizedError);
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.searchParams.get('client_id')).toBe(documentUrl);

    const page = await browser.newPage();
    await page.goto(authorizationUrl.toString());
    await logIn(page, user);
    await page.locator('#unverified-notice').waitFor();
    expect(await page.locator('#document-host').textContent()).toBe(new URL(documentUrl).host);
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.locator('#code').filter({ hasText: /^gac_/ }).waitFor();
    const code = (await page.locator('#code').textContent())!;
    await page.close();

    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    await transport.finishAuth(code);
    const agent = new Client({ name: 'doc-agent', version: '1.0.0' });
    await agent.connect(transport);
    const profile = await agent.callTool({ name: 'get_profile', arguments: {} });
    expect(JSON.parse((profile.content as Array<{ text: string }>)[0]!.text)).toMatchObject({ email: user.email });
    await agent.close();
    expect(documentReads).toBe(1);
  }, 90_000);
});
