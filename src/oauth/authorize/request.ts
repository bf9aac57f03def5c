// The authorization request (RFC 6749 §4.1.1) as the endpoint reads it: the parameters it
// takes, the request once checked, and what login and the consent form carry of it.
import type { ClientRecord } from '../storage.ts';

/** The parameters as they arrived (a query, a form, a pushed request): a repeated one is a list. */
export type RawParameters = Record<string, unknown>;

/** The parameters the authorization endpoint reads; others are ignored (RFC 6749 §3.1). */
export const authorizationParameters = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'prompt',
  // RFC 9449 §10: binds the code to a DPoP key.
  'dpop_jkt',
  // docs/rules.md#team-authorization: the grant acts for this team.
  'team_slug',
  // OpenID Connect Core §3.1.2.1: the value the ID token carries back, and the longest time
  // since the user last logged in that the application accepts.
  'nonce',
  'max_age',
] as const;

/** docs/rules.md#silent-authorization: the prompt values Gatehouse honours; select_account has no page here. */
export type PromptValue = 'none' | 'login' | 'consent';

export interface AuthorizationRequest {
  client: ClientRecord;
  redirectUri: string;
  state: string | undefined;
  /** Requested scopes in registry order; null for a legacy client (scope ignored). */
  scopes: string[] | null;
  /** Whether the request carried `scope` at all (for the legacy-migration warning). */
  hadScope: boolean;
  codeChallenge: string | null;
  /** The `prompt` values (OpenID Connect Core §3.1.2.1), validated by readPrompt. */
  prompt: ReadonlySet<PromptValue>;
  /** RFC 8707: the resources the grant will cover; null (none sent) is the default resource. */
  resources: string[] | null;
  /** RFC 9449 §10: the JWK thumbprint the code exchange must prove; null when none was sent. */
  dpopJkt: string | null;
  /** docs/rules.md#team-authorization: the slug of the team the grant is to act for; null: for the user. */
  teamSlug: string | null;
  /** OpenID Connect Core §3.1.2.1 nonce: what the ID token carries back; null when none was sent. */
  nonce: string | null;
  /** OpenID Connect Core §3.1.2.1 max_age, in seconds: an older login must be made again; null when none was sent. */
  maxAge: number | null;
  /**
   * The team `teamSlug` names, once a signed-in user was found to be an owner or admin of it
   * (team.ts: resolveTeam); absent before, and for a request that names no team.
   */
  team?: { id: string; name: string };
  /** The validated parameters, to carry through login and the consent form. */
  params: Record<string, string>;
  /**
   * RFC 9126 §4: the request came from the PAR endpoint by this request_uri; login and the
   * consent form carry the reference, not the parameters, and the decision consumes it.
   */
  pushed?: PushedReference;
}

/** A request_uri as the browser sent it, and the hash it is stored under. */
export interface PushedReference {
  requestUri: string;
  hash: string;
}

/**
 * The request's parameters as name/value pairs, `resource` repeated once per value: what
 * the login redirect and the consent form carry so the request is read again unchanged.
 */
export function carriedParameters(request: AuthorizationRequest): [string, string][] {
  if (request.pushed !== undefined) return [['client_id', request.params.client_id!], ['request_uri', request.pushed.requestUri]];
  const pairs: [string, string][] = authorizationParameters
    .filter((name) => request.params[name] !== undefined)
    .map((name) => [name, request.params[name]!]);
  for (const resource of request.resources ?? []) pairs.push(['resource', resource]);
  return pairs;
}

/** One parameter's value: undefined when absent or empty, 'repeated' when sent more than once. */
export function single(raw: RawParameters, name: string): string | undefined | 'repeated' {
  const value = raw[name];
  if (Array.isArray(value)) return 'repeated';
  if (typeof value !== 'string' || value === '') return undefined;
  return value;
}
