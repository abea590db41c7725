/** A frontend's logo as the engine checked it, named by its content. */
import { defineEntity, p } from "@mikro-orm/core";

/** Table brand_logo (032): one row per PNG, keyed by the SHA-256 of its bytes; never changed once written. */
export const BrandLogoEntity = defineEntity({
  name: "BrandLogo",
  tableName: "brand_logo",
  properties: {
    sha256: p.text().primary(),
    png: p.blob(),
    width: p.integer(),
    height: p.integer(),
    createdAt: p.datetime().defaultRaw("now()"),
  },
});
