// Changes to an existing client (SPEC §2 items 1, 14, 20), shared by the developer pages
// and `gatehouse clients update`. On an approved client, what widens its reach (added
// redirect URIs, added scopes) waits for an admin while the approved configuration stays
// live; everything else applies at once. Saving scopes on a legacy client is its migration.
import type { Updateable } from 'kysely';
import { deserializeScopes, formatScopes, serializeScopes, sortScopes } from '../oauth/scopes.ts';
import { MAX_REDIRECT_URIS } from '../oauth/redirect-uri.ts';
import { appendAudit } from '../storage/repositories/audit.ts';
import { toClientRecord, type ClientRow } from '../storage/repositories/clients.ts';
import type { Executor } from '../storage/repositories/executor.ts';
import type { OAuthClientsTable } from '../storage/schema.ts';
import { checkDescription, checkHomepage, checkLogo, checkName, checkRedirectUris, checkScopes } from './client-input.ts';
import { requireClient, type ClientView, type DecisionOptions } from './clients.ts';
import { claimClientRow, nextVersion } from './client-version.ts';
import type { ServiceContext } from './context.ts';
import { conflict, validation } from './errors.ts';

/** A developer's edit; a field left undefined is left as it is. Lists are the whole desired list. */
export interface ClientEdit {
  name?: string;
  description?: string;
  homepageUrl?: string;
  logoUrl?: string;
  redirectUris?: string[];
  scopes?: string[];
}

export interface EditOptions {
  /** SPEC §2 item 14: the developer confirmed the migration despite recent requests without scope. */
  confirmScopeless?: boolean;
}

export interface EditResult {
  client: ClientView;
  /** Additions now awaiting review (empty when nothing is held). */
  held: { redirectUris: string[]; scopes: string[] };
  /** The legacy client became scope-enforced. */
  migrated: boolean;
  /** A rejected client went back to pending (SPEC §2 item 1). */
  resubmitted: boolean;
}

/** SPEC §2 item 14: the migration warning looks back 30 days. */
export const SCOPELESS_WINDOW_MS = 30 * 24 * 3600 * 1000;

/** How many of the client's authorization requests in the last 30 days carried no `scope`. */
export async function countScopelessRequests(ctx: ServiceContext, clientId: string, db: Executor = ctx.db): Promise<number> {
  const row = await db
    .selectFrom('authorization_requests')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('client_id', '=', clientId)
    .where('had_scope', '=', 0)
    .where('created_at', '>=', ctx.clock() - SCOPELESS_WINDOW_MS)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

function proposedUris(row: ClientRow): string[] {
  return row.proposed_redirect_uris === null ? [] : (JSON.parse(row.proposed_redirect_uris) as string[]);
}

/** Splits a desired list into what stays live (removals apply at once) and what is held. */
function splitChange(live: readonly string[], desired: readonly string[]) {
  return { kept: live.filter((v) => desired.includes(v)), added: desired.filter((v) => !live.includes(v)) };
}

export async function updateClient(
  ctx: ServiceContext,
  clientId: string,
  actorId: string | null,
  edit: ClientEdit,
  options: EditOptions = {},
): Promise<EditResult> {
  // Everything is checked before anything is written.
  const next = {
    name: edit.name === undefined ? undefined : checkName(edit.name),
    description: edit.description === undefined ? undefined : checkDescription(edit.description),
    homepageUrl: edit.homepageUrl === undefined ? undefined : checkHomepage(edit.homepageUrl),
    logoUrl: edit.logoUrl === undefined ? undefined : checkLogo(edit.logoUrl),
    redirectUris: edit.redirectUris === undefined ? undefined : checkRedirectUris(edit.redirectUris),
    scopes: edit.scopes === undefined ? undefined : checkScopes(edit.scopes),
  };
  const now = ctx.clock();
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    const row = await claimClientRow(trx, clientId, now);
    const live = toClientRecord(row);
    // Approved (or suspended, which an admin may re-approve) configurations are in use or
    // were reviewed: additions to them need a review of their own.
    const holds = row.state === 'approved' || row.state === 'suspended';
    const set: Updateable<OAuthClientsTable> = {};
    const changed: string[] = [];
    const plain = [
      ['name', next.name, row.name],
      ['description', next.description, row.description],
      ['homepage_url', next.homepageUrl, row.homepage_url],
      ['logo_url', next.logoUrl, row.logo_url],
    ] as const;
    for (const [column, value, current] of plain) {
      if (value !== undefined && value !== current) {
        (set as Record<string, unknown>)[column] = value;
        changed.push(column);
      }
    }

    let heldUris = proposedUris(row);
    if (next.redirectUris !== undefined) {
      if (holds) {
        const { kept, added } = splitChange(live.redirectUris, next.redirectUris);
        if (kept.length === 0) {
          throw validation(
            'keep at least one approved redirect URI until an admin approves the new ones: add the new URI now and remove the old one after the review',
            'redirect_uris',
          );
        }
        if (!sameList(kept, live.redirectUris)) {
          set.redirect_uris = JSON.stringify(kept);
          changed.push('redirect_uris');
        }
        heldUris = added;
      } else if (!sameList(next.redirectUris, live.redirectUris)) {
        set.redirect_uris = JSON.stringify(next.redirectUris);
        changed.push('redirect_uris');
      }
    }

    let heldScopes = deserializeScopes(row.proposed_scopes) ?? [];
    let migrated = false;
    let scopesBefore: string[] | null = live.scopes;
    let scopesAfter: string[] | null = live.scopes;
    if (next.scopes !== undefined) {
      if (live.scopes === null) {
        // SPEC §2 item 14 and seed §3 rule 3: migrating before the authorization URL
        // carries scope breaks users who follow an old URL, so recent scopeless requests
        // need an explicit confirmation.
        const scopeless = await countScopelessRequests(ctx, clientId, trx);
        if (scopeless > 0 && !options.confirmScopeless) {
          throw conflict(
            `${scopeless} authorization request${scopeless === 1 ? '' : 's'} of this client in the last 30 days came without scope; ` +
              'after the migration such requests fail. Make the authorization URL carry scope first, then confirm the migration',
            'confirm',
          );
        }
        set.scopes = serializeScopes(next.scopes);
        scopesAfter = next.scopes;
        migrated = true;
        await appendAudit(trx, { type: 'client.migrated', actorId, clientId, data: { scopes: formatScopes(next.scopes), scopelessRequests: scopeless } }, now);
      } else if (holds) {
        const { kept, added } = splitChange(live.scopes, next.scopes);
        if (kept.length === 0) {
          throw validation('keep at least one approved scope until an admin approves the new ones', 'scopes');
        }
        if (!sameList(kept, live.scopes)) scopesAfter = kept;
        heldScopes = added;
      } else if (!sameList(next.scopes, live.scopes)) {
        scopesAfter = next.scopes;
      }
      if (!migrated && scopesAfter !== scopesBefore) {
        set.scopes = serializeScopes(scopesAfter);
        changed.push('scopes');
        await appendAudit(
          trx,
          { type: 'client.scopes_changed', actorId, clientId, data: { from: formatScopes(scopesBefore), to: formatScopes(scopesAfter) } },
          now,
        );
      }
    }
    const heldChanged = !sameList(heldUris, proposedUris(row)) || !sameList(heldScopes, deserializeScopes(row.proposed_scopes) ?? []);
    if (heldChanged) {
      set.proposed_redirect_uris = heldUris.length > 0 ? JSON.stringify(heldUris) : null;
      set.proposed_scopes = heldScopes.length > 0 ? serializeScopes(heldScopes) : null;
    }
    // SPEC §2 item 1: rejected → pending when the developer edits and resubmits.
    const resubmitted = row.state === 'rejected';
    if (resubmitted) Object.assign(set, { state: 'pending', review_note: null, reviewed_by: null, reviewed_at: null });
    // SPEC §2 item 22: a real change makes any review page opened before it out of date.
    if (Object.keys(set).length > 0) await trx.updateTable('oauth_clients').set({ ...set, version: nextVersion() }).where('id', '=', clientId).execute();
    if (changed.length > 0 || heldChanged || resubmitted) {
      await appendAudit(
        trx,
        {
          type: 'client.updated',
          actorId,
          clientId,
          data: {
            fields: changed,
            ...(heldChanged ? { awaitingReview: { redirectUris: heldUris, scopes: heldScopes } } : {}),
            ...(resubmitted ? { resubmitted: true } : {}),
          },
        },
        now,
      );
    }
    return { held: { redirectUris: heldUris, scopes: heldScopes }, migrated, resubmitted };
  });
  return { client: await requireClient(ctx, clientId), ...outcome };
}

/** SPEC §2 item 14: saving scopes on a legacy client makes it scope-enforced, in place. */
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

/**
 * SPEC §2 item 20: an admin accepts the held additions; they join the live configuration.
 * SPEC §2 item 22: with `expectedVersion`, only the held change the admin saw.
 */
export async function approveHeldChanges(ctx: ServiceContext, clientId: string, reviewerId: string | null, options: DecisionOptions = {}): Promise<ClientView> {
  const now = ctx.clock();
  await ctx.db.transaction().execute(async (trx) => {
    const row = await claimClientRow(trx, clientId, now, { raise: true, expectedVersion: options.expectedVersion });
    const uris = proposedUris(row);
    const scopes = deserializeScopes(row.proposed_scopes) ?? [];
    if (uris.length === 0 && scopes.length === 0) throw conflict('this client has no changes awaiting review');
    const live = toClientRecord(row);
    const mergedUris = [...live.redirectUris, ...uris.filter((u) => !live.redirectUris.includes(u))];
    if (mergedUris.length > MAX_REDIRECT_URIS) throw conflict(`approving would give the client more than ${MAX_REDIRECT_URIS} redirect URIs`);
    const mergedScopes = live.scopes === null ? null : sortScopes([...live.scopes, ...scopes]);
    await trx
      .updateTable('oauth_clients')
      .set({
        redirect_uris: JSON.stringify(mergedUris),
        scopes: serializeScopes(mergedScopes),
        proposed_redirect_uris: null,
        proposed_scopes: null,
        review_note: null,
        reviewed_by: reviewerId,
        reviewed_at: now,
      })
      .where('id', '=', clientId)
      .execute();
    await appendAudit(trx, { type: 'client.approved', actorId: reviewerId, clientId, data: { changes: { redirectUris: uris, scopes } } }, now);
    if (scopes.length > 0) {
      await appendAudit(trx, { type: 'client.scopes_changed', actorId: reviewerId, clientId, data: { from: formatScopes(live.scopes), to: formatScopes(mergedScopes) } }, now);
    }
  });
  return requireClient(ctx, clientId);
}

/**
 * SPEC §2 items 1 and 20: an admin declines the held additions, with a reason the developer
 * sees; the client keeps its approved configuration. SPEC §2 item 22 as above.
 */
export async function rejectHeldChanges(
  ctx: ServiceContext,
  clientId: string,
  reviewerId: string | null,
  reason: string | undefined,
  options: DecisionOptions = {},
): Promise<ClientView> {
  const note = (reason ?? '').trim();
  if (note === '') throw validation('declining changes needs a reason for the developer', 'reason');
  if (note.length > 1000) throw validation('reason must be at most 1000 characters', 'reason');
  const now = ctx.clock();
  await ctx.db.transaction().execute(async (trx) => {
    const row = await claimClientRow(trx, clientId, now, { raise: true, expectedVersion: options.expectedVersion });
    const uris = proposedUris(row);
    const scopes = deserializeScopes(row.proposed_scopes) ?? [];
    if (uris.length === 0 && scopes.length === 0) throw conflict('this client has no changes awaiting review');
    await trx
      .updateTable('oauth_clients')
      .set({ proposed_redirect_uris: null, proposed_scopes: null, review_note: note, reviewed_by: reviewerId, reviewed_at: now })
      .where('id', '=', clientId)
      .execute();
    await appendAudit(trx, { type: 'client.rejected', actorId: reviewerId, clientId, data: { changes: { redirectUris: uris, scopes }, reason: note } }, now);
  });
  return requireClient(ctx, clientId);
}
