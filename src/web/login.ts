// /login and /logout (docs/rules.md#surfaces): email and password, argon2id, a database session.
import { pendingEmailChange } from '../services/accounts/email-change.ts';
import { EMAIL_CHANGE } from './email-change.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { callerKey, FailureLimit, LimitExceeded } from '../http/rate-limits.ts';
import { allowFormRedirectTo } from '../http/security-headers.ts';
import { checkPassword, type User } from '../services/accounts/users.ts';
import { authorizationReturn } from './authorize.ts';
import { CONNECT_PAGES } from './connect-pages.ts';
import { html } from './html.ts';
import { logoImage } from './logos.ts';
import { csrfField, safeNext, sendPage } from './pages.ts';
import { closeSession, startSession } from './session.ts';

interface LoginBody {
  email?: unknown;
  password?: unknown;
  next?: unknown;
}

/** The application an authorization request, or a connect page, is signing in for, named above the form. */
type ForApplication = { clientId: string; name: string } | undefined;

/** Which application made a connect page's request (connect-pages.ts); undefined for a token that does not work. */
export type ConnectPageApplication = (token: string) => Promise<ForApplication>;

function loginForm(csrf: string, next: string, email: string, error?: string, again = false, app?: ForApplication) {
  return html`<div class="card">
${app
  ? html`<div class="consent-head">${logoImage(app, 48)}<div><h1>Log in</h1><p id="login-for">to continue to <strong>${app.name}</strong></p></div></div>`
  : html`<h1>Log in</h1>`}
${again ? html`<p class="notice" id="login-again">The application asked you to log in again to confirm it is you.</p>` : ''}
${error ? html`<p class="error" role="alert" id="login-error">${error}</p>` : ''}
<form method="post" action="/login">
  ${csrfField(csrf)}
  <input type="hidden" name="next" value="${next}">
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="username" required value="${email}" ${error ? html`aria-describedby="login-error"` : ''}>
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <div class="actions"><button type="submit">Log in</button></div>
</form>
</div>`;
}

/** A password check that failed, for the account of that email when there is one. */
class WrongPassword extends Error {
  constructor(readonly user: User | undefined) {
    super('wrong email or password');
  }
}

/**
 * docs/rules.md#security-headers: on the way to an authorization the login form's POST may end, through the
 * authorization endpoint's redirects, at the application (consent already given, or an
 * error for it); Chromium checks form-action on each of those redirects.
 */
async function allowReturnTo(ctx: AppContext, reply: FastifyReply, next: string, connecting: ConnectPageApplication): Promise<ForApplication> {
  // docs/rules.md#connect-pages: a connect link opened logged out names its application too.
  const connect = CONNECT_PAGE.exec(next);
  if (connect !== null) return connecting(decodeURIComponent(connect[1]!));
  const target = await authorizationReturn(ctx, next);
  if (target?.redirectUri !== undefined) allowFormRedirectTo(reply, target.redirectUri);
  return target?.client;
}

const CONNECT_PAGE = new RegExp(`^${CONNECT_PAGES}/([^/?#]+)$`);

function readLoginBody(body: LoginBody | undefined): { email: string; password: string; next: string } {
  const b = body ?? {};
  return {
    email: typeof b.email === 'string' ? b.email.slice(0, 254) : '',
    password: typeof b.password === 'string' ? b.password.slice(0, 1024) : '',
    next: safeNext(b.next),
  };
}

/**
 * The account when the password is right; throws WrongPassword, or LimitExceeded past the
 * limits. docs/rules.md#rate-limits: failed logins are limited per account and IP, and per IP
 * across accounts. The attempt is counted before its password is checked (and given back
 * if it is right), so a burst of concurrent attempts gets no more checks than the limit.
 */
function checkWithinLimits(ctx: AppContext, request: FastifyRequest, email: string, password: string): Promise<User> {
  const ip = callerKey(request.ip);
  const limits: Array<[FailureLimit, string]> = [
    [ctx.limits.loginFailures, `${email.trim().toLowerCase()}|${ip}`],
    [ctx.limits.loginFailuresPerIp, ip],
  ];
  return FailureLimit.guard(
    limits,
    async () => {
      const { ok, user } = await checkPassword(ctx.services, email, password);
      if (!ok || user === undefined) throw new WrongPassword(user);
      return user;
    },
    (error) => error instanceof WrongPassword,
  );
}

async function postLogin(ctx: AppContext, request: FastifyRequest<{ Body: LoginBody }>, reply: FastifyReply, connecting: ConnectPageApplication) {
  const { email, password, next } = readLoginBody(request.body);
  const app = await allowReturnTo(ctx, reply, next, connecting); // for the form shown again after a failure
  const refuse = async (userId: string | undefined, message: string) => {
    // docs/rules.md#audit-events, docs/rules.md#private-records: the account's user id when the email is known, and nothing
    // typed: people type their password into the email field.
    await ctx.services.stores.audit.append({ type: 'login.failed', ...(userId ? { userId } : {}) }, ctx.services.clock());
    return sendPage(reply, request, 401, 'Log in', loginForm(reply.generateCsrf(), next, email, message, false, app));
  };
  if (!email || !password) return refuse(undefined, 'Enter your email and password.');
  let user: User;
  try {
    user = await checkWithinLimits(ctx, request, email, password);
  } catch (error) {
    if (error instanceof WrongPassword) return refuse(error.user?.id, 'The email or password is not right.');
    if (!(error instanceof LimitExceeded)) throw error;
    reply.header('retry-after', String(error.retryAfter));
    const minutes = Math.ceil(error.retryAfter / 60);
    return sendPage(reply, request, 429, 'Log in', loginForm(reply.generateCsrf(), next, email, `Too many failed attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, false, app));
  }
  await startSession(ctx, request, reply, user.id);
  return reply.redirect(next, 303);
}

export async function loginRoutes(app: FastifyInstance, ctx: AppContext, connecting: ConnectPageApplication): Promise<void> {
  app.get<{ Querystring: { next?: string; reauth?: string } }>('/login', async (request, reply) => {
    const next = safeNext(request.query.next);
    // docs/rules.md#silent-authorization: prompt=login sends a logged-in user here with reauth=1 to log in again.
    const again = request.query.reauth === '1';
    if (request.user && !again) return reply.redirect(next, 303);
    const app = await allowReturnTo(ctx, reply, next, connecting);
    return sendPage(reply, request, 200, app ? `Log in to ${app.name}` : 'Log in', loginForm(reply.generateCsrf(), next, '', undefined, again, app));
  });

  app.post<{ Body: LoginBody }>('/login', { preHandler: app.csrfProtection }, (request, reply) => postLogin(ctx, request, reply, connecting));

  app.get('/logout', async (request, reply) =>
    sendPage(
      reply,
      request,
      200,
      'Log out',
      html`<div class="card"><h1>Log out</h1><form method="post" action="/logout">${csrfField(reply.generateCsrf())}<div class="actions"><button type="submit">Log out</button></div></form></div>`,
    ),
  );

  // "Not you? Switch account" on the consent page posts `next`: the login page then leads
  // back to the same authorization request.
  app.post<{ Body: { next?: unknown } }>('/logout', { preHandler: app.csrfProtection }, async (request, reply) => {
    await closeSession(ctx, request, reply);
    const next = safeNext(request.body?.next);
    return reply.redirect(next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`, 303);
  });

  app.get('/', async (request, reply) => {
    // docs/rules.md#profile: an address change an application asked for is pointed out where the user lands.
    const pending = request.user === undefined ? undefined : await pendingEmailChange(ctx.services, request.user.id);
    return sendPage(
      reply,
      request,
      200,
      'Gatehouse',
      html`<div class="card"><h1>Gatehouse</h1>
<p>The authorization service of the scheduling platform: third-party applications ask here to act for you.</p>
${request.user
  ? html`<p>You are logged in as <strong>${request.user.email}</strong>.</p>${pending === undefined ? '' : html`<p class="notice" id="email-change-waiting">An application asked to change your sign-in address to <strong>${pending.email}</strong>: <a href="${EMAIL_CHANGE}">confirm or dismiss it</a>.</p>`}<p><a href="/settings/authorized-apps">Applications you have authorized</a> · <a href="${EMAIL_CHANGE}">Sign-in address</a></p>`
  : html`<p><a class="button" href="/login">Log in</a></p>`}
</div>`,
    );
  });
}
