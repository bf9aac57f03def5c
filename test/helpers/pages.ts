// Reading server-rendered pages the way a person does: visible text, the message next to
// a field, the forms on the page.
import { expect } from 'vitest';
import { formFields, type Browser, type PageResponse } from './browser.ts';
import type { TestServer, TestUser } from './server.ts';

function decode(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The text a person reads: scripts and styles dropped, tags removed, whitespace collapsed. */
export function visibleText(body: string): string {
  return decode(
    body
      .replace(/<(style|script)[\s\S]*?<\/\1>/g, ' ')
      // Inline elements do not break words; every other tag does.
      .replace(/<\/?(strong|em|b|i|code|a|span|time|label|wbr)\b[^>]*>/g, '')
      .replace(/<[^>]+>/g, ' '),
  )
    .replace(/\s+/g, ' ')
    .trim();
}

/** The visible text of the element with this id, or null when the page has none. */
export function textOf(body: string, id: string): string | null {
  const open = new RegExp(`<(\\w+)[^>]*\\bid="${id}"[^>]*>`).exec(body);
  if (!open) return null;
  const tag = open[1]!;
  // Walk nested tags of the same name to find the matching close.
  let depth = 1;
  const re = new RegExp(`<(/?)${tag}\\b[^>]*>`, 'g');
  re.lastIndex = open.index + open[0].length;
  let m: RegExpExecArray | null;
  while ((m = re.exec(body))) {
    depth += m[1] === '/' ? -1 : 1;
    if (depth === 0) return visibleText(body.slice(open.index + open[0].length, m.index));
  }
  return visibleText(body.slice(open.index + open[0].length));
}

/** The message shown next to a form field (docs/rules.md#forms-and-pages: errors beside the field that caused them). */
export function fieldError(body: string, field: string): string | null {
  return textOf(body, `${field}-error`);
}

export function csrfOf(body: string): string {
  const match = /<input type="hidden" name="_csrf" value="([^"]+)">/.exec(body);
  if (!match) throw new Error(`no CSRF field on the page: ${visibleText(body).slice(0, 300)}`);
  return decode(match[1]!);
}

/** A fresh user logged in through the real login form. */
export async function loggedIn(server: TestServer, options: { admin?: boolean; name?: string } = {}): Promise<{ user: TestUser; browser: Browser }> {
  const user = await server.user(options);
  const browser = await browserFor(server, user);
  return { user, browser };
}

/** The developer's client pages and the admin's review pages, which the client lifecycle suites walk. */
export const DEVELOPER_CLIENTS = '/settings/developer/oauth-clients';
export const ADMIN_CLIENTS = '/admin/oauth-clients';

/** A client's developer and the platform admin who reviews it, each signed in: where every review suite starts. */
export async function developerAndAdmin(server: TestServer): Promise<{ dev: TestUser; devBrowser: Browser; admin: TestUser; adminBrowser: Browser }> {
  const dev = await server.user({ name: 'Dana Developer' });
  const devBrowser = await browserFor(server, dev);
  const { user: admin, browser: adminBrowser } = await loggedIn(server, { admin: true, name: 'Ada Admin' });
  return { dev, devBrowser, admin, adminBrowser };
}

export async function browserFor(server: TestServer, user: TestUser): Promise<Browser> {
  const browser = server.browser();
  const res = await browser.login(user.email, user.password);
  expect(res.status).toBe(303);
  return browser;
}

/** GETs a page that must answer 200 and returns it. */
export async function open(browser: Browser, path: string): Promise<PageResponse> {
  const res = await browser.get(path);
  expect(res.status, `${path}: ${visibleText(res.body).slice(0, 300)}`).toBe(200);
  return res;
}

/** Submits a form of the page at `path` with the page's own CSRF token. */
export async function submit(browser: Browser, path: string, action: string, fields: Record<string, string | string[]>): Promise<PageResponse> {
  const page = await open(browser, path);
  return postForm(browser, action, { _csrf: csrfOf(page.body), ...fields });
}

/** A form POST that may repeat fields (checkboxes). */
export async function postForm(browser: Browser, action: string, fields: Record<string, string | string[]>): Promise<PageResponse> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
  }
  const res = await fetch(browser.baseUrl + action, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: browser.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
    body: params.toString(),
  });
  return { status: res.status, headers: res.headers, body: await res.text(), location: res.headers.get('location') };
}

/**
 * The hidden fields of the form on the page that carries `name=value` (e.g. the decision
 * form whose decision is "approve"), as a browser submits them when its button is pressed.
 */
export function formWith(body: string, name: string, value: string): Record<string, string> {
  const marker = `<input type="hidden" name="${name}" value="${value}">`;
  const form = [...body.matchAll(/<form\b[\s\S]*?<\/form>/g)].map((m) => m[0]).find((f) => f.includes(marker));
  if (form === undefined) throw new Error(`no form with ${name}=${value} on the page: ${visibleText(body).slice(0, 300)}`);
  return formFields(form);
}

/** The hidden fields of the page's form that posts to `action`, as a browser submits them when its button is pressed. */
export function formAt(body: string, action: string): Record<string, string> {
  const form = [...body.matchAll(/<form\b[\s\S]*?<\/form>/g)].map((m) => m[0]).find((f) => f.includes(`action="${action}"`));
  if (form === undefined) throw new Error(`no form posting to ${action} on the page: ${visibleText(body).slice(0, 300)}`);
  return formFields(form);
}
