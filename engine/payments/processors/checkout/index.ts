/**
 * The Checkout.com connector (CONTRACT 11): the Unified Payments API for card
 * sales with 3-D Secure, card payouts, refunds and lookups, and its signed
 * webhooks. One module, registered by one line in the connectors list. An
 * account opens a processor of its own; an account without payout settings
 * opens one without payouts, which the registry refuses by name.
 *
 * Raw card numbers go to Checkout.com in the request body (`source.type:
 * "card"`, a card `destination`): Checkout.com accepts them only from a
 * merchant it has approved for it, who is PCI DSS compliant at SAQ D.
 */
import type { ConnectorModule } from "../connector.ts";
import { checkoutProcessor } from "./integration.ts";
import { type CheckoutSettings, parseCheckoutSettings } from "./settings.ts";
import { checkoutWebhooks } from "./webhooks.ts";

export type { CheckoutSettings } from "./settings.ts";

export const checkout: ConnectorModule<CheckoutSettings> = {
  name: "checkout",
  capabilities: ["sale", "payout", "refund", "threeDSecure", "statusLookup"],
  credentials: ["secret_key", "webhook_secret"],
  optionalCredentials: ["webhook_secret_previous"],
  parseSettings: parseCheckoutSettings,
  open: checkoutProcessor,
  webhooks: checkoutWebhooks,
};
