/**
 * The typed data the console's views are drawn from. Routes fill these from
 * the engine's replies; views never see a protobuf message or a request.
 */

/** CONTRACT's four roles, weakest first. */
export type Role = "viewer" | "support" | "payouts" | "admin";

/** The console's sections (one per header link, plus the operator's own account). */
export type Section = "dashboard" | "transactions" | "payouts" | "stuck" | "merchants" | "operators" | "audit" | "account";

/** The engine's action names (its roles table); the pages hide what the operator's role does not allow. */
export type Action =
  | "transaction.read"
  | "callback.redeliver"
  | "transaction.check"
  | "customer.note"
  | "customer.block"
  | "customer.unblock"
  | "payout.read"
  | "payout.decide"
  | "payout.hold"
  | "transaction.refund"
  | "transaction.cancel"
  | "transaction.moto"
  | "merchant.read"
  | "merchant.update"
  | "merchant.rotate_secret"
  | "operator.read"
  | "operator.manage"
  | "audit.read"
  | "audit.export"
  | "dashboard.read";

/** The action that opens each header section. */
export const SECTION_ACTION: Readonly<Record<Exclude<Section, "account">, Action>> = {
  dashboard: "dashboard.read",
  transactions: "transaction.read",
  payouts: "payout.read",
  stuck: "transaction.read",
  merchants: "merchant.read",
  operators: "operator.read",
  audit: "audit.read",
};

export interface OperatorView {
  login: string;
  role: Role;
  /** Merchant ids the operator is scoped to; empty: all merchants. */
  merchants: readonly string[];
  /** The header's links. */
  sections: readonly Section[];
  actions: ReadonlySet<string>;
}

/** A message shown above a form (an error, or a notice such as "you are signed out"). */
export interface Notice {
  kind: "error" | "info" | "success";
  text: string;
}
