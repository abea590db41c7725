/** The console's first page: the dashboard over the last 24 hours (or ?hours=1..744). */
import type Router from "@koa/router";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { dashboardPage } from "../views/dashboard.ts";
import { consoleGet, type PageDeps } from "./pages.ts";

export function homeRoutes(router: Router, deps: PageDeps): void {
  consoleGet(router, "/", deps, async (ctx, s) => {
    const hours = Math.min(744, Math.max(1, Number.parseInt(String(ctx.query.hours ?? "24"), 10) || 24));
    const end = Date.now();
    const d = await deps.client.work.getDashboard({ context: s.context, startTime: timestampFromMs(end - hours * 3_600_000), endTime: timestampFromMs(end) });
    return s.render("dashboard", s.kit.tr.t("bo.nav.dashboard"), dashboardPage(s.kit.tr, d), ["chart"]);
  });
}
