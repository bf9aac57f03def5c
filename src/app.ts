// buildApp(config, deps): every plugin and route of Gatehouse; tests import this, the
// process entry (server.ts) adds listening and shutdown.
import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { apiRoutes } from './platform/index.ts';
import { sendFailure } from './platform/envelope.ts';
import { mcpRoutes } from './platform/mcp/server.ts';
import type { Config } from './config/index.ts';
import type { AppContext } from './context.ts';
import type { PlatformDeps } from './platform/deps.ts';
import { Metrics } from './http/metrics.ts';
import { opsRoutes } from './http/ops-routes.ts';
import { finiteNumbers } from './platform/finite-numbers.ts';
import { answerClientError } from './http/client-errors.ts';
import { serializeRequest } from './http/log-redaction.ts';
import { closeConnectionsWhenClosing } from './http/draining.ts';
import { encodeLocations } from './http/location.ts';
import { refuseNulCharacters } from './http/nul-guard.ts';
import { failure, failureOf, type Failure } from './http/failure.ts';
import { createRateLimits } from './http/rate-limits.ts';
import { allowCrossOrigin, McpOrigins } from './http/cross-origin.ts';
import { sharedCompilers } from './http/schema-compilers.ts';
import { registerSecurityHeaders, type HeaderSetter } from './http/security-headers.ts';
import { oauthRoutes } from './http/oauth/index.ts';
import { protectedResources, TOKEN_PATH } from './http/oauth/paths.ts';
import { DpopNonces } from './oauth/dpop.ts';
import { KeySealer, SigningKeys } from './oauth/signing-keys.ts';
import { createSigningKeyStore } from './storage/stores/signing-keys.ts';
import { createDpopProofStore } from './storage/stores/dpop-proofs.ts';
import { MAX_CLIENT_ID_LENGTH } from './oauth/client-metadata.ts';
import type { OAuthContext } from './oauth/context.ts';
import { selfRegisteredClients } from './services/clients/dynamic-registration.ts';
import { createMetadataDocuments } from './services/clients/metadata-documents.ts';
import { reopenOpenApprovals } from './services/clients/metadata-policy.ts';
import type { ServiceContext } from './services/context.ts';
import { systemResolver, type ResolveHost } from './services/outbound-url.ts';
import { createOAuthStore } from './storage/stores/oauth.ts';
import { createIdentityAssertionStore } from './storage/stores/identity-assertions.ts';
import { createIdentityProviderKeys } from './services/identity-providers/keys.ts';
import type { DatabaseHandle } from './storage/database.ts';
import { adminRoutes } from './web/admin/routes.ts';
import { assetRoutes } from './http/assets.ts';
import { authorizedAppsRoutes } from './web/authorized-apps.ts';
import { emailChangeRoutes } from './web/email-change.ts';
import { authorizeRoutes } from './web/authorize.ts';
import { endSessionRoutes } from './web/end-session.ts';
import { developerRoutes } from './web/developer/routes.ts';
import { loginRoutes } from './web/login.ts';
import { logoRoutes } from './web/logos.ts';
import { answerErrorsAsPages, sendFailurePage } from './web/error-page.ts';
import { ReauthenticationMarks } from './web/reauthentication.ts';
import { attachSessionUser, attachSessionUserOutsidePages } from './web/session.ts';
import { teamsRoutes } from './web/teams.ts';
import { inviteLinksRoutes } from './web/invite-links.ts';
import { identityProvidersRoutes } from './web/identity-providers.ts';
import { connectPageApplication, connectPagesRoutes } from './web/connect-pages.ts';
import { connectionRequestPages } from './platform/connection-requests/service.ts';
import { webhooksRoutes } from './web/webhooks.ts';
import { createReadiness } from './storage/readiness.ts';
import { createServiceContext } from './storage/stores/index.ts';

export interface AppDeps {
  database: DatabaseHandle;
  /** Signs the CSRF cookie, and (under a derived key) prompt=login marks. */
  cookieSecret: string;
  /** docs/operating.md#signing-keys: seals the signing keys' private parts; the same on every instance. */
  signingKeysSecret: string;
  /** Milliseconds since the epoch; tests pass a clock they can move. */
  clock?: () => number;
  /** Pino destination override (tests capture logs). */
  logStream?: NodeJS.WritableStream;
  /** Name resolution for outbound URLs; the system resolver unless a test has no DNS. */
  resolveHost?: ResolveHost;
}

/** API and metadata paths answer JSON; every other path is a page. */
const isApiPath = (url: string) => /^\/v\d+(\/|\?|$)/.test(url) || url.startsWith('/.well-known');

/** The app's fallback, for what no surface's own handler took: the envelope for the API, else a page. */
function sendFallback(request: FastifyRequest, reply: FastifyReply, failure: Failure): FastifyReply {
  return isApiPath(request.url) ? sendFailure(reply, failure) : sendFailurePage(reply, request, failure);
}

/** Paths whose values must never reach a log line (docs/rules.md#private-records). */
const redactPaths = ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'];

/** Pino options: redacted secrets, query values redacted by the request serializer (docs/rules.md#private-records). */
function loggerOptions(config: Config, deps: AppDeps) {
  if (config.logLevel === 'silent') return false;
  return {
    level: config.logLevel,
    redact: { paths: redactPaths, censor: '[redacted]' },
    serializers: { req: serializeRequest },
    ...(deps.logStream ? { stream: deps.logStream } : {}),
  };
}

/** A path may carry a client id, percent-encoded: a document URL's `:` and `/` take three characters each. */
const MAX_PARAM_LENGTH = 3 * MAX_CLIENT_ID_LENGTH;

/**
 * A malformed address (a stray %, an over-long path part) is answered before any hook
 * runs: a 4xx page or envelope with the same headers as any other (docs/rules.md#security-headers). The headers'
 * setter exists only once they are registered, hence the getter.
 */
function frameworkErrorHandler(securityHeaders: () => HeaderSetter | undefined): FastifyServerOptions['frameworkErrors'] {
  return (error, request, reply) => {
    securityHeaders()?.(request, reply);
    const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
    const message = tooLong
      ? `A part of the address is longer than ${MAX_PARAM_LENGTH} characters.`
      : 'The address is not valid percent-encoding: each % must start an escape such as %20, and the escapes must spell UTF-8 text (%ff alone does not).';
    return sendFallback(request, reply, failure('bad_address', message, { status: tooLong ? 414 : 400 }));
  };
}

function createFastify(config: Config, deps: AppDeps, securityHeaders: () => HeaderSetter | undefined): FastifyInstance {
  return Fastify({
    logger: loggerOptions(config, deps),
    // docs/rules.md#rate-limits, docs/rules.md#configuration: request.ip is the socket's address unless TRUST_PROXY names the
    // reverse proxies whose X-Forwarded-For may say who the caller is.
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
    // allowUnionTypes: a routing-form answer is a string, a number or a list (one schema with
    // a list of types, which Ajv's strict mode otherwise warns about on stderr).
    ajv: { customOptions: { allowUnionTypes: true }, plugins: [finiteNumbers] },
    // Every app of the process compiles its schemas through one cache (http/schema-compilers.ts).
    schemaController: { compilersFactory: sharedCompilers },
    // Query strings are logged with the URL, sensitive values redacted (http/log-redaction.ts).
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: frameworkErrorHandler(securityHeaders),
    clientErrorHandler: answerClientError,
    // Slow and idle connections (docs/operating.md#when-things-fail). Fastify sets the keep-alive
    // and request timeouts on the server after creating it; the header timeout and the
    // interval that enforces both exist only as options of http.createServer.
    keepAliveTimeout: config.httpTimeouts.keepAliveTimeout,
    requestTimeout: config.httpTimeouts.requestTimeout,
    http: { ...config.httpTimeouts },
  });
}

/** The stores, limits and outbound policy every route reads, and the metrics they count to. */
function createContext(app: FastifyInstance, config: Config, deps: AppDeps): { ctx: AppContext; platform: PlatformDeps; metrics: Metrics } {
  const clock = deps.clock ?? Date.now;
  const metrics = new Metrics();
  metrics.instrument(app);
  const oauth: OAuthContext = {
    store: createOAuthStore(deps.database.db),
    clock,
    issuer: config.issuer,
    ttl: config.ttl,
    resources: protectedResources(config.baseUrl),
    // docs/rules.md#dpop: nonces under a key derived from the cookie secret, which every instance shares.
    dpop: { proofs: createDpopProofStore(deps.database.db), nonces: new DpopNonces(deps.cookieSecret), tokenEndpoint: `${config.baseUrl}${TOKEN_PATH}` },
    events: metrics,
    pushedAuthorization: { required: config.pushedAuthorization.policy === 'required' },
    signingKeys: new SigningKeys(createSigningKeyStore(deps.database.db), new KeySealer(deps.signingKeysSecret), clock, {
      refreshSeconds: config.signingKeys.refreshSeconds,
      idTokenTtlSeconds: config.ttl.accessToken,
    }),
  };
  // docs/operating.md#signing-keys: a first set of keys at the first start. A failure (the
  // database away at start) does not stop the server: the first ID token makes the set then.
  app.addHook('onReady', async () => {
    try {
      if (await oauth.signingKeys.ensureFirst()) app.log.info('made the first ID token signing keys');
      // Opened once at start, so that a wrong SIGNING_KEYS_SECRET is said at once, not at the first sign-in.
      await oauth.signingKeys.signer('RS256');
    } catch (err) {
      app.log.error({ cause: err instanceof Error ? err.message : String(err) }, 'the ID token signing keys are not ready; ID tokens fail until they are');
    }
  });
  const limits = createRateLimits(config, {
    unavailable: (err) => app.log.warn({ err }, 'rate-limit store unavailable: limits not enforced until it is back'),
    restored: () => app.log.info('rate-limit store is back: limits enforced'),
  });
  app.addHook('onReady', async () => limits.ready());
  app.addHook('onClose', async () => limits.close());
  const outbound = { allowPrivate: config.outboundAllowPrivate, resolve: deps.resolveHost ?? systemResolver };
  const services = createServiceContext(deps.database.db, clock, { passwordHashing: config.passwordHashing });
  oauth.isSelfRegistered = selfRegisteredClients(services);
  // docs/rules.md#cimd-policy: URL client ids, unless CIMD_POLICY=off.
  const { policy, scopes } = config.clientMetadata;
  if (policy !== 'off') oauth.clientMetadata = createMetadataDocuments(services, { policy, scopes, outbound });
  if (policy === 'review') app.addHook('onReady', async () => reopenAtStart(app, services));
  // docs/integrating.md#enterprise-managed-agents: the JWT bearer grant with an organization's ID-JAG.
  oauth.identityAssertions = { store: createIdentityAssertionStore(deps.database.db), keys: createIdentityProviderKeys(outbound, clock) };
  const ctx: AppContext = { config, readiness: createReadiness(deps.database), oauth, services, outbound, limits };
  // The platform wing is handed what it needs and nothing more: never AppContext (platform/deps.ts).
  const platform: PlatformDeps = {
    services,
    config: { baseUrl: config.baseUrl, appUrl: config.appUrl, localDevelopment: config.localDevelopment, agentScopes: config.agentScopes },
    outbound,
    limits: {
      codeRequestsPerIp: limits.codeRequestsPerIp,
      codeRequestsPerAddress: limits.codeRequestsPerAddress,
      publicBookingsPerIp: limits.publicBookingsPerIp,
      publicBookingsPerEventType: limits.publicBookingsPerEventType,
    },
    tokens: { resources: oauth.resources, documentsServed: oauth.clientMetadata !== undefined, dpop: oauth.dpop },
  };
  return { ctx, platform, metrics };
}

/**
 * docs/integrating.md#connect-an-ai-agent-mcp: under review, the URL clients approved only because the policy was
 * open await review again from the start, not from their next authorization request. A
 * failure (the database away at start) does not stop the server: each such client is then
 * made pending at its next authorization request instead.
 */
async function reopenAtStart(app: FastifyInstance, services: ServiceContext): Promise<void> {
  try {
    const reopened = await reopenOpenApprovals(services);
    if (reopened.length > 0) app.log.info({ clients: reopened.length }, 'CIMD_POLICY=review: URL clients approved only because the policy was open await review again');
  } catch (err) {
    app.log.error({ err }, 'CIMD_POLICY=review: could not make the URL clients approved under open wait for review; each will at its next authorization request');
  }
}

/**
 * An error no surface's own handler took (the ops routes, the assets, the logos, a request no
 * route matched): the error table's answer, as the envelope or a page (http/errors.ts).
 */
function handleUncaughtError(error: Error, request: FastifyRequest, reply: FastifyReply) {
  // A request no route takes can fail before the 404 is chosen (its body is parsed first):
  // the caller's fix is the address, so it hears that.
  if (isApiPath(request.url) && request.is404) return handleNotFound(request, reply);
  return sendFallback(request, reply, failureOf(error, request));
}

/** Form bodies; cookies and CSRF are the pages' own (registerRoutes, web scope). */
async function registerPlugins(app: FastifyInstance): Promise<void> {
  await app.register(formbody, { bodyLimit: 64 * 1024 });
}

type Area = (scope: FastifyInstance) => Promise<void>;

/**
 * An area of routes in its own encapsulated scope, refusing NUL characters before any hook
 * of its own runs (the API's access check reads the path). Per area rather than at the
 * root: a root hook would run before the cross-origin area's CORS and leave its 400
 * unreadable by the browser-based clients it is opened for.
 */
function area(routes: Area): Area {
  return async (scope) => {
    refuseNulCharacters(scope);
    await routes(scope);
  };
}

/** Every route, each area in its own encapsulated scope, in this order. */
async function registerRoutes(app: FastifyInstance, ctx: AppContext, platform: PlatformDeps, metrics: Metrics, deps: AppDeps): Promise<void> {
  await app.register(area(async (scope) => opsRoutes(scope, ctx, metrics)));
  await app.register(area(assetRoutes));
  // What browser-based MCP clients call from their own origin (http/cross-origin.ts).
  // /mcp's CORS and its Origin check follow one decision (docs/rules.md#mcp-server).
  const mcpOrigins = new McpOrigins(ctx.config, ctx.services.stores.clients);
  await app.register(async (crossOrigin) => {
    await allowCrossOrigin(crossOrigin, mcpOrigins);
    // After CORS, so that a browser on another origin can read the 400 (see area).
    refuseNulCharacters(crossOrigin);
    await crossOrigin.register(async (scope) => oauthRoutes(scope, ctx, ctx.limits));
    await crossOrigin.register(async (scope) => mcpRoutes(scope, platform, mcpOrigins));
  });
  await app.register(area(async (scope) => apiRoutes(scope, platform)));
  await app.register(area(async (scope) => logoRoutes(scope, ctx)));
  await app.register(
    area(async (web) => {
      // One error handler for every page, first so that every route and hook has it.
      answerErrorsAsPages(web);
      // Cookies (session, CSRF, prompt=login marks) belong to the pages only: registered in
      // this scope, their per-request hooks do not run on the API, OAuth or ops routes.
      await web.register(cookie, { secret: deps.cookieSecret });
      await web.register(csrf, {
        cookieKey: 'gh_csrf',
        cookieOpts: { path: '/', httpOnly: true, sameSite: 'lax', secure: ctx.config.secureCookies, signed: true },
      });
      attachSessionUser(web, ctx);
      // The page of a connection an application asked for through the platform (docs/rules.md#connect-pages):
      // the pages may not import the platform wing, so its requests are handed to them here.
      const connections = connectionRequestPages(platform);
      await loginRoutes(web, ctx, connectPageApplication(connections));
      await authorizeRoutes(web, ctx, new ReauthenticationMarks(deps.cookieSecret));
      await endSessionRoutes(web, ctx);
      await developerRoutes(web, ctx);
      await adminRoutes(web, ctx);
      await authorizedAppsRoutes(web, ctx);
      await emailChangeRoutes(web, ctx);
      await teamsRoutes(web, ctx);
      await inviteLinksRoutes(web, ctx);
      await identityProvidersRoutes(web, ctx);
      await webhooksRoutes(web, ctx);
      await connectPagesRoutes(web, ctx, connections);
    }),
  );
}

/** No route matched: a page for a page, the envelope for the API. */
function handleNotFound(request: FastifyRequest, reply: FastifyReply) {
  return sendFallback(request, reply, failure('unknown_path', `no endpoint ${request.method} ${request.url.split('?')[0]}`));
}

export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  let setSecurityHeaders: HeaderSetter | undefined;
  const app = createFastify(config, deps, () => setSecurityHeaders);
  const { ctx, platform, metrics } = createContext(app, config, deps);

  // First, so that every answer carries them (docs/rules.md#security-headers).
  setSecurityHeaders = await registerSecurityHeaders(app, config);
  encodeLocations(app);
  closeConnectionsWhenClosing(app, config.shutdownGraceMs);
  app.setErrorHandler(handleUncaughtError);
  await registerPlugins(app);
  await registerRoutes(app, ctx, platform, metrics, deps);
  // Outside the pages' scope: the page for an unknown address finds the session itself.
  app.setNotFoundHandler(async (request, reply) => {
    if (!isApiPath(request.url)) await attachSessionUserOutsidePages(ctx, request);
    return handleNotFound(request, reply);
  });
  return app;
}
