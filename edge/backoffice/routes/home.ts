/** The console's first page: the dashboard over a period the operator picks (dashboard-period.ts; the last 24 hours by default). */
import type Router from "@koa/router";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { dashboardPage } from "../views/dashboard.ts";
import { periodForm } from "../views/dashboard-period.ts";
import { html } from "../../pages/kit/html.ts";
import { noticeBox } from "../views/gate.ts";
import { sendPage } from "../request.ts";
import { periodOf } from "./dashboard-period.ts";
import { consoleGet, type PageDeps } from "./pages.ts";

export function homeRoutes(router: Router, deps: PageDeps): void {
  consoleGet(router, "/", deps, async (ctx, s) => {
    const tr = s.kit.tr;
    const period = periodOf(ctx.query, Date.now());
    const form = periodForm(tr, period);
    if (!period.window) {
      // Named, with the form to mend it, and no figures of another period.
      const notice = noticeBox({ kind: "error", text: `${tr.t("bo.dash.badPeriod")} (${period.bad.join(", ")})` });
      sendPage(ctx, s.kit, 400, s.render("dashboard", tr.t("bo.nav.dashboard"), html`<h1>${tr.t("bo.nav.dashboard")}</h1>${notice}${form}`));
      return undefined;
    }
    const d = await deps.client.work.getDashboard({
      context: s.context,
      startTime: timestampFromMs(period.window.start),
      endTime: timestampFromMs(period.window.end),
    });
    return s.render("dashboard", tr.t("bo.nav.dashboard"), dashboardPage(tr, d, form), ["chart"]);
  });
}
