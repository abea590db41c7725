/**
 * What an engine refusal means for the console, from the ConsoleError the
 * engine puts in its details (never from its words): a session to start
 * again, a sign-in step to repeat, an action the role does not allow, a form
 * field to correct, or the engine out of reach.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { ConsoleErrorReason, ConsoleErrorSchema } from "../../gen/cashier/admin/v1/console_pb.js";
import { ErrorDetailSchema } from "../../gen/cashier/engine/v1/errors_pb.js";
import { retryLater } from "../engine-down.ts";

export type ConsoleRefusal =
  | { kind: "session-required" }
  | { kind: "session-ended" }
  | { kind: "sign-in-refused" }
  | { kind: "second-factor-refused" }
  | { kind: "sign-in-expired" }
  | { kind: "denied"; action: string }
  | { kind: "enrolment-invalid" }
  | { kind: "four-eyes-same-operator"; message: string }
  | { kind: "four-eyes-issued-access"; message: string }
  | { kind: "rate-limited" }
  | { kind: "not-found" }
  /** INVALID_ARGUMENT: the fields at fault, with the engine's description of each. */
  | { kind: "invalid"; violations: { field: string; description: string; rule?: string }[]; message: string }
  /** FAILED_PRECONDITION and the like: the engine's message is meant for the operator. */
  | { kind: "refused"; message: string }
  | { kind: "unavailable" }
  | { kind: "internal" };

/** What an operator reads of a refusal for its fields: each field with the engine's description, or its message. */
export const invalidText = (r: Extract<ConsoleRefusal, { kind: "invalid" }>): string =>
  r.violations.length ? r.violations.map((v) => `${v.field}: ${v.description}`).join("; ") : r.message;

/**
 * A refusal a form's own page can show above it: for the form's fields (400) or for the state of what it changes
 * (409), with the text; undefined for any other (a session, a role, an outage: the shared refusal page's).
 */
export function formRefusal(err: unknown): { status: 400 | 409; text: string } | undefined {
  const r = consoleRefusal(err);
  if (r.kind === "invalid") return { status: 400, text: invalidText(r) };
  if (r.kind === "refused") return { status: 409, text: r.message };
  return undefined;
}

export function consoleRefusal(err: unknown): ConsoleRefusal {
  if (!(err instanceof ConnectError)) return { kind: "internal" };
  const [console_] = err.findDetails(ConsoleErrorSchema);
  switch (console_?.reason) {
    case ConsoleErrorReason.SESSION_REQUIRED:
      return { kind: "session-required" };
    case ConsoleErrorReason.SESSION_ENDED:
      return { kind: "session-ended" };
    case ConsoleErrorReason.SIGN_IN_REFUSED:
      return { kind: "sign-in-refused" };
    case ConsoleErrorReason.SECOND_FACTOR_REFUSED:
      return { kind: "second-factor-refused" };
    case ConsoleErrorReason.SIGN_IN_EXPIRED:
      return { kind: "sign-in-expired" };
    case ConsoleErrorReason.ACTION_DENIED:
      return { kind: "denied", action: console_.action };
    case ConsoleErrorReason.ENROLMENT_INVALID:
      return { kind: "enrolment-invalid" };
    case ConsoleErrorReason.FOUR_EYES_SAME_OPERATOR:
      return { kind: "four-eyes-same-operator", message: err.rawMessage };
    case ConsoleErrorReason.FOUR_EYES_ISSUED_ACCESS:
      return { kind: "four-eyes-issued-access", message: err.rawMessage };
    case ConsoleErrorReason.RATE_LIMITED:
      return { kind: "rate-limited" };
  }
  switch (err.code) {
    case Code.Unauthenticated:
      return { kind: "session-required" };
    case Code.PermissionDenied:
      return { kind: "denied", action: "" };
    case Code.NotFound:
      return { kind: "not-found" };
    case Code.InvalidArgument: {
      const [detail] = err.findDetails(ErrorDetailSchema);
      return {
        kind: "invalid",
        violations: (detail?.violations ?? []).map((v) => ({ field: v.field, description: v.description, ...(v.rule ? { rule: v.rule } : {}) })),
        message: err.rawMessage,
      };
    }
    case Code.FailedPrecondition:
    case Code.AlreadyExists:
    case Code.OutOfRange:
      return { kind: "refused", message: err.rawMessage };
    case Code.ResourceExhausted:
      return { kind: "rate-limited" };
  }
  return retryLater(err) ? { kind: "unavailable" } : { kind: "internal" };
}
