/**
 * The hosted payment fields (CONTRACT 12): GET shows the card form of a
 * `fields` session; POST reads the card's shape (card-input.ts, as the
 * deposit form does), calls SubmitFields and shows the taken card with its
 * token for the page's script to post to the parent. The engine checks the
 * card again and names what it refuses; the page ties each fault to its
 * input. A session of another intent is sent to its own page.
 */
import type Router from "@koa/router";
import type { Context } from "koa";
import { create } from "@bufbuild/protobuf";
import { SessionIntent, SubmitFieldsRequestSchema } from "../../../gen/cashier/engine/v1/cashier_service_pb.js";
import { ErrorDetailSchema } from "../../../gen/cashier/engine/v1/errors_pb.js";
import type { FieldError } from "../../pages/kit/components.ts";
import type { MessageKey, Translator } from "../../pages/kit/i18n.ts";
import { maskCardNumbers } from "../../../engine/shared/card.ts";
import { cardNumberInput, cvvInput, expiryInput, holderInput } from "../card-input.ts";
import { intentPage, sessionPath } from "../paths.ts";
import { fieldsDonePage, fieldsFormPage } from "../views/fields.ts";
import { type CashierDeps, isFieldRefusal, refuse, seeOther, send } from "./respond.ts";
import { type Loaded, guardedForm, loadSession, one } from "./session-pages.ts";

/** SubmitFields' field paths -> the form's input and its message. */
const ENGINE_FIELDS: Readonly<Record<string, { field: string; key: MessageKey }>> = {
  "card.number": { field: "card_number", key: "cashier.error.cardNumber" },
  "card.expiry": { field: "card_exp", key: "cashier.error.expiry" },
  "card.cvv": { field: "cvv", key: "cashier.error.cvv" },
  holder: { field: "holder", key: "cashier.error.holder" },
};

/** The engine's refusal in the form's words, each tied to its input (never the engine's English). */
function engineErrors(err: Parameters<typeof isFieldRefusal>[0], tr: Translator): FieldError[] {
  if (!isFieldRefusal(err)) return [];
  const [detail] = err.findDetails(ErrorDetailSchema);
  const out: FieldError[] = [];
  for (const v of detail?.violations ?? []) {
    const known = ENGINE_FIELDS[v.field];
    if (known && !out.some((e) => e.field === known.field)) out.push({ field: known.field, message: tr.t(known.key) });
  }
  return out.length > 0 ? out : [{ field: "card_number", message: tr.t("cashier.error.field") }];
}

export function fieldsRoutes(router: Router, deps: CashierDeps): void {
  const show = (ctx: Context, l: Loaded, holder?: string, errors?: FieldError[]) =>
    send(ctx, fieldsFormPage(l.c, l.frame, { csrfToken: deps.csrf.token(l.frame.sessionToken, l.frame.parent), holder, errors }));

  router.get("/cashier/s/:session/fields", async (ctx) => {
    const l = await loadSession(ctx, deps);
    if (!l) return;
    if (l.frame.session.intent !== SessionIntent.FIELDS)
      return seeOther(ctx, sessionPath(l.frame.sessionToken, intentPage(l.frame.session.intent), l.frame.parent));
    show(ctx, l);
  });

  router.post("/cashier/s/:session/fields", async (ctx) => {
    const form = await guardedForm(ctx, deps);
    if (!form) return;
    const l = await loadSession(ctx, deps);
    if (!l) return;
    if (l.frame.session.intent !== SessionIntent.FIELDS)
      return seeOther(ctx, sessionPath(l.frame.sessionToken, intentPage(l.frame.session.intent), l.frame.parent));
    const t = l.c.tr.t;
    const number = cardNumberInput(one(form, "card_number"));
    const expiry = expiryInput(one(form, "card_exp"));
    const cvv = cvvInput(one(form, "cvv"));
    const holder = holderInput(one(form, "holder"));
    // A card number typed into the name comes back masked; the card's own fields never come back.
    const shownHolder = maskCardNumbers(one(form, "holder"));
    const errors: FieldError[] = [];
    if (!number.ok) errors.push({ field: "card_number", message: t("cashier.error.cardNumber") });
    if (!expiry.ok) errors.push({ field: "card_exp", message: t("cashier.error.expiry") });
    if (!cvv.ok) errors.push({ field: "cvv", message: t("cashier.error.cvv") });
    if (!holder.ok) errors.push({ field: "holder", message: t("cashier.error.holder") });
    if (!number.ok || !expiry.ok || !cvv.ok || !holder.ok) return show(ctx, l, shownHolder, errors);
    try {
      const minted = await deps.cashier.submitFields(
        create(SubmitFieldsRequestSchema, {
          sessionToken: l.frame.sessionToken,
          card: { number: number.value, expiry: expiry.value, cvv: cvv.value },
          holder: holder.value,
        }),
      );
      send(ctx, fieldsDonePage(l.c, l.frame, minted));
    } catch (err) {
      if (isFieldRefusal(err)) return show(ctx, l, shownHolder, engineErrors(err, l.c.tr));
      refuse(ctx, deps, err, l.frame.session);
    }
  });
}
