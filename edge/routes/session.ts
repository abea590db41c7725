/**
 * POST /api/session: the hosted Cashier's session start. Decode the JSON body
 * (wire/session-request.ts) -> CashierService.StartSession -> the engine's
 * reply, written out byte for byte (rendered and signed by the engine; a
 * refusal's comes in the gRPC error and middleware/errors.ts writes it). The
 * edge's own refusals (413, 415, a body that is no JSON object) and the 5xx
 * answers are unsigned and carry the session reply's members; a 5xx is logged
 * as the shared error middleware logs it, and echoes nothing internal.
 */
import type Router from "@koa/router";
import type { Middleware } from "koa";
import { ConnectError } from "@connectrpc/connect";
import { SignedReplySchema } from "../../gen/cashier/engine/v1/engine_service_pb.js";
import { REASONS } from "../../engine/shared/errors.ts";
import { sessionRefusalReply } from "../../engine/shared/wire/session-reply.ts";
import type { EdgeLogger } from "../logger.ts";
import type { CashierClient } from "../engine-client.ts";
import { readJsonObject } from "../middleware/json-body.ts";
import { refusalOf } from "../middleware/errors.ts";
import { decodeSessionRequest } from "../wire/session-request.ts";

export function sessionRoutes(router: Router, cashier: CashierClient, log: Pick<EdgeLogger, "error">, ...guards: Middleware[]): void {
  router.post("/api/session", ...guards, async (ctx) => {
    try {
      const body = await readJsonObject(ctx);
      if (typeof body.merchant_id === "string") ctx.state.merchantId = body.merchant_id;
      const res = await cashier.startSession(decodeSessionRequest(body).request);
      if (!res.wireReply) throw new Error("the engine answered a wire-signed StartSession without its reply");
      ctx.status = 200;
      ctx.type = "application/json";
      ctx.body = res.wireReply.json;
    } catch (err) {
      // The engine's signed refusal: the shared error middleware writes it.
      if (err instanceof ConnectError && err.findDetails(SignedReplySchema).length > 0) throw err;
      const refusal = refusalOf(err);
      const info = REASONS[refusal.reason];
      if (info.status < 0) log.error({ err, path: ctx.path }, "request failed");
      ctx.status = info.http;
      ctx.type = "application/json";
      ctx.body = sessionRefusalReply(info.status, refusal.description);
    }
  });
}
