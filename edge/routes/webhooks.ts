/**
 * POST /webhooks/:merchant_id/:account: an acquirer's webhook (CONTRACT 11) -> EngineService.ReceiveAcquirerWebhook
 * -> the connector's acknowledgement (200, its content type and body). The raw body goes as it came (the signature
 * is over its bytes), at most 256 KiB (413), with the header names lower-cased; the engine verifies, keeps and
 * applies it. Refusals leave through middleware/errors.ts's table: a signature that does not verify 401, an unknown
 * merchant or account 404, a body not the acquirer's 400, the engine or its database away 503 (the acquirer sends
 * again).
 */
import type Router from "@koa/router";
import type { EngineClient } from "../engine-client.ts";
import { closeAfterAnswer, readBody } from "../middleware/body.ts";
import { WireError } from "../middleware/errors.ts";
import { BODY_TIMEOUT_MS } from "../middleware/time-limits.ts";

/** Acquirers' notifications are small; Adyen batches at most a few items. */
export const MAX_WEBHOOK_BYTES = 256 * 1024;

/** Every header of the request, its name lower-cased, repeated ones joined as HTTP joins them. */
function headersOf(raw: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  return headers;
}

export function webhookRoutes(router: Router, engine: EngineClient): void {
  router.post("/webhooks/:merchant_id/:account", async (ctx) => {
    const declared = Number(ctx.get("content-length") || "0");
    if (declared > MAX_WEBHOOK_BYTES) throw new WireError("PAYLOAD_TOO_LARGE", `body is over ${MAX_WEBHOOK_BYTES} bytes`);
    const read = await readBody(ctx.req, MAX_WEBHOOK_BYTES);
    if (!read.ok && read.why === "tooLarge") throw new WireError("PAYLOAD_TOO_LARGE", `body is over ${MAX_WEBHOOK_BYTES} bytes`);
    if (!read.ok) {
      closeAfterAnswer(ctx);
      throw new WireError("REQUEST_TIMEOUT", `the body did not arrive within ${BODY_TIMEOUT_MS / 1000} s`);
    }
    const merchantId = ctx.params.merchant_id;
    ctx.state.merchantId = merchantId;
    const res = await engine.receiveAcquirerWebhook({ merchantId, account: ctx.params.account, headers: headersOf(ctx.req.headers), body: read.bytes });
    ctx.status = 200;
    ctx.type = res.contentType || "text/plain";
    ctx.body = res.body;
  });
}
