/**
 * The Backoffice's sign-in rules, as data (PCI DSS 4.0.1): 10 failed attempts
 * lock an account for 30 minutes (8.3.4), a console session ends after 15
 * idle minutes (8.2.8) and, however busy, 12 hours after its sign-in (a
 * working day: a stolen cookie does not live on); a pending sign-in (password given, second factor due)
 * lasts 5 minutes, an enrolment link 72 hours. And the refusals the console
 * must tell apart, as data.
 */
export const CONSOLE_RULES = {
  maxFailedAttempts: 10,
  lockMs: 30 * 60_000,
  idleMs: 15 * 60_000,
  maxSessionMs: 12 * 3_600_000,
  pendingMs: 5 * 60_000,
  enrolmentMs: 72 * 3_600_000,
  recoveryCodes: 10,
} as const;

export type ConsoleReason =
  | "SESSION_REQUIRED"
  | "SESSION_ENDED"
  | "SIGN_IN_REFUSED"
  | "SECOND_FACTOR_REFUSED"
  | "SIGN_IN_EXPIRED"
  | "ACTION_DENIED"
  | "ENROLMENT_INVALID"
  | "FOUR_EYES_SAME_OPERATOR"
  | "FOUR_EYES_ISSUED_ACCESS"
  | "ENROLMENT_OTHER_BROWSER"
  | "DUAL_CONTROL_SAME_ADMIN";

/** One sentence per refusal: none of them says whether a login exists. */
export const CONSOLE_MESSAGES: Record<ConsoleReason, string> = {
  SESSION_REQUIRED: "sign in first",
  SESSION_ENDED: "the session has ended (15 idle minutes, 12 hours after sign-in, signed out, or the account changed); sign in again",
  SIGN_IN_REFUSED: "sign-in refused: the login or password is wrong, or the account cannot sign in now (10 failed attempts lock it for 30 minutes)",
  SECOND_FACTOR_REFUSED: "the second factor was not accepted",
  SIGN_IN_EXPIRED: "the sign-in has expired; enter the password again",
  ACTION_DENIED: "the operator's role does not allow this action",
  ENROLMENT_INVALID: "this enrolment link is not valid: it was used, replaced or has expired",
  FOUR_EYES_SAME_OPERATOR: "this payout needs a second approval by another operator",
  FOUR_EYES_ISSUED_ACCESS:
    "the second approval must come from an operator whose access the first approver did not set up, and who did not set up the first approver's",
  ENROLMENT_OTHER_BROWSER: "this enrolment's password was set in another browser: finish it there, or ask an admin for a new link if that was not you",
  DUAL_CONTROL_SAME_ADMIN:
    "a change giving payout rights is confirmed by a second admin: not the one who proposed it, not the operator it concerns, and not one whose access either of them set up",
};

/** A refusal of the console's own kinds, thrown by the use cases and mapped once by the service. */
export class ConsoleRefusal extends Error {
  readonly reason: ConsoleReason;
  readonly action: string;
  constructor(reason: ConsoleReason, opts: { action?: string; message?: string } = {}) {
    super(opts.message ?? (opts.action ? `${CONSOLE_MESSAGES[reason]}: ${opts.action}` : CONSOLE_MESSAGES[reason]));
    this.reason = reason;
    this.action = opts.action ?? "";
  }
}
