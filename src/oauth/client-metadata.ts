// Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, docs/rules.md#client-metadata-documents):
// a client_id that is an https URL names a public client described by the JSON document at
// that URL. The core only asks this port; fetching, the SSRF guard, caching and the trust
// policy live behind it (src/services/clients/metadata-documents.ts).
import type { ClientRecord } from './storage.ts';

/**
 * The longest client id Gatehouse takes: a document URL may be long (its own ids are 24
 * characters). Pages that carry a client id in their path accept this many.
 */
export const MAX_CLIENT_ID_LENGTH = 2000;

/**
 * Whether a client id is a document URL: the ids Gatehouse issues (and registration issues)
 * are letters and digits, so an id with a scheme was made from a metadata document.
 */
export const isDocumentClientId = (clientId: string): boolean => /^https?:\/\//i.test(clientId);

/**
 * docs/integrating.md#connect-an-ai-agent-mcp: under CIMD_POLICY=off a URL client made earlier can neither
 * authorize, nor refresh, nor call anything; each refusal says so in these words. Its row
 * is left as it is, so that it works again if the operator turns documents back on. The
 * clause is the reason; each caller says what was refused.
 */
export function documentClientRefusal(documentsServed: boolean, clientId: string): string | undefined {
  if (documentsServed || !isDocumentClientId(clientId)) return undefined;
  return 'this server does not accept applications identified by a client metadata document (a URL client id)';
}

/**
 * docs/integrating.md#connect-an-ai-agent-mcp: what the first use of a document costs its caller, who is limited
 * per IP (with registrations). Resolves to undefined when the caller may, or to the reason
 * it may not, in words for the user.
 */
export type FirstUseGate = () => Promise<string | undefined>;

export type MetadataClientResult = { ok: true; client: ClientRecord } | { ok: false; problem: string };

export interface ClientMetadataDocuments {
  /** Whether this client_id is a document URL this server resolves (never when CIMD_POLICY=off). */
  names(clientId: string): boolean;
  /**
   * The client the document describes, created or refreshed from it, in its review state;
   * `ok: false` with a sentence for the user when the document cannot be used. A document
   * no client was made from yet is used for the first time only through `firstUse`: without
   * one (a lookup, such as the login page's) it is refused.
   */
  resolve(clientId: string, firstUse?: FirstUseGate): Promise<MetadataClientResult>;
}
