/**
 * The append-only tables by month (docs/decisions/0020-monthly-partitions.md; docs/operations.md, Data
 * retention): the status history (transaction_event), the callbacks' attempts (callback_attempt) and the
 * acquirers' webhook inbox (acquirer_webhook_event) become range-partitioned on their time (at, at, received_at),
 * one partition per UTC month, named <table>_YYYY_MM, and a default partition, <table>_default, so that an insert
 * never fails for want of its month. Retention detaches and drops whole months instead of deleting rows one by one.
 *
 * The existing rows are moved: each table is renamed away, the partitioned table made under its name with the same
 * columns, sequence, defaults, foreign keys and indexes, its months made from its oldest row to three months ahead,
 * the rows copied in, the old table dropped. The primary keys become (id, time), as Postgres asks of a unique
 * index on a partitioned table; ids still come from one sequence each. Nothing references these tables.
 *
 * Two keys change:
 * - acquirer_webhook_event's unique (merchant_id, account, event_id) cannot hold across months on a partitioned
 *   table (a unique index there must include the month). It moves to acquirer_webhook_event_key, one small row per
 *   kept event under that primary key: the inbox writes the key and the event in one statement, and an event whose
 *   key is there writes nothing, whichever month the first copy came in. Keys go when their month's events go.
 * - callback_attempt no longer references callback: a callback's attempts now go with their month, after the
 *   callback itself (attempts are read only through their callback, and written only by the worker holding it).
 *
 * Three functions do the partitions' upkeep (engine/retention/store/partition-store.ts calls them). They run as
 * this schema's owner (SECURITY DEFINER, fixed search_path, the three tables only), since the engine's service role
 * may not change the schema; the service role is granted EXECUTE on them at each start and PUBLIC has none. A lock
 * they cannot take within lock_timeout (500 ms, under Postgres's 1 s deadlock_timeout) fails the call, to be tried
 * again, rather than holding the payment path up.
 *
 * The audit log stays one table: it is kept for good, its hash chain is checked from its first row with gapless
 * ids, and its checkpoints name rows by id; a month of it dropped would be a chain broken on purpose.
 */
import { Migration } from "@mikro-orm/migrations";

/** The tables partitioned here, with the column each is partitioned on. */
const TABLES = [
  ["transaction_event", "at"],
  ["callback_attempt", "at"],
  ["acquirer_webhook_event", "received_at"],
] as const;

/** One engine's upkeep at a time: another's call meanwhile returns having done nothing (the first does it). */
const UPKEEP_LOCK = "hashtext('cashier_partitions_upkeep')";

/** The functions' common settings: the owner's rights, a fixed search path, UTC months, bounded lock waits. */
const DEFINER = "security definer set search_path = pg_catalog, public set timezone = 'UTC' set lock_timeout = '500ms'";

export class Migration022MonthlyPartitions extends Migration {
  override name = "022-monthly-partitions";

  override up(): void {
    this.#functions();
    // The old tables step aside, with the names of their indexes (index names share the schema's namespace).
    for (const [table] of TABLES) {
      this.addSql(`alter table ${table} rename to ${table}_unpartitioned;`);
      this.addSql(`alter index ${table}_pkey rename to ${table}_unpartitioned_pkey;`);
    }
    this.addSql(`alter index transaction_event_trace_idx rename to transaction_event_unpartitioned_trace_idx;`);
    this.addSql(`alter index callback_attempt_callback_idx rename to callback_attempt_unpartitioned_callback_idx;`);

    this.addSql(`create table transaction_event (
  id bigint not null default nextval('transaction_event_id_seq'),
  trace_id integer not null references transaction (trace_id),
  from_status text null,
  to_status text not null,
  payout_letter char(1) null,
  cause text not null,
  at timestamptz not null default now(),
  primary key (id, at)
) partition by range (at);`);
    this.addSql(`create index transaction_event_trace_idx on transaction_event (trace_id, id);`);

    this.addSql(`create table callback_attempt (
  id bigint not null default nextval('callback_attempt_id_seq'),
  callback_id bigint not null,
  at timestamptz not null,
  duration_ms integer not null,
  http_status integer not null default 0,
  response_body text not null default '',
  outcome text not null,
  error text not null default '',
  primary key (id, at)
) partition by range (at);`);
    this.addSql(`create index callback_attempt_callback_idx on callback_attempt (callback_id, id);`);

    this.addSql(`create table acquirer_webhook_event (
  id bigint not null default nextval('acquirer_webhook_event_id_seq'),
  merchant_id text not null references merchant (id) on delete cascade,
  account text not null,
  event_id text not null,
  event_type text not null,
  body bytea not null,
  received_at timestamptz not null default now(),
  applied_at timestamptz null,
  trace_id bigint null,
  outcome text null,
  primary key (id, received_at)
) partition by range (received_at);`);
    this.addSql(`create table acquirer_webhook_event_key (
  merchant_id text not null references merchant (id) on delete cascade,
  account text not null,
  event_id text not null,
  received_at timestamptz not null default now(),
  primary key (merchant_id, account, event_id)
);`);
    this.addSql(`create index acquirer_webhook_event_key_received_idx on acquirer_webhook_event_key (received_at);`);

    for (const [table, column] of TABLES) {
      this.addSql(`alter sequence ${table}_id_seq owned by ${table}.id;`);
      this.addSql(`create table ${table}_default partition of ${table} default;`);
      this.addSql(
        `select cashier_partitions_create('${table}', coalesce((select min(${column}) from ${table}_unpartitioned), now()), now() + interval '3 months');`,
      );
      this.addSql(`insert into ${table} select * from ${table}_unpartitioned;`);
      this.addSql(`drop table ${table}_unpartitioned;`);
    }
    this.addSql(
      `insert into acquirer_webhook_event_key (merchant_id, account, event_id, received_at)
       select merchant_id, account, event_id, received_at from acquirer_webhook_event;`,
    );

    // The status history and the webhook inbox are no longer purged by id after a watermark, but by month.
    this.addSql(`delete from retention_watermark where name in ('transaction_event', 'acquirer_webhook_event');`);
    this.addSql(`alter table retention_watermark drop constraint retention_watermark_name_check;`);
    this.addSql(`alter table retention_watermark add constraint retention_watermark_name_check check (name in ('callback', 'hosted_session'));`);
  }

  #functions(): void {
    // The column each partitioned table is partitioned on; any other name is refused, naming it.
    this.addSql(`create function cashier_partition_column(p_table text) returns text language sql immutable
  set search_path = pg_catalog as $$
  select case p_table when 'transaction_event' then 'at' when 'callback_attempt' then 'at' when 'acquirer_webhook_event' then 'received_at' end
$$;`);

    // Every month of p_table from p_from's through p_to's that has no partition gets one; rows the default partition
    // took for that month move into it first (an attach refuses while the default holds any). The number made.
    this.addSql(`create function cashier_partitions_create(p_table text, p_from timestamptz, p_to timestamptz) returns integer
  language plpgsql ${DEFINER} as $$
declare
  v_column text := cashier_partition_column(p_table);
  v_month timestamptz := date_trunc('month', p_from);
  v_name text;
  v_made integer := 0;
begin
  if v_column is null then
    raise exception 'table % is not partitioned by month', p_table using errcode = '22023';
  end if;
  if p_to < p_from or p_to > p_from + interval '100 years' then
    raise exception 'months from % to % are not a range to make', p_from, p_to using errcode = '22023';
  end if;
  if not pg_try_advisory_xact_lock(${UPKEEP_LOCK}) then
    return 0;
  end if;
  while v_month <= p_to loop
    v_name := p_table || '_' || to_char(v_month, 'YYYY_MM');
    if to_regclass('public.' || quote_ident(v_name)) is null then
      execute format('create table public.%I (like public.%I including defaults)', v_name, p_table);
      execute format('with moved as (delete from public.%I where %I >= $1 and %I < $2 returning *) insert into public.%I select * from moved',
        p_table || '_default', v_column, v_column, v_name) using v_month, v_month + interval '1 month';
      execute format('alter table public.%I attach partition public.%I for values from (%L) to (%L)', p_table, v_name, v_month, v_month + interval '1 month');
      v_made := v_made + 1;
    end if;
    v_month := v_month + interval '1 month';
  end loop;
  return v_made;
end $$;`);

    // Detaches every month of p_table that ended at or before the start of p_before's month (never the current
    // month or a later one), drops its foreign keys (their triggers live on the referenced table, which the drop
    // would otherwise lock again) and renames it <name>_retired, in one short transaction; the number detached.
    this.addSql(`create function cashier_partitions_detach(p_table text, p_before timestamptz) returns integer
  language plpgsql ${DEFINER} as $$
declare
  v_cut timestamptz := least(date_trunc('month', p_before), date_trunc('month', now()));
  v_part record;
  v_fk record;
  v_done integer := 0;
begin
  if cashier_partition_column(p_table) is null then
    raise exception 'table % is not partitioned by month', p_table using errcode = '22023';
  end if;
  if not pg_try_advisory_xact_lock(${UPKEEP_LOCK}) then
    return 0;
  end if;
  for v_part in
    select c.relname::text as name
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = ('public.' || quote_ident(p_table))::regclass
      and c.relname ~ ('^' || p_table || '_[0-9]{4}_[0-9]{2}$')
      and to_timestamp(right(c.relname, 7), 'YYYY_MM') + interval '1 month' <= v_cut
    order by c.relname
  loop
    execute format('alter table public.%I detach partition public.%I', p_table, v_part.name);
    for v_fk in select conname from pg_constraint where conrelid = ('public.' || quote_ident(v_part.name))::regclass and contype = 'f' loop
      execute format('alter table public.%I drop constraint %I', v_part.name, v_fk.conname);
    end loop;
    execute format('alter table public.%I rename to %I', v_part.name, v_part.name || '_retired');
    v_done := v_done + 1;
  end loop;
  return v_done;
end $$;`);

    // Drops p_table's retired months, first copying back the rows still kept, which land in the default partition
    // (no month holds them any more): the history of a transaction that may still change, the attempts of a callback
    // still pending or changed since p_kept_since. The webhook inbox keeps none. Each month's name and rows kept.
    this.addSql(`create function cashier_partitions_drop_retired(p_table text, p_kept_since timestamptz)
  returns table (month text, kept bigint) language plpgsql ${DEFINER} as $$
declare
  v_name text;
  v_kept bigint;
begin
  if cashier_partition_column(p_table) is null then
    raise exception 'table % is not partitioned by month', p_table using errcode = '22023';
  end if;
  if not pg_try_advisory_xact_lock(${UPKEEP_LOCK}) then
    return;
  end if;
  for v_name in
    select c.relname::text from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'r' and not c.relispartition
      and c.relname ~ ('^' || p_table || '_[0-9]{4}_[0-9]{2}_retired$')
    order by c.relname
  loop
    v_kept := 0;
    if p_table = 'transaction_event' then
      execute format('insert into public.transaction_event select r.* from public.%I r join public.transaction t on t.trace_id = r.trace_id
        where t.status in (select split_part(a.from_state, '':'', 1) from public.allowed_transition a)', v_name);
      get diagnostics v_kept = row_count;
    elsif p_table = 'callback_attempt' then
      execute format('insert into public.callback_attempt select r.* from public.%I r join public.callback c on c.id = r.callback_id
        where c.state = ''pending'' or c.updated_at >= $1', v_name) using p_kept_since;
      get diagnostics v_kept = row_count;
    end if;
    execute format('drop table public.%I', v_name);
    month := substr(v_name, length(p_table) + 2, 7);
    kept := v_kept;
    return next;
  end loop;
end $$;`);

    for (const fn of [
      "cashier_partitions_create(text, timestamptz, timestamptz)",
      "cashier_partitions_detach(text, timestamptz)",
      "cashier_partitions_drop_retired(text, timestamptz)",
    ])
      this.addSql(`revoke all on function ${fn} from public;`);
  }
}
