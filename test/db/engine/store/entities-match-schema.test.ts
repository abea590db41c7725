/**
 * The entities and the migrations describe one schema: on a real Postgres,
 * after the committed migrations, every table (but the migrator's own) has an
 * entity, and each entity's columns are the table's columns with the same
 * type, nullability and default, its relations the table's foreign keys (but
 * those it declares without one). A partitioned table is one table: its
 * months (partitions) are not tables of their own here. A
 * migration without its entity change (or the reverse) fails here, not at the
 * first query that meets it.
 */
import t from "tap";
import type { EntityMetadata, EntityProperty } from "@mikro-orm/core";
import type { MikroORM } from "@mikro-orm/postgresql";
import { migratedDatabase } from "../../../support/store-database.ts";

interface Column {
  table: string;
  name: string;
  type: string;
  nullable: boolean;
  /** The default as written in SQL, without casts; "serial" for a sequence. */
  default: string | null;
}

/** information_schema's spelling of a type, in MikroORM's words. */
function dbType(c: { data_type: string; character_maximum_length: number | null }): string {
  if (c.data_type === "character") return `char(${c.character_maximum_length})`;
  if (c.data_type === "character varying") return `varchar(${c.character_maximum_length ?? ""})`;
  if (c.data_type === "timestamp with time zone") return "timestamptz";
  return c.data_type;
}

/** MikroORM's column type, in the same words (its aliases folded). */
function metaType(columnType: string): string {
  const t = columnType.toLowerCase();
  const aliases: Record<string, string> = {
    int: "integer",
    int4: "integer",
    serial: "integer",
    int8: "bigint",
    bigserial: "bigint",
    int2: "smallint",
    bool: "boolean",
  };
  return aliases[t] ?? t.replace(/^character\(/, "char(").replace(/^character varying\(/, "varchar(");
}

/** `'CAPYJ'::text` -> `'CAPYJ'`; `nextval(...)` -> serial. */
function dbDefault(d: string | null): string | null {
  if (d === null) return null;
  if (d.startsWith("nextval(")) return "serial";
  return d.replace(/::[a-z ]+(\(\d+\))?$/i, "");
}

function columnsOf(meta: EntityMetadata): { column: Column; prop: EntityProperty }[] {
  return meta.props
    .filter((p) => p.persist !== false && (p.kind === "scalar" || p.kind === "m:1" || (p.kind === "1:1" && p.owner)))
    .map((prop) => ({
      prop,
      column: {
        table: meta.tableName,
        name: prop.fieldNames[0],
        type: metaType(prop.columnTypes[0]),
        nullable: prop.nullable === true,
        default: prop.autoincrement ? "serial" : (prop.defaultRaw ?? null),
      },
    }));
}

/** Tables that are a month of a partitioned table (migration 022), not tables of their own. */
const NOT_A_PARTITION = `table_name not in (select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relispartition)`;

async function liveSchema(orm: MikroORM) {
  const conn = orm.em.getConnection();
  const columns = await conn.execute<
    {
      table_name: string;
      column_name: string;
      data_type: string;
      character_maximum_length: number | null;
      is_nullable: string;
      column_default: string | null;
    }[]
  >(
    `select table_name, column_name, data_type, character_maximum_length, is_nullable, column_default
     from information_schema.columns where table_schema = 'public' and table_name <> 'mikro_orm_migrations' and ${NOT_A_PARTITION}`,
  );
  const tables = await conn.execute<{ table_name: string }[]>(
    `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name <> 'mikro_orm_migrations' and ${NOT_A_PARTITION}`,
  );
  const foreignKeys = await conn.execute<{ table_name: string; column_name: string; ref_table: string }[]>(
    // A partitioned table's months carry its foreign keys under the same names: joined by table too, and distinct.
    `select distinct kcu.table_name, kcu.column_name, ccu.table_name as ref_table
     from information_schema.table_constraints tc
     join information_schema.key_column_usage kcu on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema and kcu.table_name = tc.table_name
     join information_schema.constraint_column_usage ccu on ccu.constraint_name = tc.constraint_name and ccu.table_schema = tc.table_schema
     where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = 'public' and tc.${NOT_A_PARTITION}`,
  );
  return {
    tables: tables.map((r) => r.table_name).sort(),
    columns: columns.map(
      (c): Column => ({
        table: c.table_name,
        name: c.column_name,
        type: dbType(c),
        nullable: c.is_nullable === "YES",
        default: dbDefault(c.column_default),
      }),
    ),
    foreignKeys: foreignKeys.map((f) => `${f.table_name}.${f.column_name} -> ${f.ref_table}`).sort(),
  };
}

const byKey = (c: Column) => `${c.table}.${c.name}`;
const sortColumns = (cs: Column[]) => [...cs].sort((a, b) => byKey(a).localeCompare(byKey(b)));

t.test("every table has an entity whose columns and relations are the migrated schema's", async (t) => {
  const { orm } = await migratedDatabase(t);
  const live = await liveSchema(orm);
  const metas = [...orm.getMetadata().getAll().values()].filter((m) => !m.abstract && !m.embeddable);

  t.same(metas.map((m) => m.tableName).sort(), live.tables, "one entity per table, no entity without a table");

  const mapped = metas.flatMap(columnsOf);
  t.same(sortColumns(mapped.map((m) => m.column)), sortColumns(live.columns), "columns: names, types, nullability, defaults");

  const relations = mapped
    .filter((m) => m.prop.kind !== "scalar" && m.prop.createForeignKeyConstraint !== false)
    .map((m) => `${m.column.table}.${m.column.name} -> ${m.prop.targetMeta!.tableName}`)
    .sort();
  t.same(relations, live.foreignKeys, "every foreign key is a relation, every relation a foreign key");
  t.ok(live.foreignKeys.length > 0, "the foreign keys were read (the comparison is not of two empty lists)");
});
