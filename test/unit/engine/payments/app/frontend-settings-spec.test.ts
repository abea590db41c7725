/**
 * The hosted Cashier's settings of a frontend in the merchants file (CONTRACT
 * 9): what an entry without them means (the contract's defaults), what a full
 * entry reads back as, and every bad value refused by its exact path.
 */
import t from "tap";
import { MerchantsFileError, parseMerchantsFile } from "../../../../../engine/payments/app/merchant-spec.ts";
import { DEFAULT_FRONTEND_SETTINGS } from "../../../../../engine/payments/domain/frontend-settings.ts";

const file = (frontend: Record<string, unknown>) =>
  JSON.stringify({
    merchants: [
      {
        merchant_id: "m-1",
        secret: "secret-0123456789abcdef",
        frontends: [
          { name: "plain", base_currency: "USD" },
          { name: "f", base_currency: "USD", currencies: ["USD", "BHD"], ...frontend },
        ],
      },
    ],
  });

/** The field a refusal names with its problem, or "accepted". */
function refusal(frontend: Record<string, unknown>): string {
  try {
    parseMerchantsFile(file(frontend));
    return "accepted";
  } catch (err) {
    if (!(err instanceof MerchantsFileError)) throw err;
    return err.message;
  }
}

t.test("without settings a frontend has CONTRACT 9's defaults", async (t) => {
  const [spec] = parseMerchantsFile(file({}));
  t.same(spec.frontends[0].settings, {
    allowedOrigins: [],
    depositPresets: [],
    limits: {},
    defaultLocale: "en",
    saveCards: true,
    closedLoopWithdrawals: true,
    playerCancelWithdrawal: false,
  });
  t.same(spec.frontends[0].settings, DEFAULT_FRONTEND_SETTINGS);
});

t.test("a full entry reads back as given, the locale in its canonical form", async (t) => {
  const [spec] = parseMerchantsFile(
    file({
      allowed_origins: ["https://shop.example", "https://shop.example:8443", "http://localhost:3000", "http://127.0.0.1:9000"],
      deposit_presets: [1000, 2500, 5000],
      limits: { USD: { deposit_min: 500, deposit_max: 100_000, withdrawal_min: 1000 }, BHD: { withdrawal_max: 50 } },
      default_locale: "de-at",
      save_cards: false,
      closed_loop_withdrawals: false,
      player_cancel_withdrawal: true,
    }),
  );
  t.same(spec.frontends[1].settings, {
    allowedOrigins: ["https://shop.example", "https://shop.example:8443", "http://localhost:3000", "http://127.0.0.1:9000"],
    depositPresets: [1000, 2500, 5000],
    limits: { USD: { depositMin: 500, depositMax: 100_000, withdrawalMin: 1000 }, BHD: { withdrawalMax: 50 } },
    defaultLocale: "de-AT",
    saveCards: false,
    closedLoopWithdrawals: false,
    playerCancelWithdrawal: true,
  });
});

t.test("every bad value is refused naming its path", async (t) => {
  const at = "merchants[0].frontends[1]";
  const rows: [Record<string, unknown>, string][] = [
    [{ allowed_origins: "https://shop.example" }, `${at}.allowed_origins must be a list`],
    [{ allowed_origins: ["https://shop.example", "https://shop.example/"] }, `${at}.allowed_origins[1] must be an origin`],
    [{ allowed_origins: ["https://shop.example/pay"] }, `${at}.allowed_origins[0] must be an origin`],
    [{ allowed_origins: ["*"] }, `${at}.allowed_origins[0] is a wildcard (*)`],
    [{ allowed_origins: ["https://shop.example", "https://*.example.com"] }, `${at}.allowed_origins[1] is a wildcard (https://*.example.com)`],
    [{ allowed_origins: ["https://pay.*.example.com:8443"] }, `${at}.allowed_origins[0] is a wildcard`],
    [{ allowed_origins: ["https://sh_op.example"] }, `${at}.allowed_origins[0] must be an origin`],
    [{ allowed_origins: ["null"] }, `${at}.allowed_origins[0] must be an origin`],
    [{ allowed_origins: ["https://Shop.example"] }, `${at}.allowed_origins[0] must be an origin`],
    [{ allowed_origins: ["https://user@shop.example"] }, `${at}.allowed_origins[0] must be an origin`],
    [{ allowed_origins: ["ftp://shop.example"] }, `${at}.allowed_origins[0] must be an origin`],
    [{ allowed_origins: [42] }, `${at}.allowed_origins[0] must be an origin`],
    [{ allowed_origins: ["http://shop.example"] }, `${at}.allowed_origins[0] must use https`],
    [{ allowed_origins: ["https://a.example", "https://a.example"] }, `${at}.allowed_origins[1] repeats https://a.example`],
    [{ allowed_origins: Array.from({ length: 21 }, (_, i) => `https://s${i}.example`) }, `${at}.allowed_origins must have at most 20 entries`],
    [{ deposit_presets: [1000, 0] }, `${at}.deposit_presets[1] must be a positive integer`],
    [{ deposit_presets: [10.5] }, `${at}.deposit_presets[0] must be a positive integer`],
    [{ deposit_presets: ["1000"] }, `${at}.deposit_presets[0] must be a positive integer`],
    [{ deposit_presets: [1000, 1000] }, `${at}.deposit_presets[1] repeats 1000`],
    [{ limits: [] }, `${at}.limits must be an object keyed by currency`],
    [{ limits: { EUR: { deposit_min: 1 } } }, `${at}.limits.EUR must be one of the frontend's currencies (USD, BHD)`],
    [{ limits: { __proto__: { deposit_min: 1 } } }, "accepted"],
    [{ limits: JSON.parse('{"__proto__":{"deposit_min":1}}') }, `${at}.limits.__proto__ must be one of the frontend's currencies`],
    [{ limits: { USD: 5 } }, `${at}.limits.USD must be an object`],
    [{ limits: { USD: { deposit_minimum: 5 } } }, `${at}.limits.USD.deposit_minimum is not a limit`],
    [{ limits: { USD: { deposit_min: -5 } } }, `${at}.limits.USD.deposit_min must be a positive integer`],
    [{ limits: { USD: { withdrawal_max: 2 ** 53 } } }, `${at}.limits.USD.withdrawal_max must be a positive integer`],
    [{ limits: { USD: { deposit_min: 500, deposit_max: 100 } } }, `${at}.limits.USD.deposit_min must not exceed deposit_max (100)`],
    [{ limits: { USD: { withdrawal_min: 500, withdrawal_max: 100 } } }, `${at}.limits.USD.withdrawal_min must not exceed withdrawal_max (100)`],
    [{ default_locale: "not a tag" }, `${at}.default_locale must be a BCP 47 language tag`],
    [{ default_locale: "" }, `${at}.default_locale must be a BCP 47 language tag`],
    [{ default_locale: 7 }, `${at}.default_locale must be a BCP 47 language tag`],
    [{ save_cards: "yes" }, `${at}.save_cards must be true or false`],
    [{ closed_loop_withdrawals: 0 }, `${at}.closed_loop_withdrawals must be true or false`],
    [{ player_cancel_withdrawal: "true" }, `${at}.player_cancel_withdrawal must be true or false`],
  ];
  for (const [frontend, expected] of rows) t.match(refusal(frontend), expected, JSON.stringify(frontend));
});
