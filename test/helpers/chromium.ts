// A real browser for end-to-end page tests: Debian's Chromium driven by playwright-core,
// never a downloaded browser. .ci/run installs the package when it is missing.
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM);

if (!chromiumAvailable) {
  console.warn(`Browser tests skipped: ${CHROMIUM} is missing (apt-get install -y chromium; .ci/run does).`);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export const screenshotDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../test-output/screenshots');

/**
 * Keeps a screenshot of what the page shows now (the whole page, or with `viewport` what the
 * screen shows), for a person to look at, when SCREENSHOTS=1 (CONTRIBUTING.md). No test reads
 * them, and the 90 PNGs of a run were a fifth of the browser suites' time.
 */
export async function keepScreenshot(page: Page, name: string, options: { viewport?: boolean } = {}): Promise<void> {
  if (process.env.SCREENSHOTS !== '1') return;
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: options.viewport !== true });
}

/** True when the page fits its viewport without sideways scrolling (readable on a phone). */
export function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

/** Fills and sends the login form the page shows, or is about to show. */
export async function logIn(page: Page, person: { email: string; password: string }): Promise<void> {
  await page.getByRole('heading', { name: 'Log in' }).waitFor();
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/**
 * Adds each Content-Security-Policy violation a page of the context reports to `violations`,
 * as "page url: what". The listener runs before any page script, outside the page's policy:
 * the event is how a page learns of a violation.
 */
export async function watchCspViolations(context: BrowserContext, violations: string[]): Promise<void> {
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI}`));
  });
  context.on('console', (message) => {
    if (/Content Security Policy|CSP violation/i.test(message.text())) violations.push(`${message.page()?.url()}: ${message.text()}`);
  });
}

/**
 * The third-party application's callback: a real HTTP server on loopback that shows what
 * the authorization server sent back (code, state, error), as a developer's app would.
 */
export async function startCallbackApp(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const params = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
    const row = (name: string) => `<p>${name}: <output id="${name}">${(params.get(name) ?? '').replace(/[<>&"]/g, '')}</output></p>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Callback</title><h1>Application callback</h1>${['code', 'state', 'error', 'error_description', 'iss'].map(row).join('')}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
