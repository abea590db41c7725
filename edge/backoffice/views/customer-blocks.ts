/**
 * The customer page's blocks: the list (held first, each with its lift form
 * where the role holds customer.unblock) and the form that makes one (where
 * the role holds customer.block): plain POST forms with the CSRF token that
 * work without scripts; the engine checks the role and every field again.
 */
import { BlockKind, type Block, type CustomerCard } from "../../../gen/cashier/admin/v1/console_customer_service_pb.js";
import { button, hiddenFields, radioGroup } from "../../pages/kit/components.ts";
import { CSRF_FIELD } from "../../pages/kit/csrf.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import type { ConsoleKey, ConsoleTranslator } from "../i18n.ts";
import { dataTable, inputField, selectField } from "./controls.ts";
import { when } from "./format.ts";

/** The reasons' longest text, as the engine takes it (console/domain/customer-rules.ts). */
export const BLOCK_REASON_MAX = 500;

/** A block's kind in the page's words. */
export const KIND_WORDS: Readonly<Record<number, ConsoleKey>> = {
  [BlockKind.CUSTOMER]: "bo.customer.kindCustomer",
  [BlockKind.CARD]: "bo.customer.kindCard",
  [BlockKind.EMAIL]: "bo.customer.kindEmail",
  [BlockKind.BIN]: "bo.customer.kindBin",
};

/** The form's names of the kinds, as the route reads them back. */
export const KIND_VALUES: Readonly<Record<string, BlockKind>> = {
  customer: BlockKind.CUSTOMER,
  card: BlockKind.CARD,
  email: BlockKind.EMAIL,
  bin: BlockKind.BIN,
};

export interface BlocksView {
  merchantId: string;
  pin: string;
  blocks: readonly Block[];
  cards: readonly CustomerCard[];
  canBlock: boolean;
  canUnblock: boolean;
  csrf: string;
}

function liftForm(tr: ConsoleTranslator, b: Block, v: BlocksView): Html {
  const t = tr.t;
  const id = b.id.toString();
  return html`<form method="post" action="/customer/blocks/${id}/lift" class="inline-actions">${hiddenFields({
    [CSRF_FIELD]: v.csrf,
    merchant_id: v.merchantId,
    pin: v.pin,
  })}
${inputField({ name: "reason", id: `lift-reason-${id}`, label: t("bo.customer.liftReason", { id }), maxlength: BLOCK_REASON_MAX, required: true })}
${button({ label: t("bo.customer.lift", { id }), id: `lift-${id}`, variant: "secondary" })}</form>`;
}

/** The blocks made from this page: held ones first, each with its lift form when the role may lift. */
export function blocksTable(tr: ConsoleTranslator, v: BlocksView): Html {
  const t = tr.t;
  return dataTable({
    id: "customer-blocks",
    caption: t("bo.customer.blocksCaption"),
    head: [
      t("bo.customer.blockedBy"),
      t("bo.customer.kind"),
      t("bo.customer.blockWhat"),
      t("bo.customer.reason"),
      t("bo.customer.madeBy"),
      t("bo.customer.state"),
    ],
    rows: v.blocks.map((b) => {
      const held = b.liftedBy === "";
      return html`<tr id="block-${b.id.toString()}"><td>${b.id.toString()}</td><td>${t(KIND_WORDS[b.kind] ?? "bo.customer.kindCustomer")}</td><td><bdi dir="ltr">${b.label}</bdi></td><td>${b.reason}</td>
<td>${b.createdBy}<br>${when(tr, b.createTime)}</td><td>${
        held
          ? html`<span class="status bad">${t("bo.customer.held")}</span>${v.canUnblock ? liftForm(tr, b, v) : ""}`
          : html`${t("bo.customer.liftedBy", { by: b.liftedBy, reason: b.liftReason })}<br>${when(tr, b.liftTime)}`
      }</td></tr>`;
    }),
    empty: t("bo.customer.noBlocks"),
  });
}

/** The form that makes a block: its kind, the card (a card block) or the value (an e-mail or a BIN), and the reason. */
export function blockForm(tr: ConsoleTranslator, v: BlocksView): Html {
  const t = tr.t;
  const kinds = ["customer", "card", "email", "bin"] as const;
  return html`<form method="post" action="/customer/blocks" id="block-form">${hiddenFields({ [CSRF_FIELD]: v.csrf, merchant_id: v.merchantId, pin: v.pin })}
<p>${t("bo.customer.newBlockExplain")}</p>
${radioGroup({
  name: "kind",
  id: "block-kind",
  legend: t("bo.customer.kind"),
  choices: kinds.map((k, i) => ({ id: `block-kind-${k}`, value: k, label: t(KIND_WORDS[KIND_VALUES[k]]), checked: i === 0 })),
})}
${
  v.cards.length > 0
    ? selectField({
        name: "card_trace_id",
        id: "block-card",
        label: t("bo.customer.blockCard"),
        options: v.cards.map((c) => ({ value: String(c.traceId), label: `${c.maskedNumber} ${c.brand} ${c.expiry}` })),
      })
    : ""
}
${inputField({ name: "value", id: "block-value", label: t("bo.customer.blockValue"), hint: t("bo.customer.blockValueHint"), maxlength: 50 })}
${inputField({ name: "reason", id: "block-reason", label: t("bo.customer.reason"), hint: t("bo.customer.blockReasonHint"), maxlength: BLOCK_REASON_MAX, required: true })}
<div class="actions">${button({ label: t("bo.customer.blockButton"), id: "block-submit" })}</div>
</form>`;
}
