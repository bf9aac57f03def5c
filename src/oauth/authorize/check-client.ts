// Steps 1–3 of an authorization request: what makes a redirect safe (RFC 6749 §4.1.2.1 first
// paragraph). A failure here is a page, never a redirect (error-answers.ts: UnsafeToRedirect).
import { documentClientRefusal, type FirstUseGate } from '../client-metadata.ts';
import type { OAuthContext } from '../context.ts';
import { isRegisteredRedirectUri } from '../redirect-uri.ts';
import type { ClientRecord } from '../storage.ts';
import { unsafe } from './error-answers.ts';
import { single, type PushedReference, type RawParameters } from './request.ts';

/** What steps 1–3 established: a client and a redirect URI an error may go to, and the parameters still to check. */
export interface SafeToRedirect {
  kind: 'safe_to_redirect';
  clientId: string;
  client: ClientRecord;
  redirectUri: string;
  /** The browser's parameters, or those its request_uri stands for (pushed.ts). */
  raw: RawParameters;
  pushed: PushedReference | undefined;
}

/** Step 1, the client (RFC 6749 §4.1.1 client_id, §2.2): a known application, named once. */
export async function checkClient(ctx: OAuthContext, raw: RawParameters, firstUse: FirstUseGate | undefined): Promise<{ clientId: string; client: ClientRecord }> {
  const clientId = single(raw, 'client_id');
  if (clientId === 'repeated') throw unsafe('client_id was sent more than once');
  if (clientId === undefined) throw unsafe('client_id is missing: the application must say who it is');
  // docs/rules.md#client-metadata-documents: a URL client id is resolved from its metadata document.
  if (ctx.clientMetadata?.names(clientId)) {
    const resolved = await ctx.clientMetadata.resolve(clientId, firstUse);
    if (!resolved.ok) throw unsafe(`client_id "${clientId}" cannot be used: ${resolved.problem}`);
    return { clientId, client: resolved.client };
  }
  const off = documentClientRefusal(ctx.clientMetadata !== undefined, clientId);
  if (off !== undefined) throw unsafe(`client_id "${clientId}" is not a known application: ${off}`);
  if (clientId.length > 200) throw unsafe('client_id is not a known application');
  const client = await ctx.store.findClient(clientId);
  if (client === undefined) throw unsafe(`client_id "${clientId}" is not a known application`);
  return { clientId, client };
}

/** Step 2, the redirect URI: exact match with a registered one (RFC 6749 §3.1.2.3, RFC 9700 §2.1, docs/rules.md#authorization-request). */
export function checkRedirectUri(client: ClientRecord, raw: RawParameters): string {
  const redirectUri = single(raw, 'redirect_uri');
  if (redirectUri === 'repeated') throw unsafe('redirect_uri was sent more than once', client);
  if (redirectUri === undefined) throw unsafe('redirect_uri is missing: it must equal one of the registered redirect URIs', client);
  if (!isRegisteredRedirectUri(client.redirectUris, redirectUri)) {
    throw unsafe(`redirect_uri "${redirectUri}" is not registered for this application`, client);
  }
  return redirectUri;
}

/** Step 3, approval (docs/rules.md#client-states: a pending client cannot be used). */
export function checkApproved(client: ClientRecord): void {
  if (client.state !== 'approved') {
    throw unsafe(`this application is ${client.state} and cannot be authorized until a platform admin approves it`, client, 'client_not_approved');
  }
}
