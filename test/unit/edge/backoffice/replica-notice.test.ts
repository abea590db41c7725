/**
 * The replica notice: a page read from a replica more than 5 s behind says by how much (whole seconds, rounded
 * up) on the search and the dashboard; at 5 s or less, or read from the primary, it says nothing. In each language
 * of the console.
 */
import t from "tap";
import { create } from "@bufbuild/protobuf";
import { GetDashboardResponseSchema, ReadSourceSchema } from "../../../../gen/cashier/admin/v1/console_work_service_pb.js";
import { consoleTranslator } from "../../../../edge/backoffice/i18n.ts";
import { dashboardPage } from "../../../../edge/backoffice/views/dashboard.ts";
import { REPLICA_NOTICE_MS, replicaNotice, secondsBehind } from "../../../../edge/backoffice/views/replica-notice.ts";
import { type Search, searchPage } from "../../../../edge/backoffice/views/transactions.ts";

const tr = consoleTranslator("en");
const source = (replica: boolean, lagMs: number) => create(ReadSourceSchema, { replica, lagMs: BigInt(lagMs) });

t.test("the rule: a replica more than 5 s behind, in whole seconds rounded up", async (t) => {
  t.equal(REPLICA_NOTICE_MS, 5000);
  t.equal(secondsBehind(undefined), undefined, "an engine that says nothing: nothing");
  t.equal(secondsBehind(source(false, 0)), undefined, "the primary");
  t.equal(secondsBehind(source(false, 60_000)), undefined, "the primary, whatever the number");
  t.equal(secondsBehind(source(true, 0)), undefined, "caught up");
  t.equal(secondsBehind(source(true, 5000)), undefined, "5 s is not more than 5 s");
  t.equal(secondsBehind(source(true, 5001)), 6);
  t.equal(secondsBehind(source(true, 11_200)), 12);
  t.equal(secondsBehind({ replica: true, lagMs: 3_600_000 }), 3600);
});

t.test("the notice's words, in each language", async (t) => {
  t.equal(
    replicaNotice(tr, source(true, 11_200)).value,
    '<div class="notice info" role="status" id="replica-lag">Figures here may be up to 12 s behind: they were read from a replica of the database, which is catching up.</div>',
  );
  t.equal(replicaNotice(tr, source(true, 4000)).value, "");
  t.match(replicaNotice(consoleTranslator("de"), source(true, 9000)).value, /bis zu 9 s zurückliegen/);
  t.match(replicaNotice(consoleTranslator("ar"), source(true, 9000)).value, /حتى 9 ثانية/);
});

const EMPTY_SEARCH = Object.fromEntries(
  [
    "trace_id",
    "merchant_id",
    "order_id",
    "pin",
    "status",
    "type",
    "from",
    "to",
    "email",
    "card_last_four",
    "processor",
    "frontend",
    "processor_transaction_id",
  ].map((k) => [k, ""]),
) as unknown as Search;

t.test("the search page and the dashboard show it under their title, and only then", async (t) => {
  const page = (lag: number) =>
    searchPage(tr, { search: EMPTY_SEARCH, transactions: [], nextPageToken: "", paged: false, readSource: source(true, lag) }).value;
  t.match(page(20_000), /<h1>Transactions<\/h1>\s*<div class="notice info" role="status" id="replica-lag">Figures here may be up to 20 s behind/);
  t.notMatch(page(1000), /replica-lag/);
  t.notMatch(searchPage(tr, { search: EMPTY_SEARCH, transactions: [], nextPageToken: "", paged: false }).value, /replica-lag/);

  const dash = (lag: number) => dashboardPage(tr, create(GetDashboardResponseSchema, { readSource: source(true, lag) })).value;
  t.match(dash(7000), /<h1>Dashboard<\/h1>\s*<div class="notice info" role="status" id="replica-lag">Figures here may be up to 7 s behind/);
  t.notMatch(dash(0), /replica-lag/);
  t.notMatch(dashboardPage(tr, create(GetDashboardResponseSchema, {})).value, /replica-lag/);
});
