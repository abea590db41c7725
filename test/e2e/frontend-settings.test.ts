/**
 * The hosted Cashier's frontend settings (CONTRACT 9) through the running
 * service: the merchants file's values and defaults read back through
 * AdminService over gRPC and sit in the database; operators create and change
 * them with CreateFrontend / UpdateFrontend (a mask changes only what it
 * names); every bad value is INVALID_ARGUMENT naming the request's field.
 */
import t from "tap";
import { Code } from "@connectrpc/connect";
import { MERCHANTS } from "../support/merchants.ts";
import { useService } from "../support/service.ts";
import { refusal } from "../support/refusal.ts";

const FILE = {
  merchants: [
    ...MERCHANTS.merchants,
    {
      merchant_id: "m-pages",
      secret: "pages-secret-0123456789",
      frontends: [
        {
          name: "pages-usd",
          base_currency: "USD",
          currencies: ["USD", "JPY"],
          allowed_origins: ["https://shop.example", "http://localhost:3000"],
          deposit_presets: [1000, 2500],
          limits: { USD: { deposit_min: 500, deposit_max: 100_000 }, JPY: { withdrawal_max: 90_000 } },
          default_locale: "de",
          player_cancel_withdrawal: true,
        },
      ],
    },
  ],
};

const svc = useService(t, {}, { merchants: FILE });

t.test("the merchants file's settings and the defaults read back through GetMerchant", async (t) => {
  const { merchant } = await svc().admin.getMerchant({ merchantId: "m-pages" });
  const f = merchant!.frontends[0];
  t.same(f.allowedOrigins, ["https://shop.example", "http://localhost:3000"]);
  t.same(f.depositPresets, [1000n, 2500n]);
  t.same(
    f.limits.map((l) => [l.currency, l.depositMin, l.depositMax, l.withdrawalMin, l.withdrawalMax]),
    [
      ["JPY", undefined, undefined, undefined, 90_000n],
      ["USD", 500n, 100_000n, undefined, undefined],
    ],
    "limits listed by currency",
  );
  t.equal(f.defaultLocale, "de");
  t.equal(f.saveCards, true, "save_cards defaults to true");
  t.equal(f.closedLoopWithdrawals, true, "closed_loop_withdrawals defaults to true");
  t.equal(f.playerCancelWithdrawal, true);

  const plain = (await svc().admin.getMerchant({ merchantId: "m-test" })).merchant!.frontends[0];
  t.same(
    [plain.allowedOrigins, plain.depositPresets, plain.limits, plain.defaultLocale, plain.saveCards, plain.closedLoopWithdrawals, plain.playerCancelWithdrawal],
    [[], [], [], "en", true, true, false],
    "a frontend without settings has CONTRACT 9's defaults",
  );
  const rows = await svc().sql(
    "select allowed_origins, deposit_presets, limits, default_locale, save_cards, closed_loop_withdrawals, player_cancel_withdrawal from frontend where name = $1",
    ["pages-usd"],
  );
  t.same(rows, [
    {
      allowed_origins: ["https://shop.example", "http://localhost:3000"],
      deposit_presets: [1000, 2500],
      limits: { USD: { depositMin: 500, depositMax: 100_000 }, JPY: { withdrawalMax: 90_000 } },
      default_locale: "de",
      save_cards: true,
      closed_loop_withdrawals: true,
      player_cancel_withdrawal: true,
    },
  ]);
});

t.test("CreateFrontend stores the settings; UpdateFrontend changes what its mask names, or what the request sets", async (t) => {
  const created = await svc().admin.createFrontend({
    merchantId: "m-pages",
    frontend: { name: "pages-eur", baseCurrency: "EUR", allowedOrigins: ["https://casino.example"], saveCards: false, defaultLocale: "ar" },
  });
  const eur = created.merchant!.frontends.find((f) => f.name === "pages-eur")!;
  t.same([eur.allowedOrigins, eur.saveCards, eur.defaultLocale, eur.closedLoopWithdrawals], [["https://casino.example"], false, "ar", true]);

  const noMask = await svc().admin.updateFrontend({
    merchantId: "m-pages",
    frontend: { name: "pages-eur", baseCurrency: "EUR", depositPresets: [2000n], limits: [{ currency: "EUR", depositMin: 1000n }] },
  });
  const a = noMask.merchant!.frontends.find((f) => f.name === "pages-eur")!;
  t.same(a.depositPresets, [2000n], "set in the request: changed");
  t.same(
    a.limits.map((l) => [l.currency, l.depositMin]),
    [["EUR", 1000n]],
  );
  t.same([a.allowedOrigins, a.saveCards, a.defaultLocale], [["https://casino.example"], false, "ar"], "not set: kept");

  const masked = await svc().admin.updateFrontend({
    merchantId: "m-pages",
    frontend: { name: "pages-eur", allowedOrigins: ["https://other.example"], saveCards: true, playerCancelWithdrawal: true },
    updateMask: { paths: ["allowed_origins", "save_cards", "default_locale"] },
  });
  const b = masked.merchant!.frontends.find((f) => f.name === "pages-eur")!;
  t.same(b.allowedOrigins, ["https://other.example"]);
  t.equal(b.saveCards, true);
  t.equal(b.defaultLocale, "en", "named by the mask and unset: back to the default");
  t.equal(b.playerCancelWithdrawal, false, "not in the mask: unchanged");
  t.equal(b.baseCurrency, "EUR", "not in the mask: unchanged");
  t.same(b.depositPresets, [2000n]);
});

t.test("bad settings are INVALID_ARGUMENT naming the field", async (t) => {
  const admin = svc().admin;
  const rows: [() => Promise<unknown>, string][] = [
    [
      () =>
        admin.createFrontend({
          merchantId: "m-pages",
          frontend: { name: "x", baseCurrency: "USD", allowedOrigins: ["https://ok.example", "https://ok.example/path"] },
        }),
      "frontend.allowed_origins[1]",
    ],
    [
      () => admin.createFrontend({ merchantId: "m-pages", frontend: { name: "x", baseCurrency: "USD", allowedOrigins: ["http://shop.example"] } }),
      "frontend.allowed_origins[0]",
    ],
    [
      () =>
        admin.updateFrontend({
          merchantId: "m-pages",
          frontend: { name: "pages-usd", allowedOrigins: ["https://shop.example", "https://*.example.com"] },
          updateMask: { paths: ["allowed_origins"] },
        }),
      "frontend.allowed_origins[1]",
    ],
    [
      () => admin.createFrontend({ merchantId: "m-pages", frontend: { name: "x", baseCurrency: "USD", depositPresets: [100n, -5n] } }),
      "frontend.deposit_presets[1]",
    ],
    [
      () => admin.createFrontend({ merchantId: "m-pages", frontend: { name: "x", baseCurrency: "USD", depositPresets: [2n ** 62n] } }),
      "frontend.deposit_presets[0]",
    ],
    [
      () => admin.createFrontend({ merchantId: "m-pages", frontend: { name: "x", baseCurrency: "USD", limits: [{ currency: "EUR", depositMin: 1n }] } }),
      "frontend.limits.EUR",
    ],
    [
      () =>
        admin.createFrontend({
          merchantId: "m-pages",
          frontend: { name: "x", baseCurrency: "USD", limits: [{ currency: "USD", depositMin: 9n, depositMax: 1n }] },
        }),
      "frontend.limits.USD.deposit_min",
    ],
    [
      () => admin.createFrontend({ merchantId: "m-pages", frontend: { name: "x", baseCurrency: "USD", limits: [{ currency: "USD" }, { currency: "USD" }] } }),
      "frontend.limits[1].currency",
    ],
    [
      () => admin.createFrontend({ merchantId: "m-pages", frontend: { name: "x", baseCurrency: "USD", defaultLocale: "no such tag" } }),
      "frontend.default_locale",
    ],
    [() => admin.updateFrontend({ merchantId: "m-pages", frontend: { name: "pages-usd" }, updateMask: { paths: ["colour"] } }), "update_mask"],
    [
      () =>
        admin.createMerchant({
          merchant: {
            merchantId: "m-bad",
            frontends: [
              { name: "a", baseCurrency: "USD" },
              { name: "b", baseCurrency: "USD", allowedOrigins: ["*"] },
            ],
          },
          secret: "bad-secret-0123456789",
        }),
      "merchant.frontends[1].allowed_origins[0]",
    ],
  ];
  for (const [call, field] of rows) {
    const r = await refusal(call());
    t.equal(r.code, Code.InvalidArgument, field);
    t.same(r.fields, [field], `names ${field}: ${r.message}`);
  }
  t.equal(
    (await svc().admin.getMerchant({ merchantId: "m-pages" })).merchant!.frontends.some((f) => f.name === "x"),
    false,
    "nothing was stored",
  );
});
