/**
 * POST /api/process: decode the seed 2.1 body -> EngineService.Process -> the
 * engine's seed 2.2 reply, written out byte for byte (the engine rendered and
 * signed it; a refusal's comes in the error, see middleware/errors.ts).
 */
import type Router from "@koa/router";
import type { EngineClient } from "../engine-client.ts";
import { readJsonObject } from "../middleware/json-body.ts";
import { decodeProcessRequest } from "../wire/process-request.ts";

export function processRoutes(router: Router, engine: EngineClient): void {
  router.post("/api/process", async (ctx) => {
    const body = await readJsonObject(ctx);
    if (typeof body.merchant_id === "string") ctx.state.merchantId = body.merchant_id;
    const res = await engine.process(decodeProcessRequest(body).request);
    if (!res.wireReply) throw new Error("the engine answered a wire-signed Process without its reply");
    ctx.status = 200;
    ctx.type = "application/json";
    ctx.body = res.wireReply.json;
  });
}
