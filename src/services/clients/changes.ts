// Changes to an existing client (docs/rules.md#client-states, docs/rules.md#legacy-clients, docs/rules.md#client-changes), shared by the developer pages
// and `gatehouse clients update`. On an approved client, what widens its reach (added
// redirect URIs, added scopes) waits for an admin while the approved configuration stays
// live; everything else applies at once. Saving scopes on a legacy client is its migration.
import { formatScopes } from '../../oauth/scopes.ts';
import type { AuditEventInput } from '../audit.ts';
import type { ServiceContext } from '../context.ts';
import { conflict, validation } from '../errors.ts';
import type { ServiceStores } from '../stores.ts';
import { checkDescription, checkHomepage, checkLogo, checkName, checkRedirectUris, checkScopes, fapi2NeedsConfidential, checkAuthMethod, checkAuthentication, checkJwks, checkIdTokenAlg, checkPostLogoutRedirectUris } from './input.ts';
import type { JSONWebKeySet } from 'jose';
import type { TokenEndpointAuthMethod } from '../../oauth/storage.ts';
import type { ClientChanges, StoredClient } from './store.ts';
import { claimClient } from './version.ts';
import { requireClient, type ClientView } from './view.ts';

/** A developer's edit; a field left undefined is left as it is. Lists are the whole desired list. */
export interface ClientEdit {
  name?: string;
  description?: string;
  homepageUrl?: string;
  logoUrl?: string;
  redirectUris?: string[];
  scopes?: string[];
  /** docs/rules.md#pushed-authorization: its authorization requests must be pushed (RFC 9126 §6). */
  requirePushedAuthorizationRequests?: boolean;
  /** RFC 9449 §5.2 (docs/rules.md#dpop): applies at once; it narrows what the client may do. */
  dpopBoundAccessTokens?: boolean;
  /** docs/rules.md#fapi2: the FAPI 2.0 Security Profile; applies at once, for confidential clients only. */
  fapi2?: boolean;
  /** docs/rules.md#client-authentication: RFC 7591 §2 token_endpoint_auth_method; applies at once. */
  tokenEndpointAuthMethod?: string;
  /** docs/rules.md#client-authentication: the public keys, JSON text or parsed; null or '' removes them. Applies at once. */
  jwks?: unknown;
  /** OpenID Connect Registration §2 id_token_signed_response_alg; '' is the default. Applies at once. */
  idTokenSignedResponseAlg?: string;
  /** OpenID Connect RP-Initiated Logout §3.1: on the origins of the redirect URIs; applies at once. */
  postLogoutRedirectUris?: string[];
}

export interface EditOptions {
  /** docs/rules.md#legacy-clients: the developer confirmed the migration despite recent requests without scope. */
  confirmScopeless?: boolean;
  /**
   * docs/rules.md#client-metadata-documents: the change is the client's metadata document as published again. Nobody
   * can be asked to keep an approved redirect URI, so every live one may go; additions are
   * held as for a developer unless nobody reviews this client's documents (`reviewed: false`:
   * CIMD_POLICY=open, or a host the admin trusts).
   */
  fromDocument?: { reviewed: boolean };
}

export interface EditResult {
  client: ClientView;
  /** Additions now awaiting review (empty when nothing is held). */
  held: { redirectUris: string[]; scopes: string[] };
  /** The legacy client became scope-enforced. */
  migrated: boolean;
  /** A rejected client went back to pending (docs/rules.md#client-states). */
  resubmitted: boolean;
}

/** docs/rules.md#legacy-clients: the migration warning looks back 30 days. */
export const SCOPELESS_WINDOW_MS = 30 * 24 * 3600 * 1000;

/** How many of the client's authorization requests in the last 30 days carried no `scope`. */
export async function countScopelessRequests(ctx: ServiceContext, clientId: string, stores: ServiceStores = ctx.stores): Promise<number> {
  return stores.clients.countScopelessRequests(clientId, ctx.clock() - SCOPELESS_WINDOW_MS);
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/** Splits a desired list into what stays live (removals apply at once) and what is held. */
function splitChange(live: readonly string[], desired: readonly string[]) {
  return { kept: live.filter((v) => desired.includes(v)), added: desired.filter((v) => !live.includes(v)) };
}

type CheckedEdit = { [K in Exclude<keyof ClientEdit, 'tokenEndpointAuthMethod' | 'jwks'>]: K extends 'logoUrl' ? string | null | undefined : ClientEdit[K] } & {
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  jwks?: JSONWebKeySet | null;
};

/** Everything is checked before anything is written. */
function checkEdit(edit: ClientEdit): CheckedEdit {
  return {
    name: edit.name === undefined ? undefined : checkName(edit.name),
    description: edit.description === undefined ? undefined : checkDescription(edit.description),
    homepageUrl: edit.homepageUrl === undefined ? undefined : checkHomepage(edit.homepageUrl),
    logoUrl: edit.logoUrl === undefined ? undefined : checkLogo(edit.logoUrl),
    redirectUris: edit.redirectUris === undefined ? undefined : checkRedirectUris(edit.redirectUris),
    scopes: edit.scopes === undefined ? undefined : checkScopes(edit.scopes),
    requirePushedAuthorizationRequests: edit.requirePushedAuthorizationRequests,
    dpopBoundAccessTokens: edit.dpopBoundAccessTokens,
    fapi2: edit.fapi2,
    tokenEndpointAuthMethod: edit.tokenEndpointAuthMethod === undefined ? undefined : checkAuthMethod(edit.tokenEndpointAuthMethod),
    jwks: edit.jwks === undefined ? undefined : checkJwks(edit.jwks),
    idTokenSignedResponseAlg: edit.idTokenSignedResponseAlg,
    postLogoutRedirectUris: edit.postLogoutRedirectUris,
  };
}

/** What one edit does to the stored client: the writes, the fields named in the audit, the events, what is held. */
interface EditPlan {
  set: ClientChanges;
  changed: string[];
  events: AuditEventInput[];
  heldUris: string[];
  heldScopes: string[];
  migrated: boolean;
}

/** Name, description, homepage, logo and the DPoP requirement apply at once, whatever the state. */
function planPlainFields(plan: EditPlan, client: StoredClient, next: CheckedEdit): void {
  const plain = [
    ['name', 'name', next.name, client.name],
    ['description', 'description', next.description, client.description],
    ['homepageUrl', 'homepage_url', next.homepageUrl, client.homepageUrl],
    ['logoUrl', 'logo_url', next.logoUrl, client.logoUrl],
    ['dpopBoundAccessTokens', 'dpop_bound_access_tokens', next.dpopBoundAccessTokens, client.dpopBoundAccessTokens],
    ['fapi2', 'fapi2', next.fapi2, client.fapi2],
    ['tokenEndpointAuthMethod', 'token_endpoint_auth_method', next.tokenEndpointAuthMethod, client.tokenEndpointAuthMethod],
  ] as const;
  if (next.fapi2 === true && client.kind !== 'confidential') throw fapi2NeedsConfidential();
  // docs/rules.md#client-authentication: the method, the keys and the profile are checked together,
  // as the client would be after the edit. Keys are credentials, as secrets are: they apply at once.
  // An edit that touches none of them leaves a profile client of before keys as it is: its
  // secret requests are refused at the token endpoint, with what to do (docs/rules.md#fapi2).
  const jwks = next.jwks === undefined ? client.jwks : next.jwks;
  const touched = next.fapi2 !== undefined || next.tokenEndpointAuthMethod !== undefined || next.jwks !== undefined;
  if (touched) checkAuthentication({
    kind: client.kind,
    tokenEndpointAuthMethod: next.tokenEndpointAuthMethod ?? client.tokenEndpointAuthMethod,
    jwks,
    fapi2: next.fapi2 ?? client.fapi2,
  });
  if (next.jwks !== undefined && JSON.stringify(next.jwks) !== JSON.stringify(client.jwks)) {
    plan.set.jwks = next.jwks;
    plan.changed.push('jwks');
  }
  // OpenID Connect: the ID token's algorithm and where logout returns narrow nothing a review
  // looked at (logout returns only to the origins of reviewed redirect URIs): at once.
  const fapi2 = next.fapi2 ?? client.fapi2;
  if (next.idTokenSignedResponseAlg !== undefined || (fapi2 && client.idTokenSignedResponseAlg === 'RS256')) {
    const alg = checkIdTokenAlg(next.idTokenSignedResponseAlg ?? client.idTokenSignedResponseAlg ?? '', fapi2);
    if (alg !== client.idTokenSignedResponseAlg) {
      plan.set.idTokenSignedResponseAlg = alg;
      plan.changed.push('id_token_signed_response_alg');
    }
  }
  if (next.postLogoutRedirectUris !== undefined) {
    // The origins of reviewed redirect URIs: a pending client's are all about to be reviewed.
    const origins = client.state === 'pending' && next.redirectUris !== undefined ? [...client.redirectUris, ...next.redirectUris] : client.redirectUris;
    const uris = checkPostLogoutRedirectUris(next.postLogoutRedirectUris, origins);
    if (!sameList(uris, client.postLogoutRedirectUris)) {
      plan.set.postLogoutRedirectUris = uris;
      plan.changed.push('post_logout_redirect_uris');
    }
  }
  for (const [field, column, value, current] of plain) {
    if (value !== undefined && value !== current) {
      (plan.set as Record<string, unknown>)[field] = value;
      plan.changed.push(column);
    }
  }
  // docs/rules.md#pushed-authorization: requiring PAR narrows how the client may be used, and
  // dropping it widens nothing a review looked at, so it applies at once either way.
  const par = next.requirePushedAuthorizationRequests;
  if (par !== undefined && par !== client.requirePushedAuthorizationRequests) {
    plan.set.requirePushedAuthorizationRequests = par;
    plan.changed.push('require_pushed_authorization_requests');
  }
}

/** docs/rules.md#client-changes: on a reviewed client, removals apply at once and additions are held. */
function planRedirectUris(plan: EditPlan, client: StoredClient, desired: string[], holds: boolean, fromDocument: boolean): void {
  if (holds) {
    const { kept, added } = splitChange(client.redirectUris, desired);
    if (kept.length === 0 && !fromDocument) {
      throw validation(
        'keep at least one approved redirect URI until an admin approves the new ones: add the new URI now and remove the old one after the review',
        'redirect_uris',
      );
    }
    if (!sameList(kept, client.redirectUris)) {
      plan.set.redirectUris = kept;
      plan.changed.push('redirect_uris');
    }
    plan.heldUris = added;
  } else {
    if (!sameList(desired, client.redirectUris)) {
      plan.set.redirectUris = desired;
      plan.changed.push('redirect_uris');
    }
    // A document nobody reviews applies as published: nothing of it waits for an admin.
    if (fromDocument) plan.heldUris = [];
  }
}

/**
 * docs/rules.md#legacy-clients: migrating before the authorization URL carries scope
 * breaks users who follow an old URL, so recent scopeless requests need an explicit
 * confirmation.
 */
async function planMigration(ctx: ServiceContext, tx: ServiceStores, plan: EditPlan, clientId: string, actorId: string | null, scopes: string[], options: EditOptions) {
  const scopeless = await countScopelessRequests(ctx, clientId, tx);
  if (scopeless > 0 && !options.confirmScopeless) {
    throw conflict(
      `${scopeless} authorization request${scopeless === 1 ? '' : 's'} of this client in the last 30 days came without scope; ` +
        'after the migration such requests fail. Make the authorization URL carry scope first, then confirm the migration',
      'confirm',
    );
  }
  plan.set.scopes = scopes;
  plan.migrated = true;
  plan.events.push({ type: 'client.migrated', actorId, clientId, data: { scopes: formatScopes(scopes), scopelessRequests: scopeless } });
}

/** Scopes of a scope-enforced client: as redirect URIs, additions to a reviewed client are held. */
function planScopes(plan: EditPlan, client: StoredClient, actorId: string | null, live: string[], desired: string[], holds: boolean): void {
  let after = live;
  if (holds) {
    const { kept, added } = splitChange(live, desired);
    if (kept.length === 0) throw validation('keep at least one approved scope until an admin approves the new ones', 'scopes');
    if (!sameList(kept, live)) after = kept;
    plan.heldScopes = added;
  } else if (!sameList(desired, live)) {
    after = desired;
  }
  if (after !== live) {
    plan.set.scopes = after;
    plan.changed.push('scopes');
    plan.events.push({ type: 'client.scopes_changed', actorId, clientId: client.id, data: { from: formatScopes(live), to: formatScopes(after) } });
  }
}

async function planEdit(ctx: ServiceContext, tx: ServiceStores, client: StoredClient, actorId: string | null, next: CheckedEdit, options: EditOptions): Promise<EditPlan> {
  const plan: EditPlan = { set: {}, changed: [], events: [], heldUris: client.proposedRedirectUris, heldScopes: client.proposedScopes, migrated: false };
  // Approved (or suspended, which an admin may re-approve) configurations are in use or
  // were reviewed: additions to them need a review of their own.
  const holds = (client.state === 'approved' || client.state === 'suspended') && options.fromDocument?.reviewed !== false;
  planPlainFields(plan, client, next);
  if (next.redirectUris !== undefined) planRedirectUris(plan, client, next.redirectUris, holds, options.fromDocument !== undefined);
  if (next.scopes !== undefined) {
    if (client.scopes === null) await planMigration(ctx, tx, plan, client.id, actorId, next.scopes, options);
    else planScopes(plan, client, actorId, client.scopes, next.scopes, holds);
  }
  return plan;
}

export async function updateClient(
  ctx: ServiceContext,
  clientId: string,
  actorId: string | null,
  edit: ClientEdit,
  options: EditOptions = {},
): Promise<EditResult> {
  const next = checkEdit(edit);
  const now = ctx.clock();
  const outcome = await ctx.stores.transaction(async (tx) => {
    const client = await claimClient(tx, clientId, now);
    const plan = await planEdit(ctx, tx, client, actorId, next, options);
    const { set, changed, heldUris, heldScopes } = plan;
    const heldChanged = !sameList(heldUris, client.proposedRedirectUris) || !sameList(heldScopes, client.proposedScopes);
    if (heldChanged) Object.assign(set, { proposedRedirectUris: heldUris, proposedScopes: heldScopes });
    // docs/rules.md#client-states: rejected → pending when the developer edits and resubmits. A metadata
    // document published again is no resubmission: the admin's rejection stands.
    const resubmitted = client.state === 'rejected' && options.fromDocument === undefined;
    if (resubmitted) Object.assign(set, { state: 'pending', reviewNote: null, reviewedBy: null, reviewedAt: null });
    for (const event of plan.events) await tx.audit.append(event, now);
    // docs/rules.md#review-versions: a real change makes any review page opened before it out of date.
    if (Object.keys(set).length > 0) await tx.clients.update(clientId, set, { raiseVersion: true });
    if (changed.length > 0 || heldChanged || resubmitted) {
      const data = {
        fields: changed,
        ...(heldChanged ? { awaitingReview: { redirectUris: heldUris, scopes: heldScopes } } : {}),
        ...(resubmitted ? { resubmitted: true } : {}),
        ...(options.fromDocument ? { source: 'client metadata document' } : {}),
      };
      await tx.audit.append({ type: 'client.updated', actorId, clientId, data }, now);
    }
    return { held: { redirectUris: heldUris, scopes: heldScopes }, migrated: plan.migrated, resubmitted };
  });
  return { client: await requireClient(ctx, clientId), ...outcome };
}

/** docs/rules.md#legacy-clients: saving scopes on a legacy client makes it scope-enforced, in place. */
export async function migrateLegacyClient(
  ctx: ServiceContext,
  clientId: string,
  actorId: string | null,
  scopes: string[],
  options: EditOptions = {},
): Promise<EditResult> {
  const current = await requireClient(ctx, clientId);
  if (!current.legacy) throw conflict('this client already has scopes: edit them in the client settings instead');
  return updateClient(ctx, clientId, actorId, { scopes }, options);
}
