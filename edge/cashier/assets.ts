/**
 * The Cashier's own script (card brand as you type, the Luhn hint, the
 * saved-or-new card switch, following a pending result), served by the edge
 * at a content-hashed URL beside the kit's assets.
 */
import { load, registerAsset } from "../pages/kit/assets.ts";

export const ASSETS_OF_CASHIER = {
  form: registerAsset(load("cashier-form.js", "text/javascript; charset=utf-8", new URL("./assets/", import.meta.url))),
  /** The card number grouped as typed and the pay button's amount (cashier-typing.js). */
  typing: registerAsset(load("cashier-typing.js", "text/javascript; charset=utf-8", new URL("./assets/", import.meta.url))),
} as const;
