/**
 * The work views' pure parts: the columns an operator keeps (the trace id
 * always, unknown names dropped, the default when none is known), page sizes,
 * the compact date, the chips' links, a saved search's query cleaned to the
 * search's own fields, and the dashboard's period.
 */
import t from "tap";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { consoleTranslator } from "../../../../edge/backoffice/i18n.ts";
import { periodOf } from "../../../../edge/backoffice/routes/dashboard-period.ts";
import { cleanQuery } from "../../../../edge/backoffice/routes/work-preferences.ts";
import { shortWhen } from "../../../../edge/backoffice/views/format.ts";
import { filterChips, filterForm } from "../../../../edge/backoffice/views/search-tools.ts";
import { columnsOf, DEFAULT_COLUMNS, pageSizeOf } from "../../../../edge/backoffice/views/transaction-columns.ts";
import type { Search } from "../../../../edge/backoffice/views/transactions.ts";

const tr = consoleTranslator("en");
const SEARCH: Search = {
  trace_id: "",
  merchant_id: "",
  order_id: "",
  pin: "",
  status: "",
  type: "",
  from: "",
  to: "",
  email: "",
  card_last_four: "",
  processor: "",
  frontend: "",
  processor_transaction_id: "",
};

t.test("columns and page size", async (t) => {
  t.same(
    columnsOf([]).map((c) => c.name),
    DEFAULT_COLUMNS,
  );
  t.same(
    columnsOf(["amount", "nonsense", "status"]).map((c) => c.name),
    ["trace_id", "status", "amount"],
    "in the catalogue's order, the trace id always, unknown dropped",
  );
  t.same(
    columnsOf(["nonsense"]).map((c) => c.name),
    DEFAULT_COLUMNS,
    "nothing known: the default",
  );
  t.same([0, 25, 100, 60, 5, 200].map(pageSizeOf), [50, 25, 100, 50, 25, 200]);
});

t.test("a compact date on one line, the full time in its title", async (t) => {
  const ts = timestampFromMs(Date.parse("2026-11-29T09:53:12Z"));
  t.match(
    shortWhen(tr, ts, new Date("2026-12-01T00:00:00Z")).value,
    /^<time datetime="2026-11-29T09:53:12\.000Z" title="[^"]*2026[^"]*9:53:12[^"]* UTC">11-29 09:53<\/time>$/,
  );
  t.match(shortWhen(tr, ts, new Date("2027-01-01T00:00:00Z")).value, />2026-11-29 09:53</, "another year: with it");
});

t.test("chips: one per active filter, each a link to the search without it", async (t) => {
  t.equal(filterChips(tr, SEARCH).value, "", "none active: no chips");
  const html = filterChips(tr, { ...SEARCH, pin: "c&1", status: "approved" }).value;
  t.match(html, /href="\/transactions\?status=approved"[^>]*aria-label="Remove the filter Customer \(PIN\): c&#38;1"/);
  t.match(html, /href="\/transactions\?pin=c%261"[^>]*aria-label="Remove the filter Status: approved"/);
  t.match(html, /id="clear-filters"/);
  t.notMatch(filterForm(tr, SEARCH).value, /id="more-filters"[^>]* open/, "the further filters folded");
  t.match(filterForm(tr, { ...SEARCH, email: "a@b" }).value, /id="more-filters" class="more-filters" open/, "open when one of them is set");
});

t.test("a saved search keeps the search's own fields only", async (t) => {
  t.equal(cleanQuery("pin=c%201&page_token=x&notice=saved&status=approved&evil=1"), "pin=c+1&status=approved");
  t.equal(cleanQuery(""), "");
});

t.test("the dashboard's period", async (t) => {
  const now = Date.parse("2026-11-29T10:30:00Z");
  const day = 86_400_000;
  t.same(periodOf({}, now).window, { start: now - day, end: now }, "the last 24 hours by default");
  t.same(periodOf({ hours: "2" }, now).window, { start: now - 2 * 3_600_000, end: now });
  t.same(periodOf({ period: "today" }, now).window, { start: Date.parse("2026-11-29T00:00:00Z"), end: now });
  t.same(periodOf({ period: "7d" }, now).window, { start: now - 7 * day, end: now });
  t.same(periodOf({ period: "30d" }, now).window, { start: now - 30 * day, end: now });
  t.same(periodOf({ period: "custom", from: "2026-11-01", to: "2026-11-02" }, now).window, {
    start: Date.parse("2026-11-01T00:00:00Z"),
    end: Date.parse("2026-11-03T00:00:00Z"),
  });
  t.same(periodOf({ period: "custom", from: "2026-02-30" }, now).bad, ["from"]);
  t.same(periodOf({ period: "custom" }, now).bad, ["from"], "a custom period needs its start");
  t.same(periodOf({ period: "custom", from: "2026-11-10", to: "2026-11-01" }, now).bad, ["to"]);
  t.same(periodOf({ period: "custom", from: "2026-09-01", to: "2026-11-01" }, now).bad, ["to"], "more than 31 days");
});
