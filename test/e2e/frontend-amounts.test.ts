/**
 * ConsoleSettingsService.SetFrontendAmounts against the running service: an
 * admin sets a frontend's base currency, currencies, preset deposit amounts
 * and limits from minor units, kept exactly in the wire unit (USD 10.00 as
 * 1000, JPY 1000 as 1000, BHD 5.000 as 5); an amount the wire unit cannot
 * carry, and every other fault, is INVALID_ARGUMENT naming this request's
 * field; another role is refused; each change and refusal is audited as
 * frontend.update with the merchant before and after.
 */
import t from "tap";
import { Code } from "@connectrpc/connect";
import { movableClock } from "../support/clock.ts";
import { MERCHANTS } from "../support/merchants.ts";
import { backofficeClient, ctx, enrolOperator } from "../support/operators.ts";
import { useService } from "../support/service.ts";
import { refusal } from "../support/refusal.ts";

const FILE = {
  merchants: [
    ...MERCHANTS.merchants,
    {
      merchant_id: "m-amounts",
      secret: "amounts-secret-0123456789",
      frontends: [{ name: "amounts-usd", base_currency: "USD", currencies: ["USD", "JPY"], deposit_presets: [1000], limits: { USD: { deposit_min: 500 } } }],
    },
  ],
};

const clock = movableClock();
const svc = useService(t, {}, () => ({ now: clock.now, merchants: FILE }));
const bo = () => backofficeClient(svc().engineUrl);

/** SetFrontendAmounts' request, as these tests write it. */
interface Req {
  context: ReturnType<typeof ctx>;
  merchantId: string;
  frontend: string;
  baseCurrency: string;
  currencies: string[];
  depositPresetsMinor: bigint[];
  limits: { currency: string; depositMinMinor?: bigint; depositMaxMinor?: bigint; withdrawalMinMinor?: bigint; withdrawalMaxMinor?: bigint }[];
}

let session = "";
t.before(async () => {
  session = (await enrolOperator(svc(), bo(), clock, "amounts-admin", "admin")).sessionToken;
});

const base = (over: Partial<Req> = {}): Req => ({
  context: ctx(session),
  merchantId: "m-amounts",
  frontend: "amounts-usd",
  baseCurrency: "USD",
  currencies: ["USD", "JPY", "BHD"],
  depositPresetsMinor: [1000n, 2500n, 5000n],
  limits: [
    { currency: "USD", depositMinMinor: 500n, depositMaxMinor: 100_000n },
    { currency: "JPY", withdrawalMaxMinor: 90_000n },
    { currency: "BHD", depositMinMinor: 5000n },
  ],
  ...over,
});

t.test("an admin sets the amounts; each is kept exactly in the wire unit", async (t) => {
  const r = await bo().setFrontendAmounts(base());
  const f = r.merchant?.frontends.find((x) => x.name === "amounts-usd");
  t.same(f?.currencies, ["USD", "JPY", "BHD"]);
  t.same(f?.depositPresets, [1000n, 2500n, 5000n], "USD 10.00, 25.00, 50.00 in cents");
  t.same(
    f?.limits.map((l) => [l.currency, l.depositMin, l.depositMax, l.withdrawalMin, l.withdrawalMax]),
    [
      ["BHD", 5n, undefined, undefined, undefined],
      ["JPY", undefined, undefined, undefined, 90_000n],
      ["USD", 500n, 100_000n, undefined, undefined],
    ],
    "BHD 5.000 as 5 whole dinars, JPY 90000 as 90000",
  );
  const row = await svc().sql<{ deposit_presets: number[]; limits: Record<string, Record<string, number>> }>(
    "select deposit_presets, limits from frontend where name = 'amounts-usd'",
  );
  t.same(row[0].deposit_presets, [1000, 2500, 5000]);
  t.same(row[0].limits.BHD, { depositMin: 5 }, "in the database too");
});

t.test("each fault is named by the request's field", async (t) => {
  const cases: [string, Partial<Req>, string, RegExp][] = [
    [
      "BHD 5.500 cannot be carried in whole dinars",
      { limits: [{ currency: "BHD", depositMinMinor: 5500n }] },
      "limits[0].deposit_min_minor",
      /multiple of 1000 minor units/,
    ],
    ["a preset that is not positive", { depositPresetsMinor: [1000n, -5n] }, "deposit_presets_minor[1]", /positive/],
    ["a preset twice", { depositPresetsMinor: [1000n, 1000n] }, "deposit_presets_minor[1]", /repeats 1000/],
    ["nine presets", { depositPresetsMinor: [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n].map((x) => x * 100n) }, "deposit_presets_minor", /at most 8/],
    [
      "a minimum above its maximum",
      { limits: [{ currency: "USD", depositMinMinor: 5000n, depositMaxMinor: 1000n }] },
      "limits[0].deposit_min_minor",
      /must not exceed deposit_max/,
    ],
    [
      "limits of a currency the frontend does not take",
      {
        limits: [
          { currency: "USD", depositMinMinor: 100n },
          { currency: "EUR", depositMinMinor: 100n },
        ],
      },
      "limits[1].currency",
      /must be one of the frontend's currencies/,
    ],
    ["a base currency it does not take", { baseCurrency: "EUR" }, "currencies", /must include the base_currency EUR/],
    ["no ISO 4217 code", { baseCurrency: "XYZ" }, "base_currency", /ISO 4217/],
    ["a currency that is no code", { currencies: ["USD", "dollars"] }, "currencies", /ISO 4217/],
  ];
  for (const [what, over, field, description] of cases) {
    const r = await refusal(bo().setFrontendAmounts(base(over)));
    t.equal(r.code, Code.InvalidArgument, what);
    t.equal(r.violations[0]?.field, field, what);
    t.match(r.violations[0]?.description, description, what);
  }
  const stored = await svc().sql<{ deposit_presets: number[] }>("select deposit_presets from frontend where name = 'amounts-usd'");
  t.same(stored[0].deposit_presets, [1000, 2500, 5000], "nothing changed");
});

t.test("a frontend the merchant lacks is not found; another role is refused", async (t) => {
  t.equal((await refusal(bo().setFrontendAmounts(base({ frontend: "nope" })))).code, Code.NotFound);
  const support = await enrolOperator(svc(), bo(), clock, "amounts-support", "support");
  const denied = await refusal(bo().setFrontendAmounts(base({ context: ctx(support.sessionToken) })));
  t.equal(denied.code, Code.PermissionDenied);
  const viewer = await enrolOperator(svc(), bo(), clock, "amounts-viewer", "viewer");
  t.equal((await refusal(bo().setFrontendAmounts(base({ context: ctx(viewer.sessionToken) })))).code, Code.PermissionDenied);
});

t.test("changes and refusals are audited as frontend.update, the merchant before and after", async (t) => {
  const rows = await svc().sql<{ actor: string; outcome: string; before_json: string; after_json: string; detail: string }>(
    "select actor, outcome, before_json, after_json, detail from audit_log where action = 'frontend.update' and merchant_id = 'm-amounts' order by id",
  );
  const mine = rows.filter((r) => r.actor === "amounts-admin");
  t.equal(mine[0].outcome, "success");
  t.match(mine[0].before_json, /"depositPresets":\["1000"\]/);
  t.match(mine[0].after_json, /"depositPresets":\["1000","2500","5000"\]/);
  const failures = mine.filter((r) => r.outcome === "failure");
  t.ok(failures.length >= 9, "every refusal of its fields");
  t.ok(
    failures.some((r) => r.detail.includes("limits[0].deposit_min_minor")),
    "with the field it names",
  );
  const denied = await svc().sql<{ detail: string }>(
    "select detail from audit_log where actor = 'amounts-support' and action = 'merchant.update' and outcome = 'failure'",
  );
  t.same(
    denied.map((r) => r.detail),
    ["role support does not allow merchant.update"],
    "a role refused is audited as the action it lacks",
  );
});
