// OAuth clients: registration, legacy import, review (SPEC §2 items 1, 2, 14), listing.
import { deserializeScopes, formatScopes, serializeScopes } from '../oauth/scopes.ts';
import type { ClientKind, ClientState } from '../oauth/storage.ts';
import { randomId } from '../oauth/token-format.ts';
import { appendAudit } from '../storage/repositories/audit.ts';
import { findClientRow, toClientRecord, type ClientRow } from '../storage/repositories/clients.ts';
import {
  checkDescription,
  checkHomepage,
  checkLogo,
  checkName,
  checkRedirectUris,
  checkScopes,
} from './client-input.ts';
import { claimClientRow, nextVersion } from './client-version.ts';
import type { ServiceContext } from './context.ts';
import { conflict, notFound, validation } from './errors.ts';
import { insertSecret, listSecrets, type SecretView } from './secrets.ts';

export interface NewClient {
  ownerId: string;
  name: string;
  description?: string;
  homepageUrl?: string;
  logoUrl?: string;
  kind: ClientKind;
  redirectUris: string[];
  scopes: string[];
}

export interface ClientView {
  clientId: string;
  name: string;
  description: string;
  homepageUrl: string;
  logoUrl: string | null;
  ownerId: string;
  kind: ClientKind;
  state: ClientState;
  legacy: boolean;
  redirectUris: string[];
  /** Granted-scope string form; empty for a legacy client. */
  scopes: string[] | null;
  reviewNote: string | null;
  reviewedBy: string | null;
  reviewedAt: number | null;
  /** SPEC §2 item 20: additions awaiting admin review (not yet live). */
  proposedRedirectUris: string[];
  proposedScopes: string[];
  /** SPEC §2 item 22: raised by every change of the configuration or of the held change. */
  version: number;
  createdAt: number;
  updatedAt: number;
  secrets: SecretView[];
}

function view(row: ClientRow, secrets: SecretView[]): ClientView {
  const record = toClientRecord(row);
  return {
    clientId: row.id,
    name: row.name,
    description: row.description,
    homepageUrl: row.homepage_url,
    logoUrl: row.logo_url,
    ownerId: row.owner_id,
    kind: row.kind,
    state: row.state,
    legacy: record.scopes === null,
    redirectUris: record.redirectUris,
    scopes: record.scopes,
    reviewNote: row.review_note,
    reviewedBy: row.reviewed_by,
    reviewedAt: row.reviewed_at,
    proposedRedirectUris: row.proposed_redirect_uris === null ? [] : (JSON.parse(row.proposed_redirect_uris) as string[]),
    proposedScopes: deserializeScopes(row.proposed_scopes) ?? [],
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    secrets,
  };
}

/** SPEC §2 item 20: whether additions await an admin's review. */
export const hasHeldChange = (c: ClientView): boolean => c.proposedRedirectUris.length + c.proposedScopes.length > 0;

export interface CreatedClient {
  client: ClientView;
  /** Plain-text first secret of a confidential client: shown once, never stored. */
  secret: string | null;
}

/** Seed §3: a new client starts pending and needs at least one scope. */
export async function createClient(ctx: ServiceContext, input: NewClient): Promise<CreatedClient> {
  return insertClient(ctx, input, checkScopes(input.scopes), 'pending');
}

/**
 * SPEC §2 item 14: legacy clients exist only by import — a client from before scopes,
 * carried over approved (it was in use) and without scopes.
 */
export async function importLegacyClient(ctx: ServiceContext, input: Omit<NewClient, 'scopes'>): Promise<CreatedClient> {
  return insertClient(ctx, { ...input, scopes: [] }, null, 'approved');
}

async function insertClient(
  ctx: ServiceContext,
  input: NewClient,
  scopes: string[] | null,
  state: ClientState,
): Promise<CreatedClient> {
  if (input.kind !== 'confidential' && input.kind !== 'public') {
    throw validation('kind must be confidential or public', 'kind');
  }
  const values = {
    name: checkName(input.name),
    description: checkDescription(input.description),
    homepage_url: checkHomepage(input.homepageUrl),
    logo_url: checkLogo(input.logoUrl),
    redirect_uris: JSON.stringify(checkRedirectUris(input.redirectUris)),
  };
  const now = ctx.clock();
  const id = randomId();
  let secret: string | null = null;
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('oauth_clients')
      .values({
        id,
        ...values,
        owner_id: input.ownerId,
        kind: input.kind,
        scopes: serializeScopes(scopes),
        state,
        review_note: null,
        reviewed_by: null,
        reviewed_at: null,
        is_resource_server: 0,
        proposed_redirect_uris: null,
        proposed_scopes: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await appendAudit(
      trx,
      { type: 'client.created', actorId: input.ownerId, clientId: id, data: { kind: input.kind, scopes: scopes === null ? 'legacy' : formatScopes(scopes) } },
      now,
    );
    // A confidential client always holds at least one active secret (seed §2.1).
    if (input.kind === 'confidential') secret = (await insertSecret({ ...ctx, db: trx }, id, input.ownerId)).secret;
  });
  return { client: await requireClient(ctx, id), secret };
}

export async function requireClient(ctx: ServiceContext, id: string): Promise<ClientView> {
  const row = await findClientRow(ctx.db, id);
  if (row === undefined) throw notFound(`no client with id ${id}`);
  return view(row, await listSecrets(ctx, id));
}

export async function listClients(ctx: ServiceContext, filter: { ownerId?: string; state?: ClientState } = {}): Promise<ClientView[]> {
  let q = ctx.db.selectFrom('oauth_clients').selectAll().orderBy('created_at', 'desc');
  if (filter.ownerId !== undefined) q = q.where('owner_id', '=', filter.ownerId);
  if (filter.state !== undefined) q = q.where('state', '=', filter.state);
  return (await q.execute()).map((row) => view(row, []));
}

export type ReviewDecision = 'approve' | 'reject' | 'suspend';

// SPEC §2 item 1: which decision applies in which state.
const allowedFrom: Record<ReviewDecision, ClientState[]> = {
  approve: ['pending', 'suspended'],
  reject: ['pending'],
  suspend: ['approved'],
};
const resulting: Record<ReviewDecision, ClientState> = { approve: 'approved', reject: 'rejected', suspend: 'suspended' };
const eventOf = { approve: 'client.approved', reject: 'client.rejected', suspend: 'client.suspended' } as const;

export interface DecisionOptions {
  /** SPEC §2 item 22: the version the reviewer saw; a decision on an older one is refused. */
  expectedVersion?: number | undefined;
}

export async function reviewClient(
  ctx: ServiceContext,
  id: string,
  decision: ReviewDecision,
  reviewerId: string | null,
  reason?: string,
  options: DecisionOptions = {},
): Promise<ClientView> {
  const note = reason?.trim() ?? '';
  if (decision === 'reject' && note === '') throw validation('a rejection needs a reason for the developer', 'reason');
  if (note.length > 1000) throw validation('reason must be at most 1000 characters', 'reason');
  const now = ctx.clock();
  await ctx.db.transaction().execute(async (trx) => {
    // The row stays locked until the decision is written, so neither a concurrent review
    // nor a developer's edit can come between the checks below and the write.
    const row = await claimClientRow(trx, id, now, { raise: true, expectedVersion: options.expectedVersion });
    if (!allowedFrom[decision].includes(row.state)) {
      throw conflict(`cannot ${decision} a client that is ${row.state} (allowed from: ${allowedFrom[decision].join(', ')})`);
    }
    await trx
      .updateTable('oauth_clients')
      .set({ state: resulting[decision], review_note: note === '' ? null : note, reviewed_by: reviewerId, reviewed_at: now })
      .where('id', '=', id)
      .execute();
    await appendAudit(trx, { type: eventOf[decision], actorId: reviewerId, clientId: id, data: note ? { reason: note } : {} }, now);
  });
  return requireClient(ctx, id);
}

/**
 * SPEC §6: an admin marks a client as a resource server of the platform, which lets it
 * introspect any client's tokens (RFC 7662), or takes the mark away.
 */
export async function setResourceServer(ctx: ServiceContext, id: string, on: boolean, adminId: string | null): Promise<void> {
  const now = ctx.clock();
  await ctx.db.transaction().execute(async (trx) => {
    // The mark changes what the client may do, so a reviewer's open page is no longer current.
    const result = await trx
      .updateTable('oauth_clients')
      .set({ is_resource_server: on ? 1 : 0, updated_at: now, version: nextVersion() })
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw notFound(`no client with id ${id}`);
    await appendAudit(trx, { type: 'client.updated', actorId: adminId, clientId: id, data: { resourceServer: on } }, now);
  });
}
