/**
 * The merchants file (and the admin RPCs, through the same parser) with the
 * names of Object.prototype's members: as member names they are ignored like
 * any unknown member, as values they are refused by the rule of the field.
 */
import t from "tap";
import { MerchantsFileError, parseMerchantEntry, parseMerchantsFile } from "../../../../../engine/payments/app/merchant-spec.ts";

/** The field a refusal names, or "accepted". */
function refusedField(fn: () => unknown): string {
  try {
    fn();
    return "accepted";
  } catch (err) {
    return err instanceof MerchantsFileError ? err.field : String(err);
  }
}

const entry = (extra = "") => `{"merchant_id":"m-1","secret":"secret-0123456789abcdef","frontends":[{"name":"f","base_currency":"USD"}]${extra}}`;

t.test("a __proto__ or constructor member sets nothing (JSON.parse makes it an own member, not a prototype)", async (t) => {
  const [spec] = parseMerchantsFile(
    `{"merchants":[${entry(',"__proto__":{"payout_approval":"manual","processors":["evil"]},"constructor":{"prototype":{"site_id":-1}}')}]}`,
  );
  t.equal(spec.payoutApproval, "auto");
  t.same(spec.processors, ["sim-a", "sim-b"]);
  t.equal(spec.siteId, null);
});

t.test("update_payout_statuses: letters of CAPYJ, all five by default, or none at all", async (t) => {
  const base = JSON.parse(entry()) as Record<string, unknown>;
  t.equal(parseMerchantEntry(base, "m").updatePayoutStatuses, "CAPYJ");
  t.equal(parseMerchantEntry({ ...base, update_payout_statuses: "YJ" }, "m").updatePayoutStatuses, "YJ");
  t.equal(parseMerchantEntry({ ...base, update_payout_statuses: "" }, "m").updatePayoutStatuses, "", "an empty string: no UpdatePayout");
  t.equal(parseMerchantEntry({ ...base, update_payout_statuses: "none" }, "m").updatePayoutStatuses, "", "the word none: the same");
  t.throws(
    () => parseMerchantEntry({ ...base, update_payout_statuses: "XY" }, "m"),
    new MerchantsFileError("m.update_payout_statuses", 'must be letters of CAPYJ, or "none" (or "") for no UpdatePayout'),
  );
  t.equal(parseMerchantEntry({ ...base, update_payout_statuses: "CCAYA" }, "m").updatePayoutStatuses, "CAY", "a letter twice: taken once");
});

t.test("processors: each once, in cascade order", async (t) => {
  const base = JSON.parse(entry()) as Record<string, unknown>;
  t.same(parseMerchantEntry({ ...base, processors: ["sim-b", "sim-a"] }, "m").processors, ["sim-b", "sim-a"]);
  t.same(
    parseMerchantEntry({ ...base, processors: ["sim-a", "sim-a", "sim-b", "sim-a"] }, "m").processors,
    ["sim-a", "sim-b"],
    "listed twice: tried once (a cascade never sends one card to the same acquirer twice), and the start goes on",
  );
});

t.test("a file whose merchants hide under __proto__ has no merchants list", async (t) => {
  t.throws(() => parseMerchantsFile(`{"__proto__":{"merchants":[${entry()}]}}`), new MerchantsFileError("", 'must be {"merchants": [...]}'));
});

t.test("prototype words as values are refused by each field's rule", async (t) => {
  const base = JSON.parse(entry()) as Record<string, unknown>;
  for (const word of ["__proto__", "constructor", "toString", "valueOf", "hasOwnProperty"]) {
    t.equal(
      refusedField(() => parseMerchantEntry({ ...base, payout_approval: word }, "m")),
      "m.payout_approval",
      `payout_approval ${word}`,
    );
    t.equal(
      refusedField(() => parseMerchantEntry({ ...base, processors: [word] }, "m")),
      "m.processors",
      `processors ${word}`,
    );
    t.equal(
      refusedField(() => parseMerchantEntry({ ...base, frontends: [{ name: "f", base_currency: word }] }, "m")),
      "m.frontends[0].base_currency",
      `base_currency ${word}`,
    );
    t.equal(
      refusedField(() => parseMerchantEntry({ ...base, update_payout_statuses: word }, "m")),
      "m.update_payout_statuses",
      `update_payout_statuses ${word}`,
    );
  }
});

t.test("processor_accounts of the older form: an account named after its connector, with an http(s) URL and a key; refusals name the field", async (t) => {
  const ok = parseMerchantEntry(
    JSON.parse(
      entry(
        ',"processor_accounts":[{"processor":"sim-a","url":"http://127.0.0.1:8090","api_key":"key-0123456789"},{"processor":"sim-b","url":"https://acq.example","api_key":"key-abcdefghij","enabled":false,"settings":{"mid":"42"}}]',
      ),
    ),
    "m",
  );
  t.same(ok.processorAccounts, [
    { name: "sim-a", connector: "sim-a", url: "http://127.0.0.1:8090", credentials: { api_key: "key-0123456789" }, enabled: true, settings: {} },
    {
      name: "sim-b",
      connector: "sim-b",
      url: "https://acq.example",
      credentials: { api_key: "key-abcdefghij" },
      enabled: false,
      settings: { mid: "42" },
    },
  ]);
  t.equal(parseMerchantEntry(JSON.parse(entry()), "m").processorAccounts, undefined, "absent: the merchant's accounts are left as they are");
  const acc = (a: string) => () => parseMerchantEntry(JSON.parse(entry(`,"processor_accounts":${a}`)), "m");
  const rows: [accounts: string, field: string][] = [
    ["{}", "m.processor_accounts"],
    ['[{"processor":"sim-z","url":"http://x","api_key":"key-0123456789"}]', "m.processor_accounts[0].processor"],
    ['[{"processor":"sim-a","api_key":"key-0123456789"}]', "m.processor_accounts[0].url"],
    ['[{"processor":"sim-a","url":"ftp://x","api_key":"key-0123456789"}]', "m.processor_accounts[0].url"],
    ['[{"processor":"sim-a","url":"http://x"}]', "m.processor_accounts[0].api_key"],
    ['[{"processor":"sim-a","url":"http://x","api_key":"short"}]', "m.processor_accounts[0].api_key"],
    ['[{"processor":"sim-a","url":"http://x","api_key":"key-0123456789","enabled":"yes"}]', "m.processor_accounts[0].enabled"],
    ['[{"processor":"sim-a","url":"http://x","api_key":"key-0123456789","settings":[]}]', "m.processor_accounts[0].settings"],
    [
      '[{"processor":"sim-a","url":"http://x","api_key":"key-0123456789"},{"processor":"sim-a","url":"http://y","api_key":"key-0123456789"}]',
      "m.processor_accounts[1].processor",
    ],
  ];
  for (const [accounts, field] of rows) t.equal(refusedField(acc(accounts)), field, `${accounts.slice(0, 60)} -> ${field}`);
});

t.test("a callback address is at most 2048 characters", async (t) => {
  const long = `http://platform.example/${"a".repeat(2048)}`;
  t.equal(
    refusedField(() => parseMerchantsFile(`{"merchants":[${entry(`,"platform_url":"${long}"`)}]}`)),
    "merchants[0].platform_url",
  );
  t.equal(
    refusedField(() => parseMerchantsFile(`{"merchants":[${entry(`,"validation_url":"${long.slice(0, 2048)}"`)}]}`)),
    "accepted",
    "2048 is fine",
  );
});

t.test("a callback address carries no user name or password: shown to every operator, and the callbacks are signed", async (t) => {
  for (const [key, url] of [
    ["platform_url", "http://u:p@platform.example"],
    ["validation_url", "https://cbuser:S3cretPass@platform.example/api/validation"],
    ["update_payout_url", "http://cbuser@127.0.0.1:9000/api/UpdatePayout"],
  ] as const) {
    t.equal(
      refusedField(() => parseMerchantsFile(`{"merchants":[${entry(`,"${key}":"${url}"`)}]}`)),
      `merchants[0].${key}`,
      `${key}: ${url}`,
    );
  }
  t.equal(
    refusedField(() => parseMerchantsFile(`{"merchants":[${entry(`,"platform_url":"http://platform.example/p@th"`)}]}`)),
    "accepted",
    "an @ in the path is no user",
  );
});

t.test("a merchant listed twice is refused, naming the second entry", async (t) => {
  const file = (...entries: string[]) => `{"merchants":[${entries.join(",")}]}`;
  t.equal(
    refusedField(() =>
      parseMerchantsFile(file(entry(), '{"merchant_id":"m-2","secret":"secret-0123456789abcdef","frontends":[{"name":"f","base_currency":"USD"}]}')),
    ),
    "accepted",
  );
  t.equal(
    refusedField(() => parseMerchantsFile(file(entry(), entry()))),
    "merchants[1].merchant_id",
    "the second entry of m-1",
  );
  t.throws(() => parseMerchantsFile(file(entry(), entry())), /repeats merchants\[0\]'s m-1: list each merchant once/);
  // The contract's file sets no length for a secret: a short one is taken (and warned about at start).
  t.equal(
    refusedField(() => parseMerchantsFile(file('{"merchant_id":"m-3","secret":"short","frontends":[{"name":"f","base_currency":"USD"}]}'))),
    "accepted",
  );
});

t.test("a frontend's currencies include its base currency", async (t) => {
  const entry = (frontend: Record<string, unknown>) => JSON.stringify({ merchants: [{ merchant_id: "m-1", secret: "s".repeat(32), frontends: [frontend] }] });
  t.throws(() => parseMerchantsFile(entry({ name: "f", base_currency: "USD", currencies: ["EUR", "JPY"] })), {
    field: "merchants[0].frontends[0].currencies",
    message: /must include the base_currency USD/,
  });
  t.same(parseMerchantsFile(entry({ name: "f", base_currency: "USD", currencies: ["EUR", "USD"] }))[0]?.frontends[0]?.currencies, ["EUR", "USD"]);
  t.same(parseMerchantsFile(entry({ name: "f", base_currency: "USD" }))[0]?.frontends[0]?.currencies, ["USD"], "left out: the base currency alone");
});
