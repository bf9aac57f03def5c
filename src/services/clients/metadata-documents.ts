// Client ID Metadata Documents (docs/rules.md#client-metadata-documents, draft-ietf-oauth-client-id-metadata-document):
// the core's port (src/oauth/client-metadata.ts). A URL client id is fetched through the
// SSRF guard, checked (its client_id equals the URL, redirect URIs as the developer form
// checks them, token_endpoint_auth_method none), cached by its HTTP caching headers, and
// kept as a public client owned by the built-in account, whose state follows the policy:
// review — pending until an admin approves it (or trusts its host); open — approved, and
// unverified unless its host is trusted; a distrusted host's clients are refused.
import { MAX_CLIENT_ID_LENGTH, type ClientMetadataDocuments, type FirstUseGate, type MetadataClientResult } from '../../oauth/client-metadata.ts';
import { formatScopes } from '../../oauth/scopes.ts';
import type { ClientRecord } from '../../oauth/storage.ts';
import type { ServiceContext } from '../context.ts';
import { ServiceError } from '../errors.ts';
import { uriControlProblem } from '../names.ts';
import { checkOutboundUrl, type OutboundPolicy } from '../outbound-url.ts';
import { inMetadataTerms, registrationOwner } from './dynamic-registration.ts';
import { updateClient } from './changes.ts';
import { ExpiringCache } from './expiring-cache.ts';
import { documentHost } from './host-names.ts';
import { checkHomepage, checkLogo, checkName, checkRedirectUris } from './input.ts';
import { reopenIfOnlyOpenApproved } from './metadata-policy.ts';
import { cacheSeconds, DocumentFetchError, fetchDocument, type FetchedDocument } from './metadata-fetch.ts';
import type { StoredClient } from './store.ts';

export interface MetadataDocumentSettings {
  policy: 'review' | 'open';
  scopes: readonly string[];
  outbound: OutboundPolicy;
}

interface ClientDocument {
  name: string;
  redirectUris: string[];
  homepageUrl: string;
  logoUrl: string | null;
}

const refused = (problem: string): MetadataClientResult => ({ ok: false, problem });

/** The fields of a document Gatehouse stores: text from outside. */
const documentTextFields = ['client_name', 'client_uri', 'logo_uri', 'redirect_uris'] as const;

function readDocument(clientId: string, fetched: FetchedDocument): ClientDocument | string {
  if (fetched.status >= 300 && fetched.status < 400) return `the metadata document answered with a redirect (${fetched.status}), which is not followed`;
  if (fetched.status !== 200) return `the metadata document answered ${fetched.status}`;
  let doc: unknown;
  try {
    doc = JSON.parse(fetched.body);
  } catch {
    return 'the metadata document is not JSON';
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return 'the metadata document must be a JSON object';
  const d = doc as Record<string, unknown>;
  // draft-ietf-oauth-client-id-metadata-document §4: the document names itself exactly.
  if (d.client_id !== clientId) return 'the metadata document\'s client_id must equal its URL exactly';
  if (d.token_endpoint_auth_method !== 'none') return 'the metadata document must say token_endpoint_auth_method "none": such clients are public and use PKCE';
  if (!Array.isArray(d.redirect_uris) || d.redirect_uris.some((u) => typeof u !== 'string')) return 'the metadata document must list redirect_uris';
  // docs/rules.md#nul-bytes: PostgreSQL text cannot hold a NUL character; the document is refused at the
  // door rather than failing the write (a 500), naming the field.
  const withNul = documentTextFields.find((name) => [d[name]].flat().some((v) => typeof v === 'string' && v.includes('\u0000')));
  if (withNul !== undefined) return `the metadata document is not acceptable: ${withNul} holds a NUL character (U+0000)`;
  const text = (name: string) => (typeof d[name] === 'string' ? (d[name] as string) : undefined);
  try {
    return {
      name: checkName(text('client_name') ?? new URL(clientId).host),
      redirectUris: checkRedirectUris(d.redirect_uris as string[]),
      homepageUrl: checkHomepage(text('client_uri')),
      logoUrl: checkLogo(text('logo_uri')),
    };
  } catch (error) {
    if (error instanceof ServiceError) return `the metadata document is not acceptable: ${inMetadataTerms(error)}`;
    throw error;
  }
}

/**
 * Whether the document says something the stored client does not. Where an admin reviews
 * the host's documents, its redirect URIs are compared with the live ones plus those awaiting
 * review, so that fetching an unchanged document again writes nothing (and leaves an admin's
 * open review page current); where nobody does (any more), with the live ones alone.
 */
function publishedAgain(stored: StoredClient, doc: ClientDocument, reviewed: boolean): boolean {
  if (!reviewed && stored.proposedRedirectUris.length > 0) return true;
  const known = new Set(reviewed ? [...stored.redirectUris, ...stored.proposedRedirectUris] : stored.redirectUris);
  return (
    stored.name !== doc.name ||
    stored.homepageUrl !== doc.homepageUrl ||
    stored.logoUrl !== doc.logoUrl ||
    known.size !== doc.redirectUris.length ||
    doc.redirectUris.some((uri) => !known.has(uri))
  );
}

function toClientRecord(c: StoredClient, unverifiedHost: string | undefined): ClientRecord {
  return {
    id: c.id,
    name: c.name,
    homepageUrl: c.homepageUrl,
    kind: c.kind,
    state: c.state,
    redirectUris: c.redirectUris,
    scopes: c.scopes,
    resourceServer: c.resourceServer,
    description: c.description,
    ownerId: c.ownerId,
    requirePushedAuthorizationRequests: c.requirePushedAuthorizationRequests,
    ...(unverifiedHost !== undefined ? { unverifiedHost } : {}),
  };
}

/** How many documents (and as many failures) an instance keeps: each is a few kilobytes at most. */
export const MAX_CACHED_DOCUMENTS = 1_000;
/** docs/integrating.md#connect-an-ai-agent-mcp: a failed fetch is remembered this long. */
export const FAILED_FETCH_MEMORY_MS = 5 * 60 * 1000;
const NOT_USED_YET = 'this application has not been used on this server yet';

export function createMetadataDocuments(ctx: ServiceContext, settings: MetadataDocumentSettings, fetch = fetchDocument): ClientMetadataDocuments {
  // Per instance, and bounded: a document is fetched again when its cache lifetime ends, and
  // a failed fetch is not tried again for 5 minutes. Another instance keeps its own memory,
  // so a failing document is fetched at most once per instance in 5 minutes; nothing here is
  // needed for a correct answer (the clients are in the database, docs/operating.md#several-instances).
  const documents = new ExpiringCache<ClientDocument>(MAX_CACHED_DOCUMENTS, ctx.clock);
  const failures = new ExpiringCache<string>(MAX_CACHED_DOCUMENTS, ctx.clock);

  /** The document, and whether it was fetched just now (rather than read from this instance's cache). */
  async function load(clientId: string): Promise<{ doc: ClientDocument; fresh: boolean } | string> {
    const cached = documents.get(clientId);
    if (cached !== undefined) return { doc: cached, fresh: false };
    const failed = failures.get(clientId);
    if (failed !== undefined) return failed;
    const fetched = await fetchAndRead(clientId);
    if (typeof fetched === 'string') {
      failures.set(clientId, fetched, ctx.clock() + FAILED_FETCH_MEMORY_MS);
      return fetched;
    }
    documents.set(clientId, fetched.doc, fetched.until);
    return { doc: fetched.doc, fresh: true };
  }

  /** The document from its URL, with the end of its cache lifetime, or why it cannot be used. */
  async function fetchAndRead(clientId: string): Promise<{ doc: ClientDocument; until: number } | string> {
    const checked = await checkOutboundUrl(clientId, settings.outbound);
    if (!checked.ok) return `the metadata document's address ${checked.problem.replace(/: webhooks and calendar feeds must be on a public address$/, '')}: it must be on a public address`;
    let fetched: FetchedDocument;
    try {
      fetched = await fetch(checked.url, checked.addresses);
    } catch (error) {
      return `the metadata document could not be fetched${error instanceof DocumentFetchError ? `: ${error.message}` : ''}`;
    }
    const doc = readDocument(clientId, fetched);
    if (typeof doc === 'string') return doc;
    return { doc, until: ctx.clock() + cacheSeconds(fetched.headers) * 1000 };
  }

  /**
   * docs/integrating.md#connect-an-ai-agent-mcp: whether the caller may use this document for the first time (no
   * client was made from it), which its allowance limits per IP. Naming a document this
   * instance holds, or whose fetch it remembers failing, costs nothing: nothing is fetched.
   */
  async function firstUseRefusal(clientId: string, firstUse: FirstUseGate | undefined): Promise<string | undefined> {
    if (documents.get(clientId) !== undefined || failures.get(clientId) !== undefined) return undefined;
    if ((await ctx.stores.clients.find(clientId)) !== undefined) return undefined;
    return firstUse === undefined ? NOT_USED_YET : firstUse();
  }

  /**
   * docs/rules.md#client-metadata-documents: what a document client may request is CIMD_SCOPES as it is set now. A client
   * made before the operator narrowed (or widened) it takes the new set at its next use; the
   * grants it already has keep theirs, as after any change of a client's scopes. Under the
   * client's row lock, so that of concurrent first uses one writes; and with a new version
   * (docs/rules.md#review-versions), so that an admin's decision on the client as it was is refused.
   */
  async function followScopeSetting(stored: StoredClient, now: number): Promise<StoredClient> {
    const scopes = [...settings.scopes];
    return ctx.stores.transaction(async (tx) => {
      const live = await tx.clients.lock(stored.id, now);
      if (live === undefined) return stored;
      if (formatScopes(live.scopes) === formatScopes(scopes)) return live; // another use just did it
      await tx.clients.update(stored.id, { scopes }, { raiseVersion: true });
      await tx.audit.append({ type: 'client.scopes_changed', clientId: stored.id, data: { from: formatScopes(live.scopes), to: formatScopes(scopes), source: 'CIMD_SCOPES' } }, now);
      return (await tx.clients.find(stored.id))!;
    });
  }

  return {
    names(clientId) {
      if (clientId.length > MAX_CLIENT_ID_LENGTH) return false;
      try {
        const url = new URL(clientId);
        const schemes = settings.outbound.allowPrivate ? ['https:', 'http:'] : ['https:'];
        // A URL with a path: the draft's client ids (a bare origin is not one).
        return schemes.includes(url.protocol) && url.pathname !== '/' && url.hash === '';
      } catch {
        return false;
      }
    },

    async resolve(clientId, firstUse) {
      // docs/rules.md#client-metadata-documents: the URL parser would drop a newline and encode an
      // escape, and the document can name the raw id exactly; the id is kept as given and listed
      // to the operator, so it is refused before anything is fetched or stored.
      const control = uriControlProblem(clientId, 'it');
      if (control !== undefined) return refused(control);
      // The host decisions name (any port, any spelling); users and admins read the URL's.
      const host = documentHost(clientId);
      const shownHost = new URL(clientId).host;
      const decision = await ctx.stores.metadataHosts.find(host);
      if (decision?.decision === 'distrusted') return refused(`a platform admin has blocked applications from ${host}`);
      const notNow = await firstUseRefusal(clientId, firstUse);
      if (notNow !== undefined) return refused(notNow);
      const loaded = await load(clientId);
      if (typeof loaded === 'string') return refused(loaded);
      const { doc, fresh } = loaded;
      const trusted = decision?.decision === 'trusted';
      // Whether an admin reviews what this host's documents add (docs/rules.md#cimd-policy).
      const reviewed = settings.policy === 'review' && !trusted;
      const now = ctx.clock();
      const existing = await ctx.stores.clients.find(clientId);
      let stored: StoredClient;
      if (existing === undefined) {
        // Outside the transaction: on SQLite it holds the one connection.
        const ownerId = await registrationOwner(ctx);
        const state = trusted || settings.policy === 'open' ? 'approved' : 'pending';
        try {
          stored = await ctx.stores.transaction(async (tx) => {
            await tx.clients.insert({ id: clientId, ...doc, description: `Identified by its client metadata document at ${shownHost}.`, ownerId, kind: 'public', scopes: [...settings.scopes], state, createdAt: now });
            await tx.audit.append({ type: 'client.created', clientId, data: { kind: 'public', source: 'client metadata document', host: shownHost, state } }, now);
            return (await tx.clients.find(clientId))!;
          });
        } catch (error) {
          // Two first uses at once (two requests, or two instances): the other one's insert
          // won and this one's was rolled back whole; its client is the client.
          const raced = await ctx.stores.clients.find(clientId);
          if (raced === undefined) throw error;
          stored = raced;
        }
      } else if (fresh && publishedAgain(existing, doc, reviewed)) {
        // Only a document fetched just now is applied: between fetches the database holds
        // what the latest fetch of any instance found, and an instance still serving an
        // older copy from its cache must not write it back over a newer one.
        //
        // docs/rules.md#client-changes, as for a developer's edit: name, homepage and logo apply at once;
        // an added redirect URI waits for the admin who approved the client, unless nobody
        // reviews this host's documents.
        await updateClient(ctx, clientId, null, { name: doc.name, homepageUrl: doc.homepageUrl, logoUrl: doc.logoUrl ?? '', redirectUris: doc.redirectUris }, { fromDocument: { reviewed } });
        stored = (await ctx.stores.clients.find(clientId))!;
      } else {
        stored = existing;
      }
      // docs/integrating.md#connect-an-ai-agent-mcp: under review, what only the open policy approved waits again.
      if (settings.policy === 'review' && (await reopenIfOnlyOpenApproved(ctx, stored, trusted))) stored = (await ctx.stores.clients.find(clientId))!;
      if (formatScopes(stored.scopes) !== formatScopes(settings.scopes)) stored = await followScopeSetting(stored, now);
      // docs/rules.md#cimd-policy: under `open` nobody looked at it, unless its host was trusted.
      return { ok: true, client: toClientRecord(stored, settings.policy === 'open' && !trusted ? shownHost : undefined) };
    },
  };
}
