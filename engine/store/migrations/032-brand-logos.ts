/**
 * Frontends' logos (issue 33, docs/cashier.md Logo): `brand_logo` holds each PNG the engine checked
 * (brand-logo-spec.ts), keyed by the SHA-256 of its bytes, which is also its address on the edge
 * (/cashier/logo/<sha256>.png). A frontend's branding (029) names its logo by that hash; two frontends with the
 * same logo share one row. A row never changes (its name is its content): the service role may add rows, not
 * change or delete them. A logo no branding names any more is kept (at most 64 KiB each).
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration032BrandLogos extends Migration {
  override name = "032-brand-logos";

  override up(): void {
    this.addSql(`create table brand_logo (
  sha256 text primary key check (sha256 ~ '^[0-9a-f]{64}$'),
  png bytea not null check (octet_length(png) between 1 and 65536),
  width integer not null check (width between 16 and 512),
  height integer not null check (height between 16 and 512),
  created_at timestamptz not null default now()
);`);
  }
}
