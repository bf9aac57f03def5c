// The headers every answer carries (docs/rules.md#security-headers), as helmet writes them: a Content-Security-Policy
// with default-src 'self' and no inline script or style (the pages load /assets files), no
// framing (frame-ancestors 'none' and X-Frame-Options: DENY, against clickjacking on the
// consent page), no sniffing, Referer only to this site (no-referrer on the authorization page).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config/index.ts';

/** The pages' policy. form-action does not fall back to default-src, so it is named. */
export const pageDirectives = {
  defaultSrc: ["'self'"],
  baseUri: ["'none'"],
  objectSrc: ["'none'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** A policy as its header value, for the one page that sets its own (the API reference). */
export function policyHeader(directives: Record<string, string[]>): string {
  return Object.entries(directives)
    .map(([name, values]) => `${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${values.join(' ')}`)
    .join('; ');
}

function helmetOptions(config: Config) {
  return {
    contentSecurityPolicy: { useDefaults: false, directives: pageDirectives },
    frameguard: { action: 'deny' as const },
    // same-origin, not no-referrer: a form posted from a settings page names that page, so
    // after a login the user is sent back to it (web/access.ts); other sites get nothing.
    referrerPolicy: { policy: 'same-origin' as const },
    // HSTS means something only over https; over http (development) it is not sent.
    strictTransportSecurity: config.secureCookies ? { maxAge: 31_536_000 } : false,
  };
}

/** Sets the headers on an answer Fastify makes before any hook runs (a malformed URL). */
export type HeaderSetter = (request: FastifyRequest, reply: FastifyReply) => void;

type Headers = Record<string, string>;

/**
 * The headers a helmet middleware sets, worked out once. Helmet's output depends on its
 * options only, so running it (or @fastify/helmet, which rebuilds it per request) on every
 * answer re-parses the same policy: a CPU profile of GET /v2/me put that at ~9% of the
 * request. Helmet still decides every value; only the repeat is skipped.
 */
function headersOf(middleware: (req: never, res: never, next: () => void) => void): Headers {
  const headers: Headers = {};
  const res = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  middleware({} as never, res as never, () => {});
  return headers;
}

export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<HeaderSetter> {
  const headers = headersOf(helmet(helmetOptions(config)));
  // Root scope, first hook: every answer, including 404s and errors, carries them (docs/rules.md#security-headers).
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  return (_request, reply) => void reply.headers(headers);
}

/** The page policy with other form-action sources, as helmet writes it; cached per list. */
const formActionPolicies = new Map<string, string>();
function policyWithFormAction(formAction: string[]): string {
  const key = formAction.join(' ');
  let policy = formActionPolicies.get(key);
  if (policy === undefined) {
    const csp = helmet.contentSecurityPolicy({ useDefaults: false, directives: { ...pageDirectives, formAction } });
    policy = headersOf(csp)['content-security-policy']!;
    if (formActionPolicies.size >= 1000) formActionPolicies.delete(formActionPolicies.keys().next().value!);
    formActionPolicies.set(key, policy);
  }
  return policy;
}

/**
 * A CSP source for the origin of a registered redirect URI. CSP has no form for an IPv6
 * literal host ([::1], allowed for loopback by docs/rules.md#redirect-uris), and a host with anything
 * but letters, digits, dots and hyphens is not trusted into a header: the scheme stands in.
 */
function redirectSource(redirectUri: string): string {
  const url = new URL(redirectUri);
  return /^[A-Za-z0-9.-]+$/.test(url.hostname) ? url.origin : url.protocol;
}

/**
 * docs/rules.md#security-headers: a form whose answer redirects to the application must be allowed to. Chromium
 * checks form-action on every redirect after a form POST, so the consent form's 303 to the
 * client's redirect URI (and a login form's redirects through the authorization endpoint)
 * need its origin; on that page only, and only for a redirect URI the client registered, or
 * a connect page's return addresses, each on the origin of one (docs/rules.md#connect-pages).
 */
export function allowFormRedirectTo(reply: FastifyReply, ...redirectUris: string[]): void {
  const formAction = [...new Set([...pageDirectives.formAction, ...redirectUris.map(redirectSource)])];
  reply.header('content-security-policy', policyWithFormAction(formAction));
}
