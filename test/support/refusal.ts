/**
 * What an engine call's refusal says, as a test asserts it: its gRPC code, the
 * fields its ErrorDetail names and its message; an empty answer when the call
 * succeeded. The e2e files over gRPC each kept a copy of this, and the copies
 * drifted (some read only the first ErrorDetail, some added the console's
 * reason or action): one helper answers all of what they read.
 */
import { type Code, ConnectError } from "@connectrpc/connect";
import { type ConsoleErrorReason, ConsoleErrorSchema } from "../../gen/cashier/admin/v1/console_pb.js";
import { ErrorDetailSchema, ErrorReason } from "../../gen/cashier/engine/v1/errors_pb.js";

/** One offending field as the refusal names it: the field, the words for a developer, the stable rule ("" where none). */
export interface Violation {
  field: string;
  description: string;
  rule: string;
}

/** A refusal as a test reads it; every member is computed from the one ConnectError. */
export interface Refusal {
  /** The gRPC code; undefined when the call succeeded. */
  code?: Code;
  /** Every field the ErrorDetails name, in order. */
  fields: string[];
  /** The status message as sent (without Connect's "[code]" prefix). */
  message: string;
  /** The ErrorDetail's reason; UNSPECIFIED when the refusal has none (and when the call succeeded). */
  reason: ErrorReason;
  /** Every violation the ErrorDetails name, with its description and rule. */
  violations: Violation[];
  /** The rules of those violations, in order: what a client words in its own language. */
  rules: string[];
  /** The console's reason (ConsoleError) where the console refused; undefined otherwise. */
  consoleReason?: ConsoleErrorReason;
  /** The action a console refusal names (ConsoleError.action); "" where none. */
  action: string;
}

/** Awaits the call and answers what its refusal says, or an empty answer (no code) when it succeeded. */
export async function refusal(p: Promise<unknown>): Promise<Refusal> {
  try {
    await p;
    return { fields: [], message: "", reason: ErrorReason.UNSPECIFIED, violations: [], rules: [], action: "" };
  } catch (err) {
    const e = ConnectError.from(err);
    const details = e.findDetails(ErrorDetailSchema);
    const violations = details.flatMap((d) => d.violations.map((v) => ({ field: v.field, description: v.description, rule: v.rule })));
    const [consoleError] = e.findDetails(ConsoleErrorSchema);
    return {
      code: e.code,
      fields: violations.map((v) => v.field),
      message: e.rawMessage,
      reason: details[0]?.reason ?? ErrorReason.UNSPECIFIED,
      violations,
      rules: violations.map((v) => v.rule),
      consoleReason: consoleError?.reason,
      action: consoleError?.action ?? "",
    };
  }
}
