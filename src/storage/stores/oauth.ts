// The protocol core's port (src/oauth/storage.ts) on Kysely: one object per database or
// transaction, whose methods run on it. Hot-path queries are compiled once (prepared.ts).
// Queries that other areas share (the client row, active grants, revocation, the audit
// append, the access token read) stay in repositories/ and are called from here.
import type { ExpressionBuilder, Selectable } from 'kysely';
import type { AccessTokenRecord, CodeRecord, OAuthStore, RefreshTokenRecord } from '../../oauth/storage.ts';
import { resourcesColumn, resourcesFromColumn, scopesColumn, scopesFromColumn } from '../columns.ts';
import { dialectOf, placeholderRow, prepare } from '../prepared.ts';
import { auditColumns, auditRow, insertAudit, type AuditValues } from '../repositories/audit.ts';
import { createAuditStore } from './audit.ts';
import { notifyClient } from './webhook-deliveries.ts';
import { findClientRecord, findClientWithSecrets } from '../repositories/clients.ts';
import type { Executor } from '../repositories/executor.ts';
import { findTeamAuthority, listConsentedGrants, revokeGrant, toGrantRecord } from '../repositories/grants.ts';
import { findAccessToken } from '../repositories/tokens.ts';
import type { AccessTokensTable, AuthorizationCodesTable, RefreshTokensTable } from '../schema.ts';
import { inTransaction } from '../transaction.ts';

export function createOAuthStore(db: Executor): OAuthStore {
  // Methods, not arrow functions in properties: every transaction builds its own store, and
  // tsx gives each named arrow a defineProperty call (esbuild's keepNames), a method none;
  // measured in one process, 46 µs per store before, 3 µs after.
  const store: OAuthStore = {
    // Joins the caller's transaction when db already is one (ARCHITECTURE.md#transactions-are-explicit).
    transaction(fn) {
      return inTransaction(db, (trx) => fn(trx === db ? store : createOAuthStore(trx)));
    },

    // oauth_clients and client_secrets
    findClient(id) {
      return findClientRecord(db, id);
    },
    findClientWithSecrets(id) {
      return findClientWithSecrets(db, id);
    },
    async markSecretUsed(secretId, at) {
      await db.updateTable('client_secrets').set({ last_used_at: at }).where('id', '=', secretId).execute();
    },
    async findClientProvenance(id) {
      const row = await db
        .selectFrom('oauth_clients as c')
        .innerJoin('users as u', 'u.id', 'c.owner_id')
        .select(['u.name', 'c.reviewed_at'])
        .where('c.id', '=', id)
        .executeTakeFirst();
      return row && { developerName: row.name, reviewedAt: row.reviewed_at };
    },

    // grants
    async createGrant(g) {
      await db
        .insertInto('grants')
        .values({ id: g.id, user_id: g.userId, client_id: g.clientId, scopes: scopesColumn(g.scopes), team_id: g.teamId ?? null, created_at: g.createdAt, revoked_at: g.revokedAt })
        .execute();
    },
    async findGrant(id) {
      const r = await db.selectFrom('grants').selectAll().where('id', '=', id).executeTakeFirst();
      return r && toGrantRecord(r);
    },
    findTeamAuthority(slug, userId) {
      return findTeamAuthority(db, { slug }, userId);
    },
    // As holdActiveGrant: a conditional write holds the row on PostgreSQL; on SQLite the
    // transaction already holds the database's write lock.
    async holdTeamAuthority(teamId, userId) {
      if (dialectOf(db) !== 'sqlite') {
        const held = await db.updateTable('teams').set((eb) => ({ id: eb.ref('id') })).where('id', '=', teamId).executeTakeFirst();
        if (Number(held.numUpdatedRows) !== 1) return undefined;
      }
      return findTeamAuthority(db, { id: teamId }, userId);
    },
    listActiveGrants(userId, clientId) {
      return listConsentedGrants(db, userId, clientId);
    },
    // Takes the user's row lock for the rest of the transaction (a portable SELECT ... FOR UPDATE).
    async lockUserGrants(userId) {
      await db.updateTable('users').set((eb) => ({ id: eb.ref('id') })).where('id', '=', userId).execute();
    },
    // On PostgreSQL a conditional write on the grant row: it waits for a revocation in
    // flight and then sees its result, and it holds the row until the transaction ends. On
    // SQLite every transaction already holds the database's write lock from its start
    // (group-commit.ts: BEGIN IMMEDIATE), so a read is enough and no page is rewritten.
    async holdActiveGrant(grantId) {
      if (dialectOf(db) === 'sqlite') return (await selectActiveGrant.run(db, { grantId })).rows.length === 1;
      const result = await db.updateTable('grants').set({ revoked_at: null }).where('id', '=', grantId).where('revoked_at', 'is', null).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    revokeGrant(grantId, at) {
      return revokeGrant(db, grantId, at);
    },
    // docs/rules.md#code-replay when codes share a grant (docs/rules.md#silent-authorization): only the replayed code's tokens end.
    async revokeCodeTokens(grantId, codeHash, at) {
      await db.updateTable('access_tokens').set({ revoked_at: at }).where('grant_id', '=', grantId).where('code_hash', '=', codeHash).where('revoked_at', 'is', null).execute();
      await db
        .updateTable('refresh_tokens')
        .set({ revoked_at: at, successor_box: null })
        .where('grant_id', '=', grantId)
        .where('code_hash', '=', codeHash)
        .where('revoked_at', 'is', null)
        .execute();
    },

    // authorization_codes: single use is decided by a conditional UPDATE (ARCHITECTURE.md#single-use-is-atomic).
    async createCode(c) {
      await db
        .insertInto('authorization_codes')
        .values({
          code_hash: c.hash,
          client_id: c.clientId,
          user_id: c.userId,
          grant_id: c.grantId,
          redirect_uri: c.redirectUri,
          scopes: scopesColumn(c.scopes),
          code_challenge: c.codeChallenge,
          resources: resourcesColumn(c.resources),
          dpop_jkt: c.dpopJkt ?? null,
          created_at: c.createdAt,
          expires_at: c.expiresAt,
          consumed_at: null,
          nonce: c.nonce ?? null,
          auth_time: c.authTime ?? null,
        })
        .execute();
    },
    async consumeCode(hash, at) {
      const [row] = (await consume.run(db, { hash, at })).rows;
      return row && toCodeRecord(row);
    },
    async findCode(hash) {
      const row = await db.selectFrom('authorization_codes').selectAll().where('code_hash', '=', hash).executeTakeFirst();
      return row && toCodeRecord(row);
    },

    // pushed_authorization_requests (RFC 9126): single use is a conditional UPDATE too.
    async createPushedRequest(r) {
      await db
        .insertInto('pushed_authorization_requests')
        .values({
          request_hash: r.hash,
          client_id: r.clientId,
          parameters: JSON.stringify(r.parameters),
          resources: resourcesColumn(r.resources),
          created_at: r.createdAt,
          expires_at: r.expiresAt,
          consumed_at: null,
        })
        .execute();
    },
    async findPushedRequest(hash) {
      const r = await db.selectFrom('pushed_authorization_requests').selectAll().where('request_hash', '=', hash).executeTakeFirst();
      return (
        r && {
          hash: r.request_hash,
          clientId: r.client_id,
          parameters: JSON.parse(r.parameters) as Record<string, string>,
          resources: resourcesFromColumn(r.resources),
          createdAt: r.created_at,
          expiresAt: r.expires_at,
          consumedAt: r.consumed_at,
        }
      );
    },
    async consumePushedRequest(hash, at) {
      const result = await db
        .updateTable('pushed_authorization_requests')
        .set({ consumed_at: at })
        .where('request_hash', '=', hash)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', at)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    // access_tokens and refresh_tokens, stored by SHA-256 hash only (docs/rules.md#token-formats).
    async createAccessToken(t) {
      await insertAccessToken.run(db, accessRow(t));
    },
    findAccessToken(hash) {
      return findAccessToken(db, hash);
    },
    async revokeAccessToken(hash, at) {
      await db.updateTable('access_tokens').set({ revoked_at: at }).where('token_hash', '=', hash).where('revoked_at', 'is', null).execute();
    },
    async createRefreshToken(t) {
      await insertRefreshToken.run(db, refreshRow(t));
    },
    async createTokenPair(access, refresh, issued, at) {
      const rows = { access: accessRow(access), refresh: refreshRow(refresh), audit: auditRow(issued, at) };
      if (dialectOf(db) === 'postgres') {
        await insertTokenPair.run(db, prefixed(rows));
        return;
      }
      // SQLite has no writes in a WITH clause; its statements cost no round trip.
      await inTransaction(db, async (trx) => {
        await insertAccessToken.run(trx, rows.access);
        await insertRefreshToken.run(trx, rows.refresh);
        await insertAudit.run(trx, rows.audit);
      });
    },
    async findRefreshToken(hash) {
      const [row] = (await selectRefreshToken.run(db, { hash })).rows;
      return row && toRefreshRecord(row);
    },
    async spendRefreshToken(id, at, successorBox) {
      const result = await spend.run(db, { id, at, box: successorBox });
      return Number(result.numAffectedRows) === 1;
    },
    async rotateRefreshToken(id, at, successorBox, access, refresh, rotated) {
      const rows = { access: accessRow(access), refresh: refreshRow(refresh), audit: auditRow(rotated, at) };
      if (dialectOf(db) === 'postgres') {
        const result = await rotateInOneStatement.run(db, { spent_id: id, spent_at: at, spent_box: successorBox, ...prefixed(rows) });
        return Number(result.numAffectedRows) === 1;
      }
      // SQLite: the spend and the three inserts in one transaction (a savepoint of the group
      // commit, group-commit.ts), whose statements cost no round trip.
      return inTransaction(db, async (trx) => {
        if (Number((await spendUnexpired.run(trx, { id, at, box: successorBox })).numAffectedRows) !== 1) return false;
        await insertAccessToken.run(trx, rows.access);
        await insertRefreshToken.run(trx, rows.refresh);
        await insertAudit.run(trx, rows.audit);
        return true;
      });
    },
    async keepRefreshToken(id, expiresAt) {
      const result = await keep.run(db, { id, expiresAt });
      return Number(result.numAffectedRows) === 1;
    },

    // audit_events and authorization_requests: append-only records.
    audit: createAuditStore(db),
    async recordAuthorizationRequest(clientId, userId, hadScope, at) {
      await db.insertInto('authorization_requests').values({ client_id: clientId, user_id: userId, had_scope: hadScope ? 1 : 0, created_at: at }).execute();
    },

    // The outbox the application services write to as well (docs/rules.md#webhooks), on the same executor:
    // inside the core's transaction, the notification commits or rolls back with it.
    notifyClient(clientId, event, data, at) {
      return notifyClient(db, clientId, event, data, at);
    },
    async findIdentity(userId) {
      const row = await db
        .selectFrom('users as u')
        .leftJoin('verified_resources as v', (join) => join.onRef('v.user_id', '=', 'u.id').on('v.kind', '=', 'email').onRef('v.value', '=', 'u.email').on('v.verified_at', 'is not', null))
        .select(['u.name', 'u.email', 'v.id as verified'])
        .where('u.id', '=', userId)
        .executeTakeFirst();
      return row && { name: row.name, email: row.email, emailVerified: row.verified !== null };
    },
  };
  return store;
}

/** RFC 9449: the key a row is bound to, given only when it is bound (the records' dpopJkt is optional). */
function boundTo(jkt: string | null): { dpopJkt?: string } {
  return jkt === null ? {} : { dpopJkt: jkt };
}

const selectActiveGrant = prepare((db, p: { grantId: string }) => db.selectFrom('grants').select('id').where('id', '=', p.grantId).where('revoked_at', 'is', null));

const codeColumns = ['code_hash', 'client_id', 'user_id', 'grant_id', 'redirect_uri', 'scopes', 'code_challenge', 'resources', 'dpop_jkt', 'created_at', 'expires_at', 'consumed_at', 'nonce', 'auth_time'] as const;

// The columns named, not `*`: prepared.ts names (prepares) only statements whose result a
// new column cannot change.
const consume = prepare((db, p: { hash: string; at: number }) =>
  db.updateTable('authorization_codes').set({ consumed_at: p.at }).where('code_hash', '=', p.hash).where('consumed_at', 'is', null).returning(codeColumns),
);

function toCodeRecord(r: Selectable<AuthorizationCodesTable>): CodeRecord {
  return {
    hash: r.code_hash,
    clientId: r.client_id,
    userId: r.user_id,
    grantId: r.grant_id,
    redirectUri: r.redirect_uri,
    scopes: scopesFromColumn(r.scopes),
    codeChallenge: r.code_challenge,
    resources: resourcesFromColumn(r.resources),
    ...boundTo(r.dpop_jkt),
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    consumedAt: r.consumed_at,
    nonce: r.nonce,
    authTime: r.auth_time,
  };
}

const accessColumns = ['token_hash', 'grant_id', 'code_hash', 'client_id', 'user_id', 'scopes', 'resources', 'dpop_jkt', 'created_at', 'expires_at', 'revoked_at'] as const;
const insertAccessToken = prepare<Selectable<AccessTokensTable>, unknown>((db) => db.insertInto('access_tokens').values(placeholderRow(accessColumns)));

/** The columns every token row has of its grant (docs/rules.md#code-replay: the code it descends from too). */
function grantColumns(t: AccessTokenRecord | RefreshTokenRecord) {
  return { grant_id: t.grantId, code_hash: t.codeHash, client_id: t.clientId, user_id: t.userId, scopes: scopesColumn(t.scopes), resources: resourcesColumn(t.resources), dpop_jkt: t.dpopJkt ?? null };
}

function accessRow(t: AccessTokenRecord): Selectable<AccessTokensTable> {
  return { token_hash: t.hash, ...grantColumns(t), created_at: t.createdAt, expires_at: t.expiresAt, revoked_at: t.revokedAt };
}

const refreshColumns = ['id', 'token_hash', 'grant_id', 'code_hash', 'client_id', 'user_id', 'scopes', 'resources', 'dpop_jkt', 'parent_id', 'created_at', 'expires_at', 'spent_at', 'successor_box', 'revoked_at'] as const;
const insertRefreshToken = prepare<Selectable<RefreshTokensTable>, unknown>((db) => db.insertInto('refresh_tokens').values(placeholderRow(refreshColumns)));

function refreshRow(t: RefreshTokenRecord): Selectable<RefreshTokensTable> {
  return {
    id: t.id,
    token_hash: t.hash,
    ...grantColumns(t),
    parent_id: t.parentId,
    created_at: t.createdAt,
    expires_at: t.expiresAt,
    spent_at: t.spentAt,
    successor_box: t.successorBox,
    revoked_at: t.revokedAt,
  };
}

interface PairRows {
  access: Selectable<AccessTokensTable>;
  refresh: Selectable<RefreshTokensTable>;
  audit: AuditValues;
}

/** The three rows as one parameter set: each column named after its table (access.scopes → access_scopes). */
function prefixed(rows: PairRows): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [table, row] of Object.entries(rows)) for (const [column, value] of Object.entries(row)) params[`${table}_${column}`] = value;
  return params;
}

// PostgreSQL: the pair and its audit event in one statement (writes in WITH clauses).
const insertTokenPair = prepare<Record<string, unknown>, unknown>((db) =>
  db
    .with('access', (q) => q.insertInto('access_tokens').values(placeholderRow(accessColumns, 'access_')))
    .with('refresh', (q) => q.insertInto('refresh_tokens').values(placeholderRow(refreshColumns, 'refresh_')))
    .insertInto('audit_events')
    .values(placeholderRow(auditColumns, 'audit_')),
);

const selectRefreshToken = prepare((db, p: { hash: string }) => db.selectFrom('refresh_tokens').select(refreshColumns).where('token_hash', '=', p.hash));

function toRefreshRecord(r: Selectable<RefreshTokensTable>): RefreshTokenRecord {
  return {
    id: r.id,
    hash: r.token_hash,
    grantId: r.grant_id,
    codeHash: r.code_hash,
    clientId: r.client_id,
    userId: r.user_id,
    scopes: scopesFromColumn(r.scopes),
    resources: resourcesFromColumn(r.resources),
    ...boundTo(r.dpop_jkt),
    parentId: r.parent_id,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    spentAt: r.spent_at,
    successorBox: r.successor_box,
    revokedAt: r.revoked_at,
  };
}

// Spends only an unspent, unrevoked token: of concurrent spends exactly one row is updated.
const keep = prepare((db, p: { id: string; expiresAt: number }) =>
  db.updateTable('refresh_tokens').set({ expires_at: p.expiresAt }).where('id', '=', p.id).where('spent_at', 'is', null).where('revoked_at', 'is', null),
);
const spendUnexpired = prepare((db, p: { id: string; at: number; box: string }) =>
  db
    .updateTable('refresh_tokens')
    .set({ spent_at: p.at, successor_box: p.box })
    .where('id', '=', p.id)
    .where('spent_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', p.at),
);

/** PostgreSQL's column types, for the parameters an INSERT … SELECT takes (PostgreSQL would read them as text). */
const bigintColumns = new Set(['created_at', 'expires_at', 'revoked_at', 'spent_at']);

/** A row of parameters selected from `spent`, so that it is inserted only if the token was spent. */
function rowIfSpent<DB, TB extends keyof DB, K extends string>(eb: ExpressionBuilder<DB, TB>, columns: readonly K[], prefix: string) {
  const placeholders = placeholderRow(columns, prefix);
  return columns.map((column) => eb.cast(eb.val(placeholders[column]), bigintColumns.has(column) ? 'bigint' : 'text').as(column));
}

// PostgreSQL: the rotation in one statement. The spend is conditional; the new pair and its
// audit event are selected from what it returned, so they are stored only if it spent the
// token, and all four writes commit together or not at all (writes in WITH clauses).
const rotateInOneStatement = prepare<Record<string, unknown>, unknown>((db) =>
  db
    .with('spent', (q) =>
      q
        .updateTable('refresh_tokens')
        .set({ spent_at: placeholderRow(['spent_at'])['spent_at'], successor_box: placeholderRow(['spent_box'])['spent_box'] })
        .where('id', '=', placeholderRow(['spent_id'])['spent_id'])
        .where('spent_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', placeholderRow(['spent_at'])['spent_at'])
        .returning('id'),
    )
    .with('access', (q) => q.insertInto('access_tokens').columns(accessColumns).expression((eb) => eb.selectFrom('spent').select((row) => rowIfSpent(row, accessColumns, 'access_'))))
    .with('refresh', (q) => q.insertInto('refresh_tokens').columns(refreshColumns).expression((eb) => eb.selectFrom('spent').select((row) => rowIfSpent(row, refreshColumns, 'refresh_'))))
    .insertInto('audit_events')
    .columns(auditColumns)
    .expression((eb) => eb.selectFrom('spent').select((row) => rowIfSpent(row, auditColumns, 'audit_'))),
);

const spend = prepare((db, p: { id: string; at: number; box: string }) =>
  db.updateTable('refresh_tokens').set({ spent_at: p.at, successor_box: p.box }).where('id', '=', p.id).where('spent_at', 'is', null).where('revoked_at', 'is', null),
);
