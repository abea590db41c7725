/**
 * Merchants whose platform is the test's PlatformStub: every callback URL
 * points at it. `m-plat` validates and gets every callback; `m-plat-manual`
 * approves payouts by hand; `m-plat-yj` asks UpdatePayout only for Y and J;
 * `m-plat-quiet` has no validation_url; `m-plat-fallback` has no
 * update_payout_url ({platform_url}/UpdatePayout); `m-plat-down` validates at
 * an address where nothing listens.
 */
import { SECRET } from "./merchants.ts";

export const PLATFORM_SECRETS = {
  "m-plat": SECRET,
  "m-plat-manual": SECRET,
  "m-plat-yj": SECRET,
  "m-plat-quiet": SECRET,
  "m-plat-fallback": SECRET,
  "m-plat-down": SECRET,
};

export function platformMerchants(stubUrl: string) {
  const common = {
    secret: SECRET,
    site_id: 7,
    platform_url: stubUrl,
    update_payout_url: `${stubUrl}/api/UpdatePayout`,
    processors: ["sim-a", "sim-b"],
  };
  return {
    merchants: [
      {
        ...common,
        merchant_id: "m-plat",
        validation_url: `${stubUrl}/api/validation`,
        frontends: [{ name: "plat-usd", base_currency: "USD", currencies: ["USD", "JPY", "BHD"] }],
      },
      { ...common, merchant_id: "m-plat-manual", payout_approval: "manual", frontends: [{ name: "manual-usd", base_currency: "USD" }] },
      { ...common, merchant_id: "m-plat-yj", update_payout_statuses: "YJ", frontends: [{ name: "yj-usd", base_currency: "USD" }] },
      { ...common, merchant_id: "m-plat-no-up", update_payout_statuses: "", frontends: [{ name: "no-up-usd", base_currency: "USD" }] },
      { ...common, merchant_id: "m-plat-quiet", site_id: undefined, frontends: [{ name: "quiet-usd", base_currency: "USD" }] },
      { ...common, merchant_id: "m-plat-fallback", update_payout_url: undefined, frontends: [{ name: "fallback-usd", base_currency: "USD" }] },
      { ...common, merchant_id: "m-plat-down", validation_url: "http://127.0.0.1:9/api/validation", frontends: [{ name: "down-usd", base_currency: "USD" }] },
    ],
  };
}
