/**
 * Frontends' logos in table brand_logo (032), named by the SHA-256 of their bytes: written in the same
 * transaction as the branding that names them (merchant-store.ts), and read by the hosted Cashier's edge through
 * CashierService.GetBrandLogo. A row is never changed, so a read may be cached for as long as anyone likes.
 */
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import type { Branding } from "../../shared/branding.ts";
import { LOGO_SHA256 } from "../../shared/branding.ts";
import { BrandLogoEntity } from "../../store/entities/brand-logo.entity.ts";

/**
 * Writes a branding's new logo (a repeat of a stored one changes nothing) and checks that the logo it names is
 * stored; false when it names one the engine does not hold (a hash typed or kept from another database).
 */
export async function keepBrandLogo(em: EntityManager, b: Branding | undefined | null): Promise<boolean> {
  if (!b?.logoSha256) return true;
  if (b.newLogo) {
    const l = b.newLogo;
    await em.execute("insert into brand_logo (sha256, png, width, height) values (?, ?, ?, ?) on conflict (sha256) do nothing", [
      l.sha256,
      Buffer.from(l.png),
      l.width,
      l.height,
    ]);
    return true;
  }
  return (await em.count(BrandLogoEntity, { sha256: b.logoSha256 })) > 0;
}

/** The branding as stored in frontend.branding: the logo by its hash only. */
export function storedBranding(b: Branding | undefined): Branding | null {
  if (!b) return null;
  const { newLogo: _bytes, ...rest } = b;
  return rest;
}

/** Reads logos for the hosted Cashier's edge. */
export class PgBrandLogoStore {
  readonly #orm: MikroORM;

  constructor(orm: MikroORM) {
    this.#orm = orm;
  }

  /** The PNG named `sha256`; undefined when there is none (or the name is not a hash, without a query). */
  async get(sha256: string): Promise<Uint8Array | undefined> {
    if (!LOGO_SHA256.test(sha256)) return undefined;
    const row = await this.#orm.em.fork().findOne(BrandLogoEntity, { sha256 }, { fields: ["png"] });
    return row ? new Uint8Array(row.png) : undefined;
  }
}
