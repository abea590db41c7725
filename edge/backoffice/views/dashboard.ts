/**
 * The dashboard a payments lead opens first: sales and approval rate by
 * processor and hour, decline reasons, payouts waiting and their age, and the
 * callback failure rate, drawn by chart.js (served by the console). Each
 * chart's numbers are also a table right under it, for screen readers and for
 * anyone without scripts. The chart data is a JSON block the script reads;
 * nothing in it is executed.
 */
import type { GetDashboardResponse } from "../../../gen/cashier/admin/v1/console_work_service_pb.js";
import { type Html, html, raw } from "../../pages/kit/html.ts";
import type { ConsoleTranslator } from "../i18n.ts";
import { dataTable } from "./controls.ts";
import { age, kindName, when } from "./format.ts";
import { jsonForScript } from "./gate.ts";
import { replicaNotice } from "./replica-notice.ts";

/** Colours with at least 3:1 contrast on white (WCAG 1.4.11), one per series. */
const PALETTE = ["#1d4ed8", "#b45309", "#047857", "#7c3aed", "#be123c", "#0e7490", "#4d5566"];

function hourLabel(seconds: bigint): string {
  return `${new Date(Number(seconds) * 1000).toISOString().slice(11, 16)}`;
}

interface ChartSpec {
  id: string;
  title: string;
  /** What the chart shows, for its accessible name. */
  summary: string;
  config: unknown;
  table: Html;
}

function chart(tr: ConsoleTranslator, c: ChartSpec): Html {
  return html`<section class="card" aria-labelledby="${c.id}-title">
<h2 id="${c.id}-title">${c.title}</h2>
<div class="chart-box"><canvas id="${c.id}" data-chart="${c.id}-data" role="img" aria-label="${c.summary}"></canvas></div>
<script type="application/json" id="${c.id}-data">${raw(jsonForScript(JSON.stringify(c.config)))}</script>
<details><summary>${tr.t("bo.dash.table")}</summary>${c.table}</details>
</section>`;
}

/** The dashboard under its period control (`periodForm`, drawn by the route). */
export function dashboardPage(tr: ConsoleTranslator, d: GetDashboardResponse, periodForm: Html = html``): Html {
  const t = tr.t;
  const hours = [...new Set(d.volume.map((v) => v.hour?.seconds ?? 0n))].sort((a, b) => (a < b ? -1 : 1));
  const processors = [...new Set(d.volume.map((v) => v.processor))].sort();
  const cell = (hour: bigint, p: string) => d.volume.filter((v) => v.hour?.seconds === hour && v.processor === p);
  const sum = (rows: typeof d.volume, f: "attempts" | "approved") => rows.reduce((n, r) => n + r[f], 0);
  const totalAttempts = sum(d.volume, "attempts");
  const totalApproved = sum(d.volume, "approved");
  // Per currency, summed as integers of minor units and formatted from the integer.
  const volumeByCurrency = new Map<string, bigint>();
  const byCurrency = new Map<string, { attempts: number; approved: number; amount: bigint }>();
  for (const v of d.volume) {
    volumeByCurrency.set(v.currency, (volumeByCurrency.get(v.currency) ?? 0n) + v.approvedAmount);
    const c = byCurrency.get(v.currency) ?? { attempts: 0, approved: 0, amount: 0n };
    byCurrency.set(v.currency, { attempts: c.attempts + v.attempts, approved: c.approved + v.approved, amount: c.amount + v.approvedAmount });
  }
  const rate = (approved: number, attempts: number) => (attempts ? Math.round((approved / attempts) * 1000) / 10 : null);
  const labels = hours.map(hourLabel);

  const salesChart: ChartSpec = {
    id: "chart-sales",
    title: t("bo.dash.sales"),
    summary: t("bo.dash.salesSummary", { attempts: totalAttempts, processors: processors.length }),
    config: {
      type: "bar",
      data: {
        labels,
        datasets: processors.map((p, i) => ({ label: p, backgroundColor: PALETTE[i % PALETTE.length], data: hours.map((h) => sum(cell(h, p), "attempts")) })),
      },
      options: {
        scales: {
          x: { stacked: true, title: { display: true, text: t("bo.dash.hourUtc") } },
          y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } },
        },
      },
    },
    table: dataTable({
      caption: t("bo.dash.salesTable"),
      head: [
        t("bo.dash.hourUtc"),
        t("bo.tx.processor"),
        t("bo.payout.currency"),
        t("bo.dash.attempts"),
        t("bo.dash.approved"),
        t("bo.dash.rate"),
        t("bo.dash.volume"),
      ],
      rows: d.volume.map(
        (v) =>
          html`<tr><td>${hourLabel(v.hour?.seconds ?? 0n)}</td><td>${v.processor}</td><td>${v.currency}</td><td class="num">${v.attempts}</td><td class="num">${v.approved}</td><td class="num">${rate(v.approved, v.attempts) ?? "–"} %</td><td class="num">${tr.amount(v.approvedAmount, v.currency)}</td></tr>`,
      ),
      empty: t("bo.dash.noSales"),
      numeric: [3, 4, 5, 6],
    }),
  };

  const rateChart: ChartSpec = {
    id: "chart-rate",
    title: t("bo.dash.approvalRate"),
    summary: t("bo.dash.rateSummary", { rate: rate(totalApproved, totalAttempts) ?? 0 }),
    config: {
      type: "line",
      data: {
        labels,
        datasets: processors.map((p, i) => ({
          label: p,
          borderColor: PALETTE[i % PALETTE.length],
          backgroundColor: PALETTE[i % PALETTE.length],
          spanGaps: true,
          data: hours.map((h) => rate(sum(cell(h, p), "approved"), sum(cell(h, p), "attempts"))),
        })),
      },
      options: { scales: { x: { title: { display: true, text: t("bo.dash.hourUtc") } }, y: { min: 0, max: 100, title: { display: true, text: "%" } } } },
    },
    table: dataTable({
      caption: t("bo.dash.rateTable"),
      head: [t("bo.tx.processor"), t("bo.dash.attempts"), t("bo.dash.approved"), t("bo.dash.rate")],
      rows: processors.map((p) => {
        const rows = d.volume.filter((v) => v.processor === p);
        return html`<tr><td>${p}</td><td class="num">${sum(rows, "attempts")}</td><td class="num">${sum(rows, "approved")}</td><td class="num">${rate(sum(rows, "approved"), sum(rows, "attempts")) ?? "–"} %</td></tr>`;
      }),
      empty: t("bo.dash.noSales"),
      numeric: [1, 2, 3],
    }),
  };

  const declineChart: ChartSpec = {
    id: "chart-declines",
    title: t("bo.dash.declines"),
    summary: t("bo.dash.declinesSummary", { count: d.declines.reduce((n, x) => n + x.count, 0) }),
    config: {
      type: "bar",
      data: {
        labels: d.declines.map((x) => x.errorDetails || String(x.errorCode)),
        datasets: [{ label: t("bo.dash.declined"), backgroundColor: PALETTE[4], data: d.declines.map((x) => x.count) }],
      },
      options: { indexAxis: "y", plugins: { legend: { display: false } }, scales: { x: { beginAtZero: true, ticks: { precision: 0 } } } },
    },
    table: dataTable({
      caption: t("bo.dash.declinesTable"),
      head: [t("bo.tx.errorCode"), t("bo.tx.errorDetails"), t("bo.dash.count")],
      rows: d.declines.map((x) => html`<tr><td class="num">${x.errorCode}</td><td>${x.errorDetails}</td><td class="num">${x.count}</td></tr>`),
      empty: t("bo.dash.noDeclines"),
      numeric: [0, 2],
    }),
  };

  const w = d.payoutsWaiting;
  const ages = [
    [t("bo.dash.under1h"), w?.under1h ?? 0],
    [t("bo.dash.under4h"), w?.under4h ?? 0],
    [t("bo.dash.under24h"), w?.under24h ?? 0],
    [t("bo.dash.over24h"), w?.over24h ?? 0],
  ] as const;
  const payoutChart: ChartSpec = {
    id: "chart-payouts",
    title: t("bo.dash.payoutsWaiting"),
    summary: t("bo.dash.payoutsSummary", { count: w?.count ?? 0 }),
    config: {
      type: "bar",
      data: { labels: ages.map(([l]) => l), datasets: [{ label: t("bo.dash.payoutsWaiting"), backgroundColor: PALETTE[1], data: ages.map(([, n]) => n) }] },
      options: { plugins: { legend: { display: false } }, scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } },
    },
    table: dataTable({
      caption: t("bo.dash.payoutsTable"),
      head: [t("bo.payout.waiting"), t("bo.dash.count")],
      rows: ages.map(([l, n]) => html`<tr><td>${l}</td><td class="num">${n}</td></tr>`),
      empty: t("bo.payout.none"),
      numeric: [1],
    }),
  };

  const failureRate = (f: number, a: number) => (a ? Math.round((f / a) * 1000) / 10 : 0);
  const callbackChart: ChartSpec = {
    id: "chart-callbacks",
    title: t("bo.dash.callbacks"),
    summary: t("bo.dash.callbacksSummary", {
      rate: failureRate(
        d.callbacks.reduce((n, c) => n + c.failedAttempts, 0),
        d.callbacks.reduce((n, c) => n + c.attempts, 0),
      ),
    }),
    config: {
      type: "bar",
      data: {
        labels: d.callbacks.map((c) => kindName(tr, c.kind)),
        datasets: [{ label: t("bo.dash.failureRate"), backgroundColor: PALETTE[4], data: d.callbacks.map((c) => failureRate(c.failedAttempts, c.attempts)) }],
      },
      options: { plugins: { legend: { display: false } }, scales: { y: { min: 0, max: 100, title: { display: true, text: "%" } } } },
    },
    table: dataTable({
      caption: t("bo.dash.callbacksTable"),
      head: [t("bo.dash.kind"), t("bo.cb.attempts"), t("bo.dash.failedAttempts"), t("bo.dash.failureRate"), t("bo.dash.givenUp")],
      rows: d.callbacks.map(
        (c) =>
          html`<tr><td>${kindName(tr, c.kind)}</td><td class="num">${c.attempts}</td><td class="num">${c.failedAttempts}</td><td class="num">${failureRate(c.failedAttempts, c.attempts)} %</td><td class="num">${c.givenUp}</td></tr>`,
      ),
      empty: t("bo.dash.noCallbacks"),
      numeric: [1, 2, 3, 4],
    }),
  };

  return html`<h1>${t("bo.nav.dashboard")}</h1>
${replicaNotice(tr, d.readSource)}
${periodForm}
<p class="muted" id="period-shown">${t("bo.dash.period")} ${when(tr, d.startTime)} – ${when(tr, d.endTime)}</p>
<ul class="figures" id="figures">
<li>${t("bo.dash.attempts")}<strong id="figure-attempts">${totalAttempts}</strong></li>
<li>${t("bo.dash.rate")}<strong id="figure-rate">${rate(totalApproved, totalAttempts) ?? "–"} %</strong></li>
${[...volumeByCurrency].map(([c, v]) => html`<li>${t("bo.dash.volumeIn", { currency: c })}<strong>${tr.amount(v, c)}</strong></li>`)}
<li>${t("bo.dash.payoutsWaiting")}<strong id="figure-payouts">${w?.count ?? 0}</strong>${w?.oldestCreateTime ? html` <span class="muted">${t("bo.dash.oldest", { age: age(tr, w.oldestCreateTime) })}</span>` : ""}</li>
</ul>
${dataTable({
  id: "volume-by-currency",
  caption: t("bo.dash.volumeTable"),
  head: [t("bo.payout.currency"), t("bo.dash.attempts"), t("bo.dash.approved"), t("bo.dash.rate"), t("bo.dash.volume")],
  rows: [...byCurrency]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(
      ([c, v]) =>
        html`<tr><td>${c}</td><td class="num">${v.attempts}</td><td class="num">${v.approved}</td><td class="num">${rate(v.approved, v.attempts) ?? "–"} %</td><td class="num" data-minor="${v.amount.toString()}">${tr.amount(v.amount, c)}</td></tr>`,
    ),
  empty: t("bo.dash.noSales"),
  numeric: [1, 2, 3, 4],
})}
<div class="cards">
${chart(tr, salesChart)}
${chart(tr, rateChart)}
${chart(tr, declineChart)}
${chart(tr, payoutChart)}
${chart(tr, callbackChart)}
</div>`;
}
