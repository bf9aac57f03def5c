// Typed settings from the environment (docs/rules.md#configuration). Every variable has a default that works
// locally; a bad value fails at start with a message that names the variable.
import { isIP } from 'node:net';
import { z } from 'zod';
import { scopeRegistry } from '../oauth/scopes.ts';

const positiveSeconds = (name: string, fallback: number) =>
  z.coerce
    .number({ invalid_type_error: `${name} must be a whole number of seconds` })
    .int(`${name} must be a whole number of seconds`)
    .positive(`${name} must be a positive whole number of seconds`)
    .default(fallback);

const limit = (name: string, fallback: number) =>
  z.coerce
    .number({ invalid_type_error: `${name} must be a whole number` })
    .int(`${name} must be a whole number`)
    .min(0, `${name} must be 0 (off) or more`)
    .default(fallback);

/** Scope names separated by spaces or commas, each one of the registry (docs/rules.md#scope-registry). */
const scopeList = (name: string) =>
  z.string().transform((value, ctx): string[] => {
    const names = [...new Set(value.split(/[\s,]+/).filter((n) => n !== ''))];
    const unknown = names.find((n) => !scopeRegistry.some((s) => s.name === n));
    if (unknown === undefined && names.length > 0) return scopeRegistry.filter((s) => names.includes(s.name)).map((s) => s.name);
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: unknown === undefined ? `${name} must name at least one scope` : `${name} names "${unknown}", which is not a scope` });
    return z.NEVER;
  });

const url = (name: string) =>
  z
    .string()
    .url(`${name} must be an absolute URL such as http://localhost:3000`)
    .transform((value) => value.replace(/\/+$/, ''));

/** proxy-addr's names for ranges, as Fastify's trustProxy accepts them. */
const namedRanges = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (namedRanges.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const version = isIP(address ?? '');
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * docs/rules.md#rate-limits, docs/rules.md#configuration: which reverse proxies may name the caller in X-Forwarded-For, as
 * comma-separated addresses and CIDR ranges (what Fastify's trustProxy takes as a string).
 * Refused: `true` (trust whoever connects) and a hop count, which this Fastify treats as
 * trusting nobody because it cannot tell a proxy from a caller who sends the header
 * itself; either way anyone could choose the address that rate limits and /metrics see.
 */
const trustProxy = z
  .string()
  .transform((value, ctx): string[] => {
    const entries = value.split(',').map((e) => e.trim());
    const bad = entries.find((e) => !isProxyAddress(e));
    if (bad === undefined) return entries;
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message: `TRUST_PROXY must list the reverse proxies' addresses, comma-separated IP addresses or CIDR ranges such as 127.0.0.1 or 10.0.0.0/8; "${bad}" is not one`,
    });
    return z.NEVER;
  });

/**
 * An origin as the URL standard writes it (scheme, host and port: https://agent.example.com,
 * http://localhost:6274), the form a browser's Origin header takes; a trailing slash is
 * allowed, a path, query, user name, wildcard or another scheme is not.
 */
function originOf(entry: string): string | undefined {
  try {
    const url = new URL(entry);
    const bare = url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '' && url.password === '' && !entry.endsWith('?') && !entry.endsWith('#');
    // A host name, an IPv4 or a bracketed IPv6 address: never a pattern such as *.example.com,
    // which the URL parser would take as a name and no browser would send.
    const host = /^[a-z0-9._-]+$|^\[[0-9a-f:.]+\]$/.test(url.hostname);
    return bare && host && (url.protocol === 'https:' || url.protocol === 'http:') ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** docs/rules.md#mcp-server: comma-separated origins, each checked and written as a browser writes it. */
const originList = (name: string) =>
  z.string().transform((value, ctx): string[] => {
    const entries = value.split(',').map((e) => e.trim()).filter((e) => e !== '');
    const origins = entries.map(originOf);
    const bad = entries.find((_, i) => origins[i] === undefined);
    if (bad === undefined) return [...new Set(origins as string[])];
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message: `${name} must list origins, comma-separated, each a scheme (https or http), a host and an optional port, such as https://agent.example.com or http://localhost:6274; "${bad}" is not one`,
    });
    return z.NEVER;
  });

function isRedisUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The port a server started without PORT listens on. */
export const DEFAULT_PORT = 3000;

/**
 * What APP_URL and BASE_URL are when unset: the server's own address on this machine, on the
 * port it listens on, so that `PORT=4000 npm start` alone links to port 4000. PORT=0 (any
 * free port) cannot be known before listening: the default port then, with a warning.
 */
export const localAddress = (port: number): string => `http://localhost:${port === 0 ? DEFAULT_PORT : port}`;

export const settingsSchema = z.object({
  /** TCP port the HTTP server listens on. */
  PORT: z.coerce.number().int().min(0).max(65535).default(DEFAULT_PORT),
  /** Interface to bind; loopback by default so a fresh install is not exposed. */
  HOST: z.string().min(1).default('127.0.0.1'),
  /** {BASE_URL} of docs/rules.md#surfaces: token endpoint, API, issuer identifier. Unset: localAddress(PORT). */
  BASE_URL: url('BASE_URL').optional(),
  /** {APP_URL} of docs/rules.md#surfaces: login, consent and settings pages. Unset: localAddress(PORT). */
  APP_URL: url('APP_URL').optional(),
  /** sqlite:./path.db, sqlite:/abs/path.db, sqlite::memory:, postgres://... or postgresql://... */
  DATABASE_URL: z
    .string()
    .default('sqlite:./data/gatehouse.db')
    .refine((v) => /^(sqlite:|postgres:\/\/|postgresql:\/\/)/.test(v), {
      message: 'DATABASE_URL must start with sqlite:, postgres:// or postgresql://',
    }),
  /** When set, rate-limit counters live in Redis so limits hold across instances. */
  // Another scheme would be read by the Redis client as a socket path, and its connection
  // error would log the URL, password included.
  REDIS_URL: z
    .string()
    .refine(isRedisUrl, 'REDIS_URL must be a redis:// or rediss:// URL with a host, such as redis://127.0.0.1:6379')
    .optional(),
  /**
   * After the server is ready, how long a Redis not yet reached is no outage (a sidecar that
   * starts slowly, a busy machine): docs/operating.md#when-things-fail.
   */
  REDIS_START_GRACE_SECONDS: positiveSeconds('REDIS_START_GRACE_SECONDS', 10),
  /** Unset: the socket's address is the caller's IP. See `trustProxy` above. */
  TRUST_PROXY: trustProxy.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Bearer token that lets non-loopback callers read /metrics; unset = loopback only. */
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  /** The cost of new password hashes (services/accounts/passwords.ts): RFC 9106's, or OWASP's minimum. */
  PASSWORD_HASHING: z.enum(['rfc9106', 'owasp']).default('rfc9106'),
  /** Signs cookies; generated and kept in the data folder when unset. */
  COOKIE_SECRET: z.string().min(32, 'COOKIE_SECRET must be at least 32 characters').optional(),
  /**
   * docs/operating.md#signing-keys: seals the private parts of the ID token signing keys in the
   * database; generated and kept in the data folder when unset, as COOKIE_SECRET is.
   */
  SIGNING_KEYS_SECRET: z.string().min(32, 'SIGNING_KEYS_SECRET must be at least 32 characters').optional(),
  /** docs/operating.md#signing-keys: how long an instance keeps the key list it read; at most 60 s, so a rotation reaches every instance within a minute. */
  SIGNING_KEYS_REFRESH_SECONDS: z.coerce
    .number({ invalid_type_error: 'SIGNING_KEYS_REFRESH_SECONDS must be a whole number of seconds' })
    .int('SIGNING_KEYS_REFRESH_SECONDS must be a whole number of seconds')
    .min(1, 'SIGNING_KEYS_REFRESH_SECONDS must be at least 1')
    .max(60, 'SIGNING_KEYS_REFRESH_SECONDS must be at most 60: a rotation must reach every instance within a minute')
    .default(30),
  /** docs/rules.md#lifetimes: codes live 60 s; above 600 s is allowed with a warning (benchmarks). */
  AUTH_CODE_TTL_SECONDS: positiveSeconds('AUTH_CODE_TTL_SECONDS', 60),
  /** docs/rules.md#lifetimes: access tokens live 1800 s. */
  ACCESS_TOKEN_TTL_SECONDS: positiveSeconds('ACCESS_TOKEN_TTL_SECONDS', 1800),
  /** docs/rules.md#lifetimes: a refresh chain unused for 90 days expires. */
  REFRESH_TOKEN_IDLE_TTL_SECONDS: positiveSeconds('REFRESH_TOKEN_IDLE_TTL_SECONDS', 90 * 24 * 3600),
  /** docs/rules.md#refresh-rotation: a spent refresh token replays its successor for this long. */
  REFRESH_REUSE_WINDOW_SECONDS: positiveSeconds('REFRESH_REUSE_WINDOW_SECONDS', 30),
  /** docs/rules.md#rate-limits; 0 turns a limit off. */
  RATE_LIMIT_TOKEN_PER_MINUTE: limit('RATE_LIMIT_TOKEN_PER_MINUTE', 300),
  RATE_LIMIT_CLIENT_AUTH_FAILURES_PER_MINUTE: limit('RATE_LIMIT_CLIENT_AUTH_FAILURES_PER_MINUTE', 20),
  RATE_LIMIT_LOGIN_FAILURES_PER_15_MINUTES: limit('RATE_LIMIT_LOGIN_FAILURES_PER_15_MINUTES', 10),
  /**
   * docs/rules.md#outbound-urls, docs/rules.md#webhooks: unset (or 0), webhook, calendar-feed and client-metadata URLs must be https
   * on a public address (no private, loopback, link-local or metadata address, by literal or
   * by any DNS answer). 1, for development and tests only: any address, and http too.
   */
  OUTBOUND_ALLOW_PRIVATE: z.enum(['0', '1'], { message: 'OUTBOUND_ALLOW_PRIVATE must be 1 (allow private addresses) or 0 (refuse them)' }).default('0'),
  /** docs/rules.md#webhooks: how often each instance looks for webhook deliveries that are due. */
  WEBHOOK_POLL_INTERVAL_MS: z.coerce
    .number({ invalid_type_error: 'WEBHOOK_POLL_INTERVAL_MS must be a whole number of milliseconds' })
    .int('WEBHOOK_POLL_INTERVAL_MS must be a whole number of milliseconds')
    .min(100, 'WEBHOOK_POLL_INTERVAL_MS must be at least 100')
    .default(1000),
  /** docs/rules.md#rate-limits: failed logins per IP across accounts, and verification-code requests per IP. */
  RATE_LIMIT_LOGIN_FAILURES_PER_IP_PER_15_MINUTES: limit('RATE_LIMIT_LOGIN_FAILURES_PER_IP_PER_15_MINUTES', 100),
  /** docs/rules.md#retention, docs/rules.md#configuration: audit events are deleted this many days after they happened. */
  AUDIT_RETENTION_DAYS: z.coerce
    .number({ invalid_type_error: 'AUDIT_RETENTION_DAYS must be a whole number of days' })
    .int('AUDIT_RETENTION_DAYS must be a whole number of days')
    .positive('AUDIT_RETENTION_DAYS must be a positive whole number of days')
    .default(365),
  /**
   * docs/rules.md#retention: every instance deletes what has ended this often. It also bounds how
   * long a spent refresh token's successor outlives the replay window (docs/rules.md#refresh-rotation).
   */
  PRUNE_INTERVAL_SECONDS: positiveSeconds('PRUNE_INTERVAL_SECONDS', 10),
  /**
   * Longest wait for a database connection (PostgreSQL pool, connecting included) or for
   * SQLite's write lock; past it the request answers 503 instead of hanging on a database
   * that is gone.
   */
  DATABASE_CONNECT_TIMEOUT_SECONDS: positiveSeconds('DATABASE_CONNECT_TIMEOUT_SECONDS', 5),
  /** A connection must have sent its whole request head within this (slow-header attacks). */
  HTTP_HEADERS_TIMEOUT_SECONDS: positiveSeconds('HTTP_HEADERS_TIMEOUT_SECONDS', 10),
  /** A connection must have sent its whole request, body included, within this. */
  HTTP_REQUEST_TIMEOUT_SECONDS: positiveSeconds('HTTP_REQUEST_TIMEOUT_SECONDS', 30),
  /**
   * An idle keep-alive connection is closed after this. Longer than the 60 s idle timeout
   * common in load balancers, so that the balancer, not Gatehouse, closes a pooled
   * connection and never sends a request on one Gatehouse is closing.
   */
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: positiveSeconds('HTTP_KEEP_ALIVE_TIMEOUT_SECONDS', 72),
  /** How often the header and request timeouts are checked: the most a timeout is overrun by. */
  HTTP_TIMEOUT_CHECK_INTERVAL_SECONDS: positiveSeconds('HTTP_TIMEOUT_CHECK_INTERVAL_SECONDS', 2),
  /**
   * After SIGTERM, what is still open this long is cut (http/draining.ts): far more than any
   * request takes, and less than the supervisor waits before SIGKILL, which varies (docker
   * stop 10 s, Kubernetes 30 s, systemd 90 s), hence a setting.
   */
  SHUTDOWN_GRACE_SECONDS: positiveSeconds('SHUTDOWN_GRACE_SECONDS', 10),
  /**
   * docs/rules.md#dynamic-registration: dynamic client registration (RFC 7591). off (default): no endpoint is
   * announced and registrations are refused; review: clients start pending; open: public
   * clients only, approved at once, limited to DCR_SCOPES and per IP.
   */
  DCR_POLICY: z.enum(['off', 'review', 'open'], { message: 'DCR_POLICY must be off, review or open' }).default('off'),
  /** docs/rules.md#dynamic-registration: the scopes a dynamically registered client may hold; default: the personal _READ scopes. */
  DCR_SCOPES: scopeList('DCR_SCOPES').optional(),
  /**
   * docs/rules.md#cimd-policy: URL client ids (client metadata documents). review (default): the first use
   * of a host creates a pending client for an admin to approve; open: any host, shown to the
   * user as unverified; off: URL client ids are unknown clients.
   */
  CIMD_POLICY: z.enum(['off', 'review', 'open'], { message: 'CIMD_POLICY must be off, review or open' }).default('review'),
  /**
   * docs/rules.md#pushed-authorization: optional (default): a client may push its authorization
   * requests (RFC 9126) or send them in the browser; required: every client must push them.
   */
  PAR_POLICY: z.enum(['optional', 'required'], { message: 'PAR_POLICY must be optional or required' }).default('optional'),
  /** docs/rules.md#client-metadata-documents: the scopes a metadata-document client may request; default: the personal _READ scopes. */
  CIMD_SCOPES: scopeList('CIMD_SCOPES').optional(),
  /** docs/integrating.md#connect-an-ai-agent-mcp: registrations (review or open) and first uses of metadata documents, together, per IP per hour; 0 turns the limit off. */
  RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR: limit('RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR', 10),
  /**
   * docs/integrating.md#connect-an-ai-agent-mcp: registrations under DCR_POLICY=open, per IP per hour; 0 turns the limit off.
   * They give an admin no review work, and a hosted agent platform registers each of its users'
   * connections from a few addresses: the limit stops a flood, not a platform's busy hour.
   */
  RATE_LIMIT_OPEN_REGISTRATIONS_PER_IP_PER_HOUR: limit('RATE_LIMIT_OPEN_REGISTRATIONS_PER_IP_PER_HOUR', 1000),
  /**
   * docs/rules.md#rate-limits: bookings made, rescheduled or cancelled without an access token
   * (the public booking routes), per caller's IP and per event type, per hour. A person books
   * a few times an hour; an office or a carrier's NAT behind one address more, hence 20; an
   * event type's bookers come from many addresses, and a flood from many addresses is what
   * the second limit stops: 60 an hour is more than one host's calendar can take.
   */
  RATE_LIMIT_PUBLIC_BOOKINGS_PER_IP_PER_HOUR: limit('RATE_LIMIT_PUBLIC_BOOKINGS_PER_IP_PER_HOUR', 20),
  RATE_LIMIT_PUBLIC_BOOKINGS_PER_EVENT_TYPE_PER_HOUR: limit('RATE_LIMIT_PUBLIC_BOOKINGS_PER_EVENT_TYPE_PER_HOUR', 60),
  /**
   * docs/rules.md#mcp-server: origins of web pages, beyond Gatehouse's own and its approved
   * applications' redirect URIs, whose requests /mcp serves (MCP Streamable HTTP validates Origin).
   */
  MCP_ALLOWED_ORIGINS: originList('MCP_ALLOWED_ORIGINS').optional(),
});

export type Settings = z.infer<typeof settingsSchema>;

export type SettingName = keyof typeof settingsSchema.shape;

/** The personal read scopes: what an application nobody reviewed may ask for by default (docs/rules.md#client-metadata-documents, docs/rules.md#dynamic-registration). */
export const defaultUnreviewedScopes = scopeRegistry.filter((s) => s.family === 'personal' && s.name.endsWith('_READ')).map((s) => s.name);

/**
 * MCP clients ask for the scopes the resource names (SEP-835), and one scope they may not
 * have refuses the whole request (invalid_scope). So /mcp names what an agent nobody made by
 * hand is held to, through each door that holds it: a metadata document (CIMD_SCOPES, unless
 * CIMD_POLICY=off) and open registration (DCR_SCOPES under DCR_POLICY=open). With both, what
 * both allow, and the operator is warned when they differ; sets with nothing in common are a
 * configuration no agent could use, refused at start. Where no door holds agents to a set
 * (registration under review accepts any scope for an admin to judge, or no door is open),
 * DCR_SCOPES: what a registration that asks for no scope gets.
 */
function agentScopes(
  clientMetadata: { policy: string; scopes: string[] },
  registration: { policy: string; scopes: string[] },
): { scopes: string[]; disagree: boolean } {
  const holding = [...(clientMetadata.policy !== 'off' ? [clientMetadata] : []), ...(registration.policy === 'open' ? [registration] : [])];
  if (holding.length === 0) return { scopes: registration.scopes, disagree: false };
  const common = holding.reduce((kept, door) => kept.filter((scope) => door.scopes.includes(scope)), holding[0]!.scopes);
  if (common.length === 0) {
    throw new ConfigError('CIMD_SCOPES and DCR_SCOPES have no scope in common while metadata documents and open registration are both on: an agent could ask for nothing that both grant. Give them a scope in common, or turn one door off (CIMD_POLICY=off or DCR_POLICY=off)');
  }
  return { scopes: common, disagree: holding.some((door) => door.scopes.length !== common.length) };
}

export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  appUrl: string;
  /** RFC 8414 / RFC 9207 issuer identifier: the base URL. */
  issuer: string;
  /**
   * The addresses (APP_URL, BASE_URL) that neither their variable nor PORT set: a guess at the
   * default port, which a command run beside a server started with another PORT gets wrong.
   */
  addressesAssumed: Array<'APP_URL' | 'BASE_URL'>;
  databaseUrl: string;
  redisUrl: string | undefined;
  /** How long after start a Redis not yet reached is no outage, in milliseconds. */
  redisStartGraceMs: number;
  logLevel: Settings['LOG_LEVEL'];
  /** The cost of new password hashes: RFC 9106 §4's second option, or OWASP's argon2id minimum. */
  passwordHashing: Settings['PASSWORD_HASHING'];
  cookieSecret: string | undefined;
  /** docs/operating.md#signing-keys: SIGNING_KEYS_SECRET, and how often an instance reads the keys again. */
  signingKeys: { secret: string | undefined; refreshSeconds: number };
  metricsToken: string | undefined;
  /** Fastify's trustProxy: false (no proxy) or the proxies' addresses and ranges. */
  trustProxy: false | string[];
  /** Lifetimes in seconds. */
  ttl: { authCode: number; accessToken: number; refreshIdle: number; refreshReuseWindow: number };
  /** OUTBOUND_ALLOW_PRIVATE=1: outbound URLs may be http and on private addresses (docs/rules.md#outbound-urls). */
  outboundAllowPrivate: boolean;
  /** WEBHOOK_POLL_INTERVAL_MS: the delivery engine's pace (docs/rules.md#webhooks). */
  webhookPollIntervalMs: number;
  /**
   * docs/rules.md#retention: how long ended rows are kept (services/retention/policy.ts reads the
   * first two), and how often an instance prunes.
   */
  retention: { replayWindowSeconds: number; auditRetentionDays: number; pruneIntervalSeconds: number };
  rateLimits: {
    tokenPerMinute: number;
    clientAuthFailuresPerMinute: number;
    loginFailuresPer15Minutes: number;
    loginFailuresPerIpPer15Minutes: number;
    /** docs/rules.md#rate-limits: public booking writes without an access token. */
    publicBookingsPerIpPerHour: number;
    publicBookingsPerEventTypePerHour: number;
  };
  /** Longest wait for a database connection or SQLite's write lock, in milliseconds. */
  databaseConnectTimeoutMs: number;
  /** Node's HTTP server timeouts, in milliseconds (docs/operating.md#when-things-fail). */
  httpTimeouts: { headersTimeout: number; requestTimeout: number; keepAliveTimeout: number; connectionsCheckingInterval: number };
  /** After SIGTERM, what is still open this long is cut, in milliseconds (http/draining.ts). */
  shutdownGraceMs: number;
  /** docs/rules.md#dynamic-registration: dynamic client registration. */
  registration: { policy: 'off' | 'review' | 'open'; scopes: string[]; perIpPerHour: number; openPerIpPerHour: number };
  /** docs/rules.md#client-metadata-documents: client metadata documents. */
  clientMetadata: { policy: 'off' | 'review' | 'open'; scopes: string[] };
  /** docs/rules.md#pushed-authorization: PAR_POLICY. */
  pushedAuthorization: { policy: 'optional' | 'required' };
  /** docs/rules.md#mcp-server: MCP_ALLOWED_ORIGINS, each as a browser's Origin header writes it. */
  mcpAllowedOrigins: string[];
  /** docs/rules.md#protected-resource-metadata: the scopes /mcp names (its resource metadata, its 401's hint); see agentScopes(). */
  agentScopes: string[];
  /** The web app is served on loopback: a developer's own machine. */
  localDevelopment: boolean;
  /** Cookies get `Secure` when the web app is served over https (docs/rules.md#sessions-and-csrf). */
  secureCookies: boolean;
  warnings: string[];
}

export class ConfigError extends Error {}

/** Names of every setting: what loadConfig reads, and `gatehouse --help` lists (./help.ts). */
export const settingNames = Object.keys(settingsSchema.shape) as SettingName[];

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const input: Record<string, string> = {};
  for (const name of settingNames) {
    const value = env[name];
    if (value !== undefined && value !== '') input[name] = value;
  }
  const parsed = settingsSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'configuration');
    const message = issue.message.startsWith(name) ? issue.message : `${name}: ${issue.message}`;
    throw new ConfigError(message);
  }
  const s = parsed.data;
  if (s.HTTP_HEADERS_TIMEOUT_SECONDS > s.HTTP_REQUEST_TIMEOUT_SECONDS) {
    // Node refuses a header timeout longer than the whole request's.
    throw new ConfigError(
      `HTTP_HEADERS_TIMEOUT_SECONDS (${s.HTTP_HEADERS_TIMEOUT_SECONDS}) must not be longer than HTTP_REQUEST_TIMEOUT_SECONDS (${s.HTTP_REQUEST_TIMEOUT_SECONDS})`,
    );
  }
  const warnings: string[] = [];
  if (s.AUTH_CODE_TTL_SECONDS > 600) {
    warnings.push(
      `AUTH_CODE_TTL_SECONDS is ${s.AUTH_CODE_TTL_SECONDS}: codes outliving 10 minutes are for benchmarks only (RFC 6749 §4.1.2)`,
    );
  }
  // docs/rules.md#outbound-urls: on a developer's machine too, since a setting copied from one
  // into production would open the SSRF guard without anyone noticing.
  if (s.OUTBOUND_ALLOW_PRIVATE === '1') {
    warnings.push('OUTBOUND_ALLOW_PRIVATE=1: webhook, calendar-feed and client-metadata URLs may be http and point at private and loopback addresses; use it for development and tests only');
  }
  const appUrl = s.APP_URL ?? localAddress(s.PORT);
  const baseUrl = s.BASE_URL ?? localAddress(s.PORT);
  if (s.PORT === 0 && (s.APP_URL === undefined || s.BASE_URL === undefined)) {
    warnings.push(`PORT=0 listens on any free port, which APP_URL and BASE_URL cannot follow: they are ${localAddress(0)} unless set`);
  }
  const clientMetadata = { policy: s.CIMD_POLICY, scopes: s.CIMD_SCOPES ?? defaultUnreviewedScopes };
  const registration = { policy: s.DCR_POLICY, scopes: s.DCR_SCOPES ?? defaultUnreviewedScopes, perIpPerHour: s.RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR, openPerIpPerHour: s.RATE_LIMIT_OPEN_REGISTRATIONS_PER_IP_PER_HOUR };
  const agents = agentScopes(clientMetadata, registration);
  if (agents.disagree) {
    warnings.push(`CIMD_SCOPES and DCR_SCOPES differ while metadata documents and open registration are both on: /mcp names only the scopes both allow (${agents.scopes.join(' ')}), so that an agent asking for them is refused by neither`);
  }
  return {
    port: s.PORT,
    host: s.HOST,
    baseUrl,
    appUrl,
    issuer: baseUrl,
    addressesAssumed: env.PORT === undefined || env.PORT === '' ? [...(s.APP_URL === undefined ? ['APP_URL' as const] : []), ...(s.BASE_URL === undefined ? ['BASE_URL' as const] : [])] : [],
    databaseUrl: s.DATABASE_URL,
    redisUrl: s.REDIS_URL,
    redisStartGraceMs: s.REDIS_START_GRACE_SECONDS * 1000,
    logLevel: s.LOG_LEVEL,
    cookieSecret: s.COOKIE_SECRET,
    signingKeys: { secret: s.SIGNING_KEYS_SECRET, refreshSeconds: s.SIGNING_KEYS_REFRESH_SECONDS },
    passwordHashing: s.PASSWORD_HASHING,
    metricsToken: s.METRICS_TOKEN,
    trustProxy: s.TRUST_PROXY ?? false,
    ttl: {
      authCode: s.AUTH_CODE_TTL_SECONDS,
      accessToken: s.ACCESS_TOKEN_TTL_SECONDS,
      refreshIdle: s.REFRESH_TOKEN_IDLE_TTL_SECONDS,
      refreshReuseWindow: s.REFRESH_REUSE_WINDOW_SECONDS,
    },
    rateLimits: {
      tokenPerMinute: s.RATE_LIMIT_TOKEN_PER_MINUTE,
      clientAuthFailuresPerMinute: s.RATE_LIMIT_CLIENT_AUTH_FAILURES_PER_MINUTE,
      loginFailuresPer15Minutes: s.RATE_LIMIT_LOGIN_FAILURES_PER_15_MINUTES,
      loginFailuresPerIpPer15Minutes: s.RATE_LIMIT_LOGIN_FAILURES_PER_IP_PER_15_MINUTES,
      publicBookingsPerIpPerHour: s.RATE_LIMIT_PUBLIC_BOOKINGS_PER_IP_PER_HOUR,
      publicBookingsPerEventTypePerHour: s.RATE_LIMIT_PUBLIC_BOOKINGS_PER_EVENT_TYPE_PER_HOUR,
    },
    outboundAllowPrivate: s.OUTBOUND_ALLOW_PRIVATE === '1',
    webhookPollIntervalMs: s.WEBHOOK_POLL_INTERVAL_MS,
    retention: {
      replayWindowSeconds: s.REFRESH_REUSE_WINDOW_SECONDS,
      auditRetentionDays: s.AUDIT_RETENTION_DAYS,
      pruneIntervalSeconds: s.PRUNE_INTERVAL_SECONDS,
    },
    databaseConnectTimeoutMs: s.DATABASE_CONNECT_TIMEOUT_SECONDS * 1000,
    httpTimeouts: {
      headersTimeout: s.HTTP_HEADERS_TIMEOUT_SECONDS * 1000,
      requestTimeout: s.HTTP_REQUEST_TIMEOUT_SECONDS * 1000,
      keepAliveTimeout: s.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
      connectionsCheckingInterval: s.HTTP_TIMEOUT_CHECK_INTERVAL_SECONDS * 1000,
    },
    shutdownGraceMs: s.SHUTDOWN_GRACE_SECONDS * 1000,
    clientMetadata,
    pushedAuthorization: { policy: s.PAR_POLICY },
    registration,
    agentScopes: agents.scopes,
    mcpAllowedOrigins: s.MCP_ALLOWED_ORIGINS ?? [],
    secureCookies: appUrl.startsWith('https:'),
    localDevelopment: ['localhost', '127.0.0.1', '[::1]'].includes(new URL(appUrl).hostname),
    warnings,
  };
}
