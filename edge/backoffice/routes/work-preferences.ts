/**
 * The operator's own work-view choices, as forms of the transaction list:
 * columns and page size, and saved searches (save, delete). The engine keeps
 * them for the session's operator (ConsoleAuthService); the console only
 * passes the form on and goes back to the list.
 */
import type Router from "@koa/router";
import { seeOther } from "../request.ts";
import { SEARCH_FIELDS } from "../views/search.ts";
import { TRANSACTION_COLUMNS } from "../views/transaction-columns.ts";
import { consolePost, type PageDeps } from "./pages.ts";

/** A search's query string with the search's own fields only (as the list reads them), in their order. */
export function cleanQuery(raw: string): string {
  const given = new URLSearchParams(raw.slice(0, 2000));
  const q = new URLSearchParams();
  for (const f of SEARCH_FIELDS) {
    const v = (given.get(f) ?? "").trim().slice(0, 128);
    if (v) q.set(f, v);
  }
  return q.toString();
}

const back = (query: string, notice: string) => `/transactions?${query ? `${query}&` : ""}notice=${notice}`;

export function workPreferenceRoutes(router: Router, deps: PageDeps): void {
  consolePost(router, "/transactions/preferences", deps, async (ctx, s, form) => {
    const known = new Set(TRANSACTION_COLUMNS.map((c) => c.name));
    // The trace id is always shown; a name the console does not know is not sent on.
    const columns = ["trace_id", ...form.getAll("column").filter((c) => known.has(c) && c !== "trace_id")];
    const pageSize = Number.parseInt(form.get("page_size") ?? "", 10);
    await deps.client.auth.setWorkPreferences({
      context: s.context,
      // An unreadable size is sent as it is (NaN as 0 would mean "the default"): the engine names the field.
      preferences: { transactionColumns: columns, pageSize: Number.isFinite(pageSize) ? pageSize : -1 },
    });
    seeOther(ctx, back(cleanQuery(form.get("back") ?? ""), "prefs"));
  });

  consolePost(router, "/transactions/saved-searches", deps, async (ctx, s, form) => {
    const query = cleanQuery(form.get("query") ?? "");
    const res = await deps.client.auth.saveSearch({ context: s.context, name: form.get("name") ?? "", query });
    seeOther(ctx, back(res.savedSearch?.query ?? query, "saved"));
  });

  consolePost(router, "/transactions/saved-searches/:id/delete", deps, async (ctx, s) => {
    await deps.client.auth.deleteSavedSearch({ context: s.context, id: String(ctx.params.id).slice(0, 64) });
    seeOther(ctx, "/transactions?notice=unsaved");
  });
}
