/**
 * The one place where failures become HTTP replies. A refused Process call
 * brings the engine's reply in its details (a SignedReply: rendered and signed
 * by the engine), written out as it is; the HTTP status follows its reason
 * through the shared reason table. Anything else (the edge's own refusal, a
 * WireError; an engine refusal without a reply; an engine out of reach) is
 * rendered here with the engine's reply module and no signature, since only
 * the engine holds merchant secrets: a 500 with status -1 and no internal
 * text, or a 503 with status -2 and `Retry-After` when a retry may succeed
 * (the engine out of reach, or its database down, failing over, or out of
 * disk, memory or connections).
 */
import { ConnectError } from "@connectrpc/connect";
import type { Context, Next } from "koa";
import { ErrorDetailSchema, ErrorReason } from "../../gen/cashier/engine/v1/errors_pb.js";
import { SignedReplySchema } from "../../gen/cashier/engine/v1/engine_service_pb.js";
import { REASONS, type FieldViolation, type Reason } from "../../engine/shared/errors.ts";
import { ownEntry } from "../../engine/shared/own-entry.ts";
import { refusalReply } from "../../engine/shared/wire/process-reply.ts";
import { sessionRefusalReply } from "../../engine/shared/wire/session-reply.ts";
import { describeForReply } from "../../engine/shared/wire/refusal.ts";
import { RETRY_AFTER_SECONDS, retryLater } from "../engine-down.ts";

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

/** The engine's reason of a ConnectError, when it is one of the table's refusals (positive status). */
function engineReason(err: ConnectError): Reason | undefined {
  const [detail] = err.findDetails(ErrorDetailSchema);
  const name = detail ? (ErrorReason[detail.reason] as Reason | undefined) : undefined;
  // The table's own entry: `in` would also find "constructor" or "toString".
  return name && ownEntry(REASONS, name) && REASONS[name].status > 0 ? name : undefined;
}

/** Any thrown value -> a reason and a description fit to show a client. */
export function refusalOf(err: unknown): Refusal {
  if (err instanceof WireError) {
    return { reason: err.reason, description: err.violations.length ? describeForReply(err.violations) : err.message };
  }
  if (err instanceof ConnectError) {
    const reason = engineReason(err);
    if (reason) {
      const [detail] = err.findDetails(ErrorDetailSchema);
      return { reason, description: detail.violations.length ? describeForReply(detail.violations) : err.rawMessage };
    }
    if (retryLater(err)) return { reason: "UNAVAILABLE", description: "Service temporarily unavailable, retry later" };
  }
  return { reason: "INTERNAL", description: "Internal error" };
}

/**
 * An unsigned refusal in the members of the reply its path answers with: the
 * session start's on /api/session (a GET there too), Process's everywhere else.
 */
export function unsignedRefusal(path: string, status: number, description: string): string {
  return path.toLowerCase().replace(/\/+$/, "") === "/api/session" ? sessionRefusalReply(status, description) : refusalReply(status, description);
}

/** The engine's own reply to a refused Process call, with the HTTP status its reason maps to. */
function engineReply(err: unknown): { http: number; json: string } | undefined {
  if (!(err instanceof ConnectError)) return undefined;
  const [signed] = err.findDetails(SignedReplySchema);
  const reason = engineReason(err);
  return signed && reason ? { http: REASONS[reason].http, json: signed.json } : undefined;
}

export function errorMiddleware(log: { error(obj: object, msg: string): void }) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
    } catch (err) {
      const replied = engineReply(err);
      if (replied) {
        ctx.status = replied.http;
        ctx.type = "application/json";
        ctx.body = replied.json;
        return;
      }
      const refusal = refusalOf(err);
      const info = REASONS[refusal.reason];
      if (info.status < 0) log.error({ err, path: ctx.path }, "request failed");
      ctx.status = info.http;
      if (info.http === 503) ctx.set("Retry-After", String(RETRY_AFTER_SECONDS));
      ctx.type = "application/json";
      ctx.body = unsignedRefusal(ctx.path, info.status, refusal.description);
    }
  };
}
