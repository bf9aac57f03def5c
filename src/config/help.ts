// What `gatehouse --help` says of each setting. The names come from the schema loadConfig
// reads and the defaults from parsing an empty environment, so neither can drift; the
// meanings are a table TypeScript holds to exactly the schema's names.
import { settingNames, settingsSchema, type SettingName } from './index.ts';

const meanings: Record<SettingName, string> = {
  PORT: 'TCP port to listen on (0: any free port)',
  HOST: 'interface to bind; loopback, so a fresh install is not reachable from other machines',
  BASE_URL: 'public address of the token endpoint and the /v2 API; the issuer identifier (unset: follows PORT)',
  APP_URL: 'public address of the login, consent and settings pages (unset: follows PORT)',
  DATABASE_URL: 'sqlite:PATH (relative to the working folder), sqlite:/absolute/path.db, sqlite::memory:, or postgres://...',
  REDIS_URL: 'redis://...: rate-limit counters shared by every instance; unset: each process counts alone',
  REDIS_START_GRACE_SECONDS: 'after the server is ready, how long a Redis not yet reached is no outage and not logged as one',
  TRUST_PROXY: "the reverse proxies that may name the caller in X-Forwarded-For, as comma-separated IP addresses or CIDR ranges; unset: the socket's address is the caller",
  LOG_LEVEL: 'level of the JSON request logs: fatal, error, warn, info, debug, trace or silent',
  METRICS_TOKEN: 'bearer token (16+ characters) that lets other hosts read /metrics; unset: loopback only',
  PASSWORD_HASHING: "cost of new argon2id password hashes: rfc9106 (64 MiB, 3 passes, 4 lanes; RFC 9106's second recommendation) or owasp (19 MiB, 2 passes, 1 lane; OWASP's minimum, a quarter of the time on one core); existing hashes keep working either way",
  COOKIE_SECRET: 'signs cookies (32+ characters; the same on every instance); unset: generated once into data/cookie-secret',
  SIGNING_KEYS_SECRET: 'seals the private parts of the ID token signing keys in the database (32+ characters; the same on every instance and for the gatehouse command); unset: generated once into data/signing-keys-secret',
  SIGNING_KEYS_REFRESH_SECONDS: 'how long an instance keeps the signing keys it read: a rotation reaches every instance within this (1 to 60)',
  AUTH_CODE_TTL_SECONDS: 'lifetime of an authorization code (above 600 is for benchmarks and warns)',
  ACCESS_TOKEN_TTL_SECONDS: 'lifetime of an access token',
  REFRESH_TOKEN_IDLE_TTL_SECONDS: 'a refresh token unused this long expires; each rotation starts the wait again (default: 90 days)',
  REFRESH_REUSE_WINDOW_SECONDS: 'a spent refresh token returns the same new pair this long (safe retries); later it revokes the grant',
  RATE_LIMIT_TOKEN_PER_MINUTE: 'token requests per client per minute, counting only requests in which the client authenticated (0: no limit)',
  RATE_LIMIT_CLIENT_AUTH_FAILURES_PER_MINUTE: 'failed client authentications per client and IP per minute (0: no limit)',
  RATE_LIMIT_LOGIN_FAILURES_PER_15_MINUTES: 'failed logins per account and IP, and verification codes per address, per 15 minutes (0: no limit)',
  OUTBOUND_ALLOW_PRIVATE: '1: webhook, calendar-feed and client-metadata URLs may be http and on private addresses (development and tests only)',
  RATE_LIMIT_LOGIN_FAILURES_PER_IP_PER_15_MINUTES: 'failed logins per IP across accounts, and verification codes per IP, per 15 minutes (0: no limit)',
  AUDIT_RETENTION_DAYS: 'audit events are deleted this many days after they happened',
  PRUNE_INTERVAL_SECONDS: 'how often each instance deletes ended codes, tokens, sessions and authorization requests, in small batches',
  DATABASE_CONNECT_TIMEOUT_SECONDS: 'longest wait for a PostgreSQL connection or for SQLite\'s write lock; past it the request answers 503',
  HTTP_HEADERS_TIMEOUT_SECONDS: 'a connection must send its whole request head within this, or gets 408 and is closed',
  HTTP_REQUEST_TIMEOUT_SECONDS: 'a connection must send its whole request, body included, within this (at least HTTP_HEADERS_TIMEOUT_SECONDS)',
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: 'an idle keep-alive connection is closed after this (keep it above your load balancer\'s idle timeout)',
  HTTP_TIMEOUT_CHECK_INTERVAL_SECONDS: 'how often the header and request timeouts are checked: the most either is overrun by',
  SHUTDOWN_GRACE_SECONDS: 'after SIGTERM, requests still open this long are cut so the process exits (keep it below your supervisor\'s wait before SIGKILL)',
  DCR_POLICY: 'dynamic client registration (RFC 7591): off, review (clients start pending) or open (public clients approved at once, limited to DCR_SCOPES)',
  DCR_SCOPES: 'the scopes a registration without scope gets; under DCR_POLICY=open, the most it may ask for (default: the personal _READ scopes)',
  CIMD_POLICY: 'URL client ids (client metadata documents): review (an admin approves each), open (shown to users as unverified) or off',
  PAR_POLICY: 'pushed authorization requests (RFC 9126): optional (clients may push them) or required (every authorization request must be pushed)',
  CIMD_SCOPES: 'the scopes a metadata-document client may request (default: the personal _READ scopes)',
  RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR: 'dynamic client registrations under DCR_POLICY=review and first uses of client metadata documents, together, per IP per hour (0: no limit)',
  RATE_LIMIT_OPEN_REGISTRATIONS_PER_IP_PER_HOUR: 'dynamic client registrations under DCR_POLICY=open, per IP per hour (0: no limit)',
  RATE_LIMIT_PUBLIC_BOOKINGS_PER_IP_PER_HOUR: 'bookings made, rescheduled or cancelled without an access token, together, per IP per hour (0: no limit)',
  RATE_LIMIT_PUBLIC_BOOKINGS_PER_EVENT_TYPE_PER_HOUR: 'bookings made, rescheduled or cancelled without an access token, together, per event type per hour, from any address (0: no limit)',
  MCP_ALLOWED_ORIGINS: 'origins of web pages, comma-separated (https://agent.example.com), whose requests /mcp serves beside its own origins and those of approved applications\' redirect URIs; unset: none more',
  WEBHOOK_POLL_INTERVAL_MS: 'how often each instance looks for webhook deliveries that are due, in milliseconds',
};

export interface SettingHelp {
  name: SettingName;
  /** The value used when the variable is unset, as text; undefined when unset means off. */
  default: string | undefined;
  meaning: string;
}

/** Defaults that depend on another setting, which parsing an empty environment cannot show. */
const derivedDefaults: Partial<Record<SettingName, string>> = {
  BASE_URL: 'http://localhost:PORT',
  APP_URL: 'http://localhost:PORT',
};

export function settingsHelp(): SettingHelp[] {
  const defaults: Partial<Record<SettingName, unknown>> = settingsSchema.parse({});
  return settingNames.map((name) => ({ name, default: derivedDefaults[name] ?? (defaults[name] === undefined ? undefined : String(defaults[name])), meaning: meanings[name] }));
}

/** The help text's section: each variable with its default, then its meaning indented. */
export function settingsHelpText(): string {
  const entries = settingsHelp().map((s) => `  ${s.name} (default: ${s.default ?? 'unset'})\n      ${s.meaning}`);
  return `Environment variables:\n${entries.join('\n')}`;
}
