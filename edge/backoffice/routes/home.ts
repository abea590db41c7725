/** The console's first page (the dashboard grows here). */
import type Router from "@koa/router";
import { html } from "../../pages/kit/html.ts";
import { consoleGet, type PageDeps } from "./pages.ts";

export function homeRoutes(router: Router, deps: PageDeps): void {
  consoleGet(router, "/", deps, async (_ctx, s) => {
    const t = s.kit.tr.t;
    return s.render("dashboard", t("bo.nav.dashboard"), html`<h1>${t("bo.nav.dashboard")}</h1>`);
  });
}
