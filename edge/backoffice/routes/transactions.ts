/**
 * /transactions: the search (a GET form: filters and page token in the URL),
 * its CSV export (every page of the same search, up to a bound), the detail
 * of one attempt, and the redelivery of one of its callbacks.
 */
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type Router from "@koa/router";
import type { Context } from "koa";
import type { Transaction } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import type { GetTransactionDetailResponse } from "../../../gen/cashier/admin/v1/console_work_service_pb.js";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { ListTransactionsRequestSchema } from "../../../gen/cashier/engine/v1/engine_service_pb.js";
import { majorString } from "../../pages/kit/i18n.ts";
import { currencyExponent } from "../../../engine/shared/money.ts";
import { detailPage, EXTRA_FILTERS, type Search, SEARCH_FIELDS, SUPPORTED_EXTRA_FILTERS, searchPage, searchQuery } from "../views/transactions.ts";
import { pageSizeOf } from "../views/transaction-columns.ts";
import { TYPE_NAMES } from "../views/format.ts";
import { STATUS_WORDS } from "../../wire/status-words.ts";
import { namedIn, seeOther } from "../request.ts";
import { consoleRefusal } from "../refusal.ts";
import type { Html } from "../../pages/kit/html.ts";
import type { Notice } from "../views/model.ts";
import { consoleGet, consolePost, type PageDeps, refuseFilters, refuseSearch, refusalPage, type SignedIn, signedIn } from "./pages.ts";
import { csvLine, sendCsv } from "./csv.ts";
import { callbackIdOf, traceIdOf } from "../../wire/ids.ts";
import { moneyOf } from "./money-section.ts";
import { dayRange } from "./date-filter.ts";
import { refusingBlockNotice } from "./refusing-block.ts";
import { secondsBehind } from "../views/replica-notice.ts";

/** An export reads at most this many pages of 500 (50,000 rows); the file says when it was cut. */
const EXPORT_PAGES = 100;

export function searchOf(ctx: Context): Search {
  const q = (k: string) => {
    const v = ctx.query[k];
    return (Array.isArray(v) ? v[0] : (v ?? "")).trim().slice(0, 128);
  };
  const all = ["trace_id", "merchant_id", "order_id", "pin", "status", "type", "from", "to", ...EXTRA_FILTERS] as const;
  return Object.fromEntries(all.map((k) => [k, SEARCH_FIELDS.includes(k) ? q(k) : ""])) as unknown as Search;
}

const byName = (names: Readonly<Record<number, string>>, name: string) => {
  const found = Object.entries(names).find(([, n]) => n === name);
  return found ? Number(found[0]) : 0;
};

/** A filter's name in the generated message (email -> email, card_last_four -> cardLastFour). */
const localName = (name: string) => ListTransactionsRequestSchema.fields.find((f) => f.name === name)!.localName;

/** The filters of a search that are there but not understood (a date in another shape, a status not listed). */
export function searchFaults(s: Search): string[] {
  const bad = dayRange(s.from, s.to).bad;
  if (s.status !== "" && byName(STATUS_WORDS, s.status) === 0) bad.push("status");
  if (s.type !== "" && byName(TYPE_NAMES, s.type) === 0) bad.push("type");
  return bad;
}

/** The engine's filter for a search; `to` includes its whole day. */
export function filterOf(s: Search, pageSize: number, pageToken = ""): MessageInitShape<typeof ListTransactionsRequestSchema> {
  return {
    merchantId: s.merchant_id,
    orderId: s.order_id,
    pin: s.pin,
    status: byName(STATUS_WORDS, s.status),
    transactionType: byName(TYPE_NAMES, s.type),
    ...dayRange(s.from, s.to).window,
    pageSize,
    pageToken,
    // The further filters the engine's request has, passed through as typed.
    ...Object.fromEntries(SUPPORTED_EXTRA_FILTERS.filter((f) => s[f]).map((f) => [localName(f), s[f]])),
  } as MessageInitShape<typeof ListTransactionsRequestSchema>;
}

function csvRow(x: Transaction): string {
  const amount = x.amount ? majorString(x.amount.amountMinor, currencyExponent(x.amount.currency) ?? 2) : "";
  const time = (ts: Transaction["createTime"]) => (ts ? timestampDate(ts).toISOString() : "");
  return csvLine([
    x.traceId,
    time(x.createTime),
    time(x.updateTime),
    x.merchantId,
    x.orderId,
    TYPE_NAMES[x.transactionType] ?? "",
    STATUS_WORDS[x.status] ?? "",
    amount,
    x.amount?.currency ?? "",
    x.paymentProcessor,
    x.transactionId,
    x.errorCode || "",
    x.errorDetails,
    x.card?.maskedNumber ?? "",
    x.pin,
    x.frontend,
    x.attempt,
    x.referenceTraceId || "",
    x.createdBy,
    x.sessionId ? x.sessionId.toString() : "",
  ]);
}

const CSV_HEAD = csvLine([
  "trace_id",
  "created",
  "updated",
  "merchant_id",
  "order_id",
  "type",
  "status",
  "amount",
  "currency",
  "processor",
  "processor_transaction_id",
  "error_code",
  "error_details",
  "card",
  "pin",
  "frontend",
  "attempt",
  "reference_trace_id",
  "created_by",
  "session_id",
]);

/** The detail page of one attempt, with a notice above it (which may depend on the attempt as it is now). */
export async function detailOf(
  deps: PageDeps,
  s: SignedIn,
  traceId: number,
  notice?: Notice | ((detail: GetTransactionDetailResponse) => Notice),
): Promise<Html> {
  const res = await deps.client.work.getTransactionDetail({ context: s.context, traceId });
  return s.render(
    "transactions",
    s.kit.tr.t("bo.detail.title", { trace: traceId }),
    detailPage(s.kit.tr, {
      transaction: res.transaction!,
      firstApproval: res.firstApproval,
      cascade: res.cascade,
      related: res.related,
      callbacks: res.callbacks,
      canRedeliver: s.operator.actions.has("callback.redeliver"),
      canCheck: s.operator.actions.has("transaction.check") && res.checkOffered,
      money: await moneyOf(deps, s, res.transaction!),
      csrf: s.csrf,
      notice: (typeof notice === "function" ? notice(res) : notice) ?? (await refusingBlockNotice(deps, s, res.transaction!)),
    }),
  );
}

export function transactionRoutes(router: Router, deps: PageDeps): void {
  consoleGet(router, "/transactions", deps, async (ctx, s) => {
    const search = searchOf(ctx);
    // A trace_id names one attempt: straight to it.
    if (traceIdOf(search.trace_id) !== undefined) {
      seeOther(ctx, `/transactions/${search.trace_id}`);
      return undefined;
    }
    const pageToken = String(ctx.query.page_token ?? "").slice(0, 512);
    const t = s.kit.tr.t;
    // The operator's columns, page size and saved searches, kept by the engine.
    const mine = await deps.client.auth.getWorkPreferences({ context: s.context });
    const pageSize = pageSizeOf(mine.preferences?.pageSize ?? 0);
    const view = {
      search,
      columns: mine.preferences?.transactionColumns ?? [],
      pageSize,
      savedSearches: mine.savedSearches,
      csrf: s.csrf,
    };
    const notices: Record<string, Notice> = {
      prefs: { kind: "success", text: t("bo.prefs.saved") },
      saved: { kind: "success", text: t("bo.saved.saved", { name: mine.savedSearches.find((x) => x.query === searchQuery(search).slice(1))?.name ?? "" }) },
      unsaved: { kind: "success", text: t("bo.saved.deleted") },
    };
    const bad = searchFaults(search);
    // A trace_id that names no attempt (a valid one went to its page above) is a filter not understood: named above an
    // empty list, not dropped so that every row would show as the answer.
    if (bad.length > 0 || search.trace_id !== "")
      return s.render(
        "transactions",
        t("bo.nav.transactions"),
        searchPage(s.kit.tr, {
          ...view,
          transactions: [],
          nextPageToken: "",
          paged: false,
          notice: { kind: "error", text: bad.length > 0 ? t("bo.search.badFilters", { fields: bad.join(", ") }) : t("bo.search.badTrace") },
        }),
      );
    const res = await deps.client.work.searchTransactions({ context: s.context, filter: filterOf(search, pageSize, pageToken) });
    return s.render(
      "transactions",
      t("bo.nav.transactions"),
      searchPage(s.kit.tr, {
        ...view,
        transactions: res.transactions,
        nextPageToken: res.nextPageToken,
        paged: pageToken !== "",
        readSource: res.readSource,
        notice: namedIn(notices, ctx.query.notice),
      }),
    );
  });

  router.get("/transactions.csv", async (ctx) => {
    // Same guard as a page: a signed-in operator (the engine checks transaction.read), else a redirect or a refusal page.
    const s = await signedIn(ctx, deps);
    if (!s) return;
    const search = searchOf(ctx);
    const bad = searchFaults(search);
    if (bad.length > 0) return refuseFilters(ctx, s, bad);
    // The engine's search has no trace_id filter: an export that names one is refused, never widened to every row.
    if (search.trace_id !== "")
      return refuseSearch(ctx, s, s.kit.tr.t(traceIdOf(search.trace_id) === undefined ? "bo.search.badTrace" : "bo.search.traceNotExported"));
    // The most any page was behind, when read from a replica far behind: the file's last line says so.
    let behind: number | undefined;
    try {
      await sendCsv(ctx, {
        name: "transactions",
        head: CSV_HEAD,
        maxPages: EXPORT_PAGES,
        page: async (token) => {
          const res = await deps.client.work.searchTransactions({ context: s.context, filter: filterOf(search, 500, token), export: true });
          behind = Math.max(behind ?? 0, secondsBehind(res.readSource) ?? 0) || undefined;
          return { lines: res.transactions.map(csvRow), next: res.nextPageToken };
        },
        cutNote: (rows) => `# cut after ${rows} rows: narrow the search to export the rest`,
        closingNote: () => (behind ? `# read from a replica of the database up to ${behind} s behind: the latest transactions may be missing` : undefined),
      });
    } catch (err) {
      return refusalPage(ctx, s.kit, consoleRefusal(err), deps.log, err, s.operator, s.csrf);
    }
  });

  consoleGet(router, "/transactions/:traceId", deps, async (ctx, s) => {
    const traceId = traceIdOf(ctx.params.traceId);
    if (traceId === undefined) return undefined;
    const t = s.kit.tr.t;
    const notices: Record<string, Notice | ((detail: GetTransactionDetailResponse) => Notice)> = {
      redelivered: { kind: "success", text: t("bo.cb.redelivered") },
      // The money actions (money-actions.ts, refund-withdrawal.ts): the refund made, or waiting for its second approval, or
      // its request withdrawn; the sale cancelled.
      refunded: { kind: "success", text: t("bo.money.noticeRefunded", { refund: String(Number(ctx.query.refund) || "") }) },
      "refund-first": { kind: "success", text: t("bo.money.noticeFirst") },
      "refund-withdrawn": { kind: "success", text: t("bo.money.noticeWithdrawn") },
      cancelled: { kind: "success", text: t("bo.money.noticeCancelled") },
      // While the engine still offers a check, the follow-up's answer is to come; once it is not, the status shown is that answer.
      checked: (d) => ({ kind: "success", text: t(d.checkOffered ? "bo.check.asked" : "bo.check.answered", { trace: traceId }) }),
    };
    return detailOf(deps, s, traceId, namedIn(notices, ctx.query.notice));
  });

  consolePost(router, "/transactions/:traceId/callbacks/:id/redeliver", deps, async (ctx, s) => {
    const traceId = traceIdOf(ctx.params.traceId);
    const id = callbackIdOf(ctx.params.id);
    if (traceId === undefined || id === undefined) {
      ctx.status = 404;
      return;
    }
    await deps.client.work.redeliverCallback({ context: s.context, id });
    seeOther(ctx, `/transactions/${traceId}?notice=redelivered`);
  });
}
