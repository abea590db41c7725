/**
 * The Backoffice's roles (docs/backoffice-operations.md): one table from role
 * to the actions it allows, each role holding every action of the one before
 * it, and the merchant scope every operator carries. Every call of the
 * console's services (ConsoleWorkService, ConsoleSettingsService) names its
 * action and is checked here; a test walks every (role, action) pair against
 * the running engine.
 */

export const ROLES = ["viewer", "support", "payouts", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** Every action a console call may need, in the roles table's order. */
export const ACTIONS = [
  "transaction.read",
  "payout.read",
  "merchant.read",
  "dashboard.read",
  "callback.redeliver",
  "transaction.check",
  "customer.note",
  "customer.block",
  "payout.decide",
  "customer.unblock",
  "payout.hold",
  "transaction.refund",
  "transaction.cancel",
  "transaction.moto",
  "merchant.update",
  "merchant.rotate_secret",
  // Risk rules decide which sales and payouts are refused before any processor: admins only (docs/backoffice-operations.md, Risk rules).
  "risk.edit",
  "operator.read",
  "operator.manage",
  "audit.read",
  "audit.export",
] as const;
export type Action = (typeof ACTIONS)[number];

const VIEWER: readonly Action[] = ["transaction.read", "payout.read", "merchant.read", "dashboard.read"];
// Support may block a customer, a card, an e-mail or a BIN and write notes: a block stops money moving. Lifting one lets
// money move again: payouts and up (docs/backoffice-operations.md, Blocks).
const SUPPORT: readonly Action[] = [...VIEWER, "callback.redeliver", "transaction.check", "customer.note", "customer.block"];
/**
 * Money moves from payouts up: deciding payouts, holding them, refunding and cancelling sales, and taking a card sale
 * by phone (the Virtual Terminal, transaction.moto). Support answers customers and redelivers callbacks but moves no
 * money: a refund or a cancellation is a decision on the merchant's funds, audited and four-eyed as a payout's
 * approval is, and a keyed-in sale charges a card no customer authenticates (docs/backoffice-operations.md, Money
 * actions and Virtual Terminal).
 */
const PAYOUTS: readonly Action[] = [
  ...SUPPORT,
  "payout.decide",
  "payout.hold",
  "transaction.refund",
  "transaction.cancel",
  "transaction.moto",
  "customer.unblock",
];

/** The roles table. */
export const ROLE_ACTIONS: Readonly<Record<Role, ReadonlySet<Action>>> = {
  viewer: new Set(VIEWER),
  support: new Set(SUPPORT),
  payouts: new Set(PAYOUTS),
  admin: new Set(ACTIONS),
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export function allows(role: Role, action: Action): boolean {
  return ROLE_ACTIONS[role].has(action);
}

/** The actions of a role, in the table's order (what the console may offer). */
export function actionsOf(role: Role): Action[] {
  return ACTIONS.filter((a) => ROLE_ACTIONS[role].has(a));
}

/** Who acts and on which merchants: an empty list is every merchant. */
export interface OperatorScope {
  login: string;
  role: Role;
  merchantIds: readonly string[];
}

export function inScope(scope: OperatorScope, merchantId: string): boolean {
  return scope.merchantIds.length === 0 || scope.merchantIds.includes(merchantId);
}

/** Logins: 3 to 64 of a-z, 0-9, '.', '_', '-', starting with a letter or digit. */
export const LOGIN_PATTERN = /^[a-z0-9][a-z0-9._-]{2,63}$/;
