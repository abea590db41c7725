/** POST /api/process: decode the seed 2.1 body -> EngineService.Process -> the seed 2.2 reply. */
import type Router from "@koa/router";
import type { EngineClient } from "../engine-client.ts";
import { readJsonObject } from "../middleware/json-body.ts";
import { WireError } from "../middleware/errors.ts";
import { decodeProcessRequest } from "../wire/process-request.ts";
import { encodeProcessReply } from "../wire/process-reply.ts";

export function processRoutes(router: Router, engine: EngineClient): void {
  router.post("/api/process", async (ctx) => {
    const body = await readJsonObject(ctx);
    if (typeof body.merchant_id === "string") ctx.state.merchantId = body.merchant_id;
    const decoded = decodeProcessRequest(body);
    if (!decoded.ok) throw new WireError("INVALID_FIELDS", "wrong field types", decoded.violations);
    const res = await engine.process(decoded.request);
    ctx.status = 200;
    ctx.body = encodeProcessReply(res);
  });
}
