// Kysely's PostgreSQL introspector reads the columns of every schema in the database and
// calls has_schema_privilege() on each; a schema dropped while that query runs makes it
// fail ("schema … does not exist"). Its one user here is the migrator, which asks only
// whether its bookkeeping tables exist in our schema (migrator.ts passes it that schema).
// So this introspector looks in the connection's current schema only: a migration no
// longer fails because another application, or another test run, drops its own schema.
import { sql, type DatabaseIntrospector, type DatabaseMetadata, type DatabaseMetadataOptions, type Kysely, type SchemaMetadata, type TableMetadata } from 'kysely';

const KYSELY_TABLES = ['kysely_migration', 'kysely_migration_lock'];

export class CurrentSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string | null }>`select current_schema() as name`.execute(this.db);
    return rows.flatMap((r) => (r.name === null ? [] : [{ name: r.name }]));
  }

  /** The current schema's tables and views, by name; their columns are not read (nobody asks). */
  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; schema: string; type: string }>`
      select table_name as name, table_schema as schema, table_type as type
      from information_schema.tables
      where table_schema = current_schema()
      order by table_name`.execute(this.db);
    return rows
      .filter((r) => options.withInternalKyselyTables || !KYSELY_TABLES.includes(r.name))
      .map((r) => ({ name: r.name, schema: r.schema, isView: r.type === 'VIEW', columns: [] }));
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}
