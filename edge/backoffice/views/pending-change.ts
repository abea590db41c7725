/**
 * An operator's change waiting for a second admin (dual control): what it
 * gives and who proposed it, and, for an admin other than the proposer, a
 * form that makes the same change, which confirms it. The engine decides who
 * may confirm (not the proposer, not the operator concerned, not who set up
 * either's access); the page only offers the form.
 */
import { type Operator, PendingChangeKind } from "../../../gen/cashier/admin/v1/operator_pb.js";
import { button, hiddenFields } from "../../pages/kit/components.ts";
import { CSRF_FIELD } from "../../pages/kit/csrf.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import type { ConsoleKey, ConsoleTranslator } from "../i18n.ts";
import { when } from "./format.ts";

const KIND_KEYS: Readonly<Record<number, ConsoleKey>> = {
  [PendingChangeKind.CREATE]: "bo.op.pendingCreate",
  [PendingChangeKind.UPDATE]: "bo.op.pendingUpdate",
  [PendingChangeKind.RESET]: "bo.op.pendingReset",
};

/** The pending change of `o` under its state, with the confirming form for `self` when it may be offered. */
export function pendingChange(
  tr: ConsoleTranslator,
  o: Operator,
  v: { self: string; csrf: string; canManage: boolean; roleNames: Readonly<Record<number, string>> },
): Html | "" {
  const p = o.pendingChange;
  if (!p) return "";
  const t = tr.t;
  const role = t(`bo.role.${v.roleNames[p.role] ?? "viewer"}` as ConsoleKey);
  const merchants = p.merchantIds.length ? p.merchantIds.join(", ") : t("bo.op.allMerchants");
  const what = t(KIND_KEYS[p.kind] ?? "bo.op.pendingUpdate", { role, merchants });
  const fields = { [CSRF_FIELD]: v.csrf, role: v.roleNames[p.role] ?? "", merchants: p.merchantIds.join(", ") };
  const action =
    p.kind === PendingChangeKind.CREATE ? "/operators" : p.kind === PendingChangeKind.RESET ? `/operators/${o.login}/reset` : `/operators/${o.login}/role`;
  const offered = v.canManage && p.proposedBy !== v.self && o.login !== v.self;
  return html`<p class="pending" id="pending-${o.login}">${t("bo.op.pending", { what, by: p.proposedBy })} <span class="muted">${when(tr, p.proposeTime)}</span></p>${
    offered
      ? html`<form method="post" action="${action}">${hiddenFields(p.kind === PendingChangeKind.CREATE ? { ...fields, login: o.login } : fields)}${button({
          label: t("bo.op.confirm", { login: o.login }),
          id: `confirm-${o.login}`,
          variant: "secondary",
        })}</form>`
      : ""
  }`;
}
