/**
 * The `adyen` connector: Adyen's Checkout API v71 behind the processor seam
 * (CONTRACT 11). Card sales with 3-D Secure by redirect and refunds; standard
 * notifications signed per item with the account's HMAC key. Adyen offers no
 * lookup of a payment by our reference and Cashier sends no payouts through
 * it, so those capabilities are not declared and the registry refuses them by
 * name. An account holds `api_key` (X-API-Key) and `hmac_key` (hex, from the
 * webhook's settings in Adyen's Customer Area), and during a key rotation
 * `hmac_key_previous`; settings are in settings.ts.
 */
import type { ConnectorModule } from "../connector.ts";
import { adyenProcessor } from "./integration.ts";
import { type AdyenSettings, parseAdyenSettings } from "./settings.ts";
import { adyenWebhooks } from "./webhooks.ts";

export type { AdyenSettings };

/** The connector module, registered by one line in the connectors list. */
export const adyen: ConnectorModule<AdyenSettings> = {
  name: "adyen",
  capabilities: ["sale", "refund", "threeDSecure"],
  credentials: ["api_key", "hmac_key"],
  optionalCredentials: ["hmac_key_previous"],
  parseSettings: parseAdyenSettings,
  open: adyenProcessor,
  webhooks: adyenWebhooks,
};
