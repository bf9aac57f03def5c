// The signing keys of the identity providers organizations trust
// (docs/integrating.md#enterprise-managed-agents), for the JWT bearer grant's key getter
// (src/oauth/identity-assertion.ts: IdentityAssertions.keys). Fetched from the trust's jwks_uri
// through the outbound guard (docs/rules.md#outbound-urls), kept for a while, fetched again
// when an ID-JAG names a kid the kept set lacks (a rotation), at most once per cool-down so
// that made-up kids cannot make us fetch on every request. Kept per issuer and address: a key
// published for one issuer never verifies another's ID-JAG.
import { createLocalJWKSet, type JSONWebKeySet, type JWK, type JWTVerifyGetKey } from 'jose';
import { IdentityProviderKeysUnavailable, type TrustedIdentityProvider } from '../../oauth/identity-assertion.ts';
import { outboundRequest, OutboundRequestError, type OutboundTarget } from '../outbound-request.ts';
import { checkOutboundUrl, type OutboundPolicy } from '../outbound-url.ts';

/** How long a fetched key set is used before it is fetched again. */
export const KEYS_FRESH_MS = 10 * 60_000;
/** The least time between two fetches of one set, whatever kid an ID-JAG names. */
export const KEYS_COOLDOWN_MS = 30_000;
export const KEYS_TIMEOUT_MS = 5_000;
export const KEYS_MAX_BYTES = 64 * 1024;
/** An identity provider publishes a few keys; more is not a key set we use. */
export const MAX_KEYS = 50;

/** RFC 7517 §6.2.2, §6.3.2, §6.4: members that only a private or symmetric key has. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/** GET the key set at `target`; the body's text, or a failure. */
export type FetchKeys = (target: OutboundTarget) => Promise<{ status: number; body: string }>;

const fetchOverGuard: FetchKeys = async (target) => {
  const answer = await outboundRequest(target, { method: 'GET', headers: { accept: 'application/jwk-set+json, application/json' }, timeoutMs: KEYS_TIMEOUT_MS, maxBytes: KEYS_MAX_BYTES, beyondLimit: 'refuse' });
  if (!answer.whole) throw new OutboundRequestError('unreachable', 'the key set host broke off its answer');
  return { status: answer.status, body: answer.body.toString('utf8') };
};

interface Kept {
  set: ReturnType<typeof createLocalJWKSet>;
  fetchedAt: number;
}

/** The public signing keys of a JWK Set's text: asymmetric, without private members, for signing. */
export function signingKeys(text: string): JSONWebKeySet | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'its jwks_uri did not answer JSON';
  }
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) return 'its jwks_uri did not answer a JWK Set (a "keys" array)';
  const usable = keys.filter(
    (k): k is JWK =>
      k !== null && typeof k === 'object' && ['RSA', 'EC', 'OKP'].includes((k as JWK).kty as string) && !PRIVATE_MEMBERS.some((m) => m in k) && ((k as JWK).use === undefined || (k as JWK).use === 'sig'),
  );
  if (usable.length === 0) return 'its jwks_uri publishes no public signing key';
  return { keys: usable.slice(0, MAX_KEYS) };
}

/** The key getter of each trust, over one cache shared by every token request of this process. */
export function createIdentityProviderKeys(outbound: OutboundPolicy, clock: () => number, fetchKeys: FetchKeys = fetchOverGuard): (trust: TrustedIdentityProvider) => JWTVerifyGetKey {
  const kept = new Map<string, Kept>();
  const inFlight = new Map<string, Promise<Kept>>();

  async function fetchSet(trust: TrustedIdentityProvider): Promise<Kept> {
    const checked = await checkOutboundUrl(trust.jwksUri, outbound);
    if (!checked.ok) throw new IdentityProviderKeysUnavailable(`its jwks_uri ${checked.problem.replace(/: webhooks and calendar feeds must be on a public address$/, ': it must be on a public address')}`);
    let answer: { status: number; body: string };
    try {
      answer = await fetchKeys(checked);
    } catch (error) {
      throw new IdentityProviderKeysUnavailable(error instanceof OutboundRequestError && error.reason === 'timeout' ? `its jwks_uri did not answer within ${KEYS_TIMEOUT_MS / 1000} seconds` : 'its jwks_uri could not be reached');
    }
    if (answer.status !== 200) throw new IdentityProviderKeysUnavailable(`its jwks_uri answered ${answer.status}`);
    const keys = signingKeys(answer.body);
    if (typeof keys === 'string') throw new IdentityProviderKeysUnavailable(keys);
    return { set: createLocalJWKSet(keys), fetchedAt: clock() };
  }

  /** One fetch at a time per set: concurrent requests share it. */
  function refresh(cacheKey: string, trust: TrustedIdentityProvider): Promise<Kept> {
    let pending = inFlight.get(cacheKey);
    if (pending === undefined) {
      pending = fetchSet(trust)
        .then((fresh) => {
          if (kept.size >= 1000) kept.clear();
          kept.set(cacheKey, fresh);
          return fresh;
        })
        .finally(() => inFlight.delete(cacheKey));
      inFlight.set(cacheKey, pending);
    }
    return pending;
  }

  return (trust) => async (header, token) => {
    const cacheKey = `${trust.issuer}\n${trust.jwksUri}`;
    let current = kept.get(cacheKey);
    if (current === undefined || clock() - current.fetchedAt > KEYS_FRESH_MS) current = await refresh(cacheKey, trust);
    try {
      return await current.set(header, token);
    } catch (error) {
      // An unknown kid: the provider may have rotated its keys since we fetched them.
      if ((error as { code?: unknown }).code !== 'ERR_JWKS_NO_MATCHING_KEY' || clock() - current.fetchedAt < KEYS_COOLDOWN_MS) throw error;
      return (await refresh(cacheKey, trust)).set(header, token);
    }
  };
}
