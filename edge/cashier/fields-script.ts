/**
 * The hosted payment fields' own script (assets/cashier-fields.js: posts
 * cashier:card_token and cashier:error to the allowed parent), served at a
 * content-hashed URL beside the Cashier's other assets.
 */
import { load, registerAsset } from "../pages/kit/assets.ts";

export const FIELDS_SCRIPT = registerAsset(load("cashier-fields.js", "text/javascript; charset=utf-8", new URL("./assets/", import.meta.url)));
