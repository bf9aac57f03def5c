// The peer as it is deployed: oidc-provider's adapter interface over a SQLite file, with the
// durability Gatehouse has (WAL, synchronous = NORMAL: a commit survives a process crash, and
// an OS crash may lose the last ones). One prepared statement per adapter call, compiled once;
// every call is its own autocommit transaction, as a SQL adapter of oidc-provider's would be.
// oidc-provider asks its adapter for: upsert, find, findByUid, findByUserCode, consume,
// destroy and revokeByGrantId, each per model (AccessToken, RefreshToken, Session, …).
import Database from 'better-sqlite3';

const epoch = () => Math.floor(Date.now() / 1000);

/** The adapter factory oidc-provider takes as `adapter`: one database, one adapter per model. */
export function createSqliteAdapter(file) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE IF NOT EXISTS oidc_model (
    model TEXT NOT NULL,
    id TEXT NOT NULL,
    payload TEXT NOT NULL,
    grant_id TEXT,
    user_code TEXT,
    uid TEXT,
    expires_at INTEGER,
    consumed_at INTEGER,
    PRIMARY KEY (model, id)
  );
  CREATE INDEX IF NOT EXISTS oidc_model_grant ON oidc_model (model, grant_id);
  CREATE INDEX IF NOT EXISTS oidc_model_uid ON oidc_model (model, uid);
  CREATE INDEX IF NOT EXISTS oidc_model_user_code ON oidc_model (model, user_code);`);
  const live = '(expires_at IS NULL OR expires_at > ?)';
  const statements = {
    upsert: db.prepare(`INSERT INTO oidc_model (model, id, payload, grant_id, user_code, uid, expires_at)
      VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
        user_code = excluded.user_code, uid = excluded.uid, expires_at = excluded.expires_at`),
    find: db.prepare(`SELECT payload, consumed_at FROM oidc_model WHERE model = ? AND id = ? AND ${live}`),
    findByUid: db.prepare(`SELECT payload, consumed_at FROM oidc_model WHERE model = ? AND uid = ? AND ${live}`),
    findByUserCode: db.prepare(`SELECT payload, consumed_at FROM oidc_model WHERE model = ? AND user_code = ? AND ${live}`),
    consume: db.prepare('UPDATE oidc_model SET consumed_at = ? WHERE model = ? AND id = ?'),
    destroy: db.prepare('DELETE FROM oidc_model WHERE model = ? AND id = ?'),
    revokeByGrantId: db.prepare('DELETE FROM oidc_model WHERE model = ? AND grant_id = ?'),
  };
  const read = (row) => (row === undefined ? undefined : { ...JSON.parse(row.payload), ...(row.consumed_at !== null ? { consumed: row.consumed_at } : {}) });

  class SqliteAdapter {
    constructor(model) {
      this.model = model;
    }

    async upsert(id, payload, expiresIn) {
      const expiresAt = typeof expiresIn === 'number' ? epoch() + expiresIn : null;
      statements.upsert.run(this.model, id, JSON.stringify(payload), payload.grantId ?? null, payload.userCode ?? null, payload.uid ?? null, expiresAt);
    }

    async find(id) {
      return read(statements.find.get(this.model, id, epoch()));
    }

    async findByUid(uid) {
      return read(statements.findByUid.get(this.model, uid, epoch()));
    }

    async findByUserCode(userCode) {
      return read(statements.findByUserCode.get(this.model, userCode, epoch()));
    }

    async consume(id) {
      statements.consume.run(epoch(), this.model, id);
    }

    async destroy(id) {
      statements.destroy.run(this.model, id);
    }

    async revokeByGrantId(grantId) {
      statements.revokeByGrantId.run(this.model, grantId);
    }
  }
  return { adapter: (model) => new SqliteAdapter(model), close: () => db.close() };
}
