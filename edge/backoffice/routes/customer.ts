/**
 * /customer: one merchant's PIN (the query names both, as the PIN links of
 * the transaction pages do): its page, and the forms posted from it: a note,
 * a block, the lift of a block. Each form goes to the engine
 * (ConsoleCustomerService), which checks the role, the scope and every field;
 * a refusal for a field or a state comes back on the page above its form,
 * anything else is the console's refusal page. After a change, the page
 * again (303) with a notice naming what was done.
 */
import type Router from "@koa/router";
import type { Context } from "koa";
import type { Html } from "../../pages/kit/html.ts";
import { formRefusal } from "../refusal.ts";
import { namedIn, seeOther, sendPage } from "../request.ts";
import { customerPage } from "../views/customer.ts";
import { BLOCK_REASON_MAX, KIND_VALUES } from "../views/customer-blocks.ts";
import { customerHref } from "../views/customer-link.ts";
import type { Notice } from "../views/model.ts";
import { NOTE_MAX } from "../views/customer.ts";
import { consoleGet, consolePost, type PageDeps, type SignedIn } from "./pages.ts";

const PAGE_SIZE = 25;
/** What the page's query or form may name: the engine checks them; these only bound what is sent. */
const ID_MAX = 128;

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : (v ?? ""));

/** The customer a request names, from the query or the form. */
function customerIn(get: (name: string) => string): { merchantId: string; pin: string } {
  return { merchantId: get("merchant_id").trim().slice(0, ID_MAX), pin: get("pin").slice(0, ID_MAX) };
}

/** The page, with a notice above it (a refusal's status when there is one). */
async function page(deps: PageDeps, s: SignedIn, who: { merchantId: string; pin: string }, pageToken: string, notice?: Notice): Promise<Html> {
  const [customer, found] = await Promise.all([
    deps.client.customers.getCustomer({ context: s.context, ...who }),
    deps.client.work.searchTransactions({ context: s.context, filter: { merchantId: who.merchantId, pin: who.pin, pageSize: PAGE_SIZE, pageToken } }),
  ]);
  return s.render(
    "transactions",
    s.kit.tr.t("bo.customer.title", { name: who.pin, merchant: who.merchantId }),
    customerPage(s.kit.tr, {
      ...who,
      customer,
      transactions: found.transactions,
      nextPageToken: found.nextPageToken,
      canNote: s.operator.actions.has("customer.note"),
      canBlock: s.operator.actions.has("customer.block"),
      canUnblock: s.operator.actions.has("customer.unblock"),
      csrf: s.csrf,
      notice,
    }),
  );
}

/** A form's change, then back to the page with its notice; a refusal of a field or a state shown on the page itself. */
async function change(
  ctx: Context,
  deps: PageDeps,
  s: SignedIn,
  form: URLSearchParams,
  act: (who: { merchantId: string; pin: string }) => Promise<Record<string, string>>,
) {
  const who = customerIn((n) => form.get(n) ?? "");
  let notice: Record<string, string>;
  try {
    notice = await act(who);
  } catch (err) {
    const refused = formRefusal(err);
    if (!refused) throw err;
    return sendPage(ctx, s.kit, refused.status, await page(deps, s, who, "", { kind: "error", text: refused.text }));
  }
  seeOther(ctx, customerHref(who.merchantId, who.pin, notice));
}

export function customerRoutes(router: Router, deps: PageDeps): void {
  consoleGet(router, "/customer", deps, async (ctx, s) => {
    const who = customerIn((n) => first(ctx.query[n]));
    const t = s.kit.tr.t;
    const id = String(ctx.query.id ?? "")
      .replace(/\D/g, "")
      .slice(0, 20);
    const notices: Record<string, Notice> = {
      noted: { kind: "success", text: t("bo.customer.noted") },
      blocked: { kind: "success", text: t("bo.customer.blocked", { id }) },
      lifted: { kind: "success", text: t("bo.customer.lifted", { id }) },
    };
    return page(deps, s, who, first(ctx.query.page_token).slice(0, 512), namedIn(notices, ctx.query.notice));
  });

  consolePost(router, "/customer/notes", deps, async (ctx, s, form) => {
    await change(ctx, deps, s, form, async (who) => {
      await deps.client.customers.addCustomerNote({ context: s.context, ...who, text: (form.get("text") ?? "").slice(0, NOTE_MAX + 1) });
      return { notice: "noted" };
    });
  });

  consolePost(router, "/customer/blocks", deps, async (ctx, s, form) => {
    await change(ctx, deps, s, form, async (who) => {
      const kind = KIND_VALUES[form.get("kind") ?? ""] ?? 0;
      const cardTraceId = Number((form.get("card_trace_id") ?? "").replace(/\D/g, "").slice(0, 10)) || 0;
      const made = await deps.client.customers.createBlock({
        context: s.context,
        ...who,
        kind,
        // Only the kind that uses it: a card block names its card, a customer block neither.
        value: kind === KIND_VALUES.email || kind === KIND_VALUES.bin ? (form.get("value") ?? "").slice(0, 64) : "",
        cardTraceId: kind === KIND_VALUES.card ? cardTraceId : 0,
        reason: (form.get("reason") ?? "").slice(0, BLOCK_REASON_MAX + 1),
      });
      return { notice: "blocked", id: String(made.block?.id ?? "") };
    });
  });

  consolePost(router, "/customer/blocks/:id/lift", deps, async (ctx, s, form) => {
    const id = /^[1-9]\d{0,15}$/.test(ctx.params.id) ? BigInt(ctx.params.id) : undefined;
    if (id === undefined) {
      ctx.status = 404;
      return;
    }
    await change(ctx, deps, s, form, async () => {
      await deps.client.customers.liftBlock({ context: s.context, id, reason: (form.get("reason") ?? "").slice(0, BLOCK_REASON_MAX + 1) });
      return { notice: "lifted", id: String(id) };
    });
  });
}
