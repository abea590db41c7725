/**
 * The one place where failures become HTTP replies: a WireError (the edge's own
 * refusal) or a ConnectError from the engine (its ErrorDetail reason) maps
 * through the shared reason table to the HTTP status and the wire `status`;
 * anything else is a 500 with status -1 and no internal text. Replies tied to a
 * merchant are signed by the engine (SignReply).
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type { Context, Next } from "koa";
import { ErrorDetailSchema, ErrorReason } from "../../gen/cashier/engine/v1/errors_pb.js";
import { REASONS, describeViolations, type FieldViolation, type Reason } from "../../engine/domain/errors.ts";
import { MAX_DESCRIPTION, signableText } from "../../engine/security/canonical.ts";
import { ownEntry } from "../../engine/domain/own-entry.ts";
import type { EngineClient } from "../engine-client.ts";
import { API_VERSION, encodeErrorReply } from "../wire/process-reply.ts";

export class WireError extends Error {
  readonly reason: Reason;
  readonly violations: FieldViolation[];
  constructor(reason: Reason, message: string, violations: FieldViolation[] = []) {
    super(message);
    this.reason = reason;
    this.violations = violations;
  }
}

export interface Refusal {
  reason: Reason;
  description: string;
}

/** Every field named; when that is too long for the reply, the names first and the reasons as far as they fit. */
function describeForReply(violations: FieldViolation[]): string {
  const full = describeViolations(violations);
  if ([...full].length <= MAX_DESCRIPTION) return full;
  return `Invalid fields: ${violations.map((v) => v.field).join(", ")}. ${full}`;
}

const UNAVAILABLE_CODES = new Set([Code.Unavailable, Code.DeadlineExceeded, Code.Canceled, Code.Aborted]);

/** Any thrown value -> a reason and a description fit to show a client. */
export function refusalOf(err: unknown): Refusal {
  if (err instanceof WireError) {
    return { reason: err.reason, description: err.violations.length ? describeForReply(err.violations) : err.message };
  }
  if (err instanceof ConnectError) {
    const [detail] = err.findDetails(ErrorDetailSchema);
    const name = detail ? (ErrorReason[detail.reason] as Reason | undefined) : undefined;
    // The table's own entry: `in` would also find "constructor" or "toString".
    if (name && ownEntry(REASONS, name) && REASONS[name].status > 0) {
      return { reason: name, description: detail!.violations.length ? describeForReply(detail!.violations) : err.rawMessage };
    }
    if (UNAVAILABLE_CODES.has(err.code)) return { reason: "UNAVAILABLE", description: "Service temporarily unavailable, retry later" };
  }
  return { reason: "INTERNAL", description: "Internal error" };
}

export function errorMiddleware(engine: EngineClient, log: { error(obj: object, msg: string): void }) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
    } catch (err) {
      const found = refusalOf(err);
      const refusal = { ...found, description: signableText(found.description) };
      const info = REASONS[refusal.reason];
      if (info.status < 0) log.error({ err, path: ctx.path }, "request failed");
      let signature: string | null = null;
      const merchantId = ctx.state.merchantId;
      if (typeof merchantId === "string" && merchantId !== "") {
        try {
          const signed = await engine.signReply({ merchantId, status: info.status, description: refusal.description, version: API_VERSION });
          signature = signed.signature;
        } catch {
          signature = null; // unknown merchant or engine down: the reply cannot be tied to a merchant.
        }
      }
      ctx.status = info.http;
      ctx.body = encodeErrorReply(info.status, refusal.description, signature);
    }
  };
}
