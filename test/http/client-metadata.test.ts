// Client ID Metadata Documents (docs/rules.md#client-metadata-documents,
// draft-ietf-oauth-client-id-metadata-document) over real HTTP on every backend, one suite
// per file of test/http/client-metadata/: a URL client_id is fetched, checked, cached and kept
// under the three policies of CIMD_POLICY (documents.ts); first uses are limited per IP and the
// admin queue is paginated (first-use.ts); trust decisions name a host in every spelling
// (host-spellings.ts); CIMD_POLICY applies to every URL client at each use (policy.ts). Each
// suite runs its own document host and the servers its settings need; the suites under the same
// settings share one where they can.
import { describe } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { metadataDocuments } from './client-metadata/documents.ts';
import { firstUses } from './client-metadata/first-use.ts';
import { hostSpellings } from './client-metadata/host-spellings.ts';
import { policyAtEachUse } from './client-metadata/policy.ts';

describe.each(backends)('client metadata documents on $name', (backend) => {
  metadataDocuments(backend);
  firstUses(backend);
  hostSpellings(backend);
  policyAtEachUse(backend);
});
