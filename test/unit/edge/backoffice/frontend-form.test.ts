/**
 * The frontend amounts form, decoded: amounts typed as money of their currency read to minor units exactly (never a
 * float), blank bounds left out, an amount with too many decimals named beside its input before anything is sent,
 * and the engine's fields turned back into the inputs they name.
 */
import t from "tap";
import { amountsOf, inputOfField, typedValues } from "../../../../edge/backoffice/routes/frontend-form.ts";

const bad = (currency: string) => `bad ${currency}`;

t.test("money of each currency to minor units, exactly", async (t) => {
  const form = new URLSearchParams({
    base_currency: "usd",
    currencies: "USD, jpy,BHD",
    deposit_presets: "10, 25.5, 0.07",
    "limit:USD:deposit_min": "5.00",
    "limit:USD:deposit_max": "90071992547409.93",
    "limit:JPY:withdrawal_max": "90000",
    "limit:BHD:deposit_min": "5,500",
  });
  const read = amountsOf(typedValues(form, ["USD", "JPY", "BHD"]), bad);
  if (!("amounts" in read)) throw new Error(JSON.stringify(read));
  t.same(read.amounts.baseCurrency, "USD");
  t.same(read.amounts.currencies, ["USD", "JPY", "BHD"]);
  t.same(read.amounts.depositPresetsMinor, [1000n, 2550n, 7n]);
  t.same(
    read.amounts.limits.map((l) => [l.currency, l.depositMinMinor, l.depositMaxMinor, l.withdrawalMaxMinor]),
    [
      ["USD", 500n, 9_007_199_254_740_993n, undefined],
      ["JPY", undefined, undefined, 90_000n],
      ["BHD", 5500n, undefined, undefined],
    ],
    "past 2^53 without a float; BHD 5.500 read (the engine says whether the wire unit carries it)",
  );
});

t.test("an amount with more decimals than its currency, or none at all, is named by its input", async (t) => {
  const form = new URLSearchParams({
    base_currency: "JPY",
    currencies: "JPY, USD",
    deposit_presets: "1000.5",
    "limit:USD:deposit_min": "5.005",
    "limit:USD:deposit_max": "ten",
  });
  const read = amountsOf(typedValues(form, ["JPY", "USD"]), bad);
  t.same("errors" in read ? read.errors : [], [
    { field: "fe-presets", message: "bad JPY" },
    { field: "limit-USD-deposit_min", message: "bad USD" },
    { field: "limit-USD-deposit_max", message: "bad USD" },
  ]);
});

t.test("the engine's fields as the form's inputs", async (t) => {
  const sent = { baseCurrency: "USD", currencies: ["USD", "BHD"], depositPresetsMinor: [], limits: [{ currency: "USD" }, { currency: "BHD" }] };
  for (const [field, input] of [
    ["base_currency", "fe-base"],
    ["currencies", "fe-currencies"],
    ["deposit_presets_minor[2]", "fe-presets"],
    ["deposit_presets_minor", "fe-presets"],
    ["limits[1].deposit_min_minor", "limit-BHD-deposit_min"],
    ["limits[0].withdrawal_max_minor", "limit-USD-withdrawal_max"],
    ["limits[1].currency", "limit-BHD-deposit_min"],
  ] as const)
    t.equal(inputOfField(field, sent), input, field);
  t.equal(inputOfField("frontend", sent), undefined, "a field of no input: the notice alone says it");
});
