/**
 * The audit chain's anchor (docs/backoffice-operations.md, The audit log): a
 * signed checkpoint of the chain's head (its last row's id and hash) is kept
 * apart from audit_log, with each row and at each engine start, so that rows
 * removed from the end of the chain (a tail the chain itself cannot miss)
 * are found by `npm run audit-check`: a checkpoint then names a row the
 * chain no longer has. Insert-only like audit_log: UPDATE, DELETE and
 * TRUNCATE are refused to every ordinary role.
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration021AuditCheckpoints extends Migration {
  override name = "021-audit-checkpoints";

  override up(): void {
    this.addSql(`create table audit_checkpoint (
  id bigserial primary key,
  at timestamptz not null,
  row_id bigint not null check (row_id >= 0),
  row_hash text not null,
  reason text not null check (reason in ('row', 'start')),
  mac text not null
);`);
    this.addSql(`create index audit_checkpoint_row_idx on audit_checkpoint (row_id);`);
    this.addSql(`create function audit_checkpoint_refuse_change() returns trigger language plpgsql as $$
begin
  raise exception 'audit_checkpoint is insert-only: % refused', tg_op using errcode = '42501';
end;
$$;`);
    this.addSql(`create trigger audit_checkpoint_no_update_delete before update or delete on audit_checkpoint
  for each row execute function audit_checkpoint_refuse_change();`);
    this.addSql(`create trigger audit_checkpoint_no_truncate before truncate on audit_checkpoint
  for each statement execute function audit_checkpoint_refuse_change();`);
  }
}
