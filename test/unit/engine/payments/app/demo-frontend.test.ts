/**
 * The demo merchant's frontend (npm start without a merchants file): framed
 * by pages of the service's own host, with presets and limits, and settings
 * that the merchants file's own rules accept.
 */
import t from "tap";
import { demoFrontendSettings } from "../../../../../engine/payments/app/bootstrap-merchants.ts";
import { parseFrontend } from "../../../../../engine/payments/app/merchant-spec.ts";

t.test("allowed origins follow the edge's port and CASHIER_PUBLIC_URL", async (t) => {
  t.same(demoFrontendSettings(8080, undefined).allowedOrigins, ["http://localhost:8080", "http://127.0.0.1:8080"]);
  t.same(demoFrontendSettings(8080, "http://127.0.0.1:8080").allowedOrigins, ["http://localhost:8080", "http://127.0.0.1:8080"], "no repeat");
  t.same(demoFrontendSettings(8080, "https://pay.example/cashier").allowedOrigins, ["http://localhost:8080", "http://127.0.0.1:8080", "https://pay.example"]);
  t.same(demoFrontendSettings(0, undefined).allowedOrigins, [], "an edge on any free port has no origin to name yet");
});

t.test("presets and limits, as the merchants file would accept them", async (t) => {
  const s = demoFrontendSettings(8080, undefined);
  t.same(s.depositPresets, [1000, 2500, 5000, 10_000]);
  t.same(s.limits.USD, { depositMin: 500, depositMax: 500_000, withdrawalMin: 1000, withdrawalMax: 500_000 });
  const limit = (l: (typeof s.limits)[string]) => ({
    deposit_min: l.depositMin,
    deposit_max: l.depositMax,
    withdrawal_min: l.withdrawalMin,
    withdrawal_max: l.withdrawalMax,
  });
  const entry = {
    name: "demo-usd",
    base_currency: "USD",
    currencies: ["USD", "EUR", "JPY"],
    allowed_origins: s.allowedOrigins,
    deposit_presets: s.depositPresets,
    limits: Object.fromEntries(Object.entries(s.limits).map(([c, l]) => [c, limit(l)])),
    default_locale: s.defaultLocale,
    save_cards: s.saveCards,
    closed_loop_withdrawals: s.closedLoopWithdrawals,
    player_cancel_withdrawal: s.playerCancelWithdrawal,
  };
  t.same(parseFrontend(entry, "demo").settings, s);
});
