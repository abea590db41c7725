/**
 * The console's Connect client to the engine's BackofficeService over gRPC,
 * with the Backoffice's bearer token on every call (the transport's
 * credential; the person is the console session token inside each request).
 * The transport is the edge's own (edge/engine-client.ts): TLS trust, pools
 * and the internal hop's settings are the same for every face.
 */
import { createClient, type Client, type Transport } from "@connectrpc/connect";
import { BackofficeService } from "../../gen/cashier/admin/v1/backoffice_service_pb.js";

export type BackofficeClient = Client<typeof BackofficeService>;

/** Over `transport`: the edge's engineTransport (edge/engine-client.ts), built with the Backoffice's token. */
export function createBackofficeClient(transport: Transport): BackofficeClient {
  return createClient(BackofficeService, transport);
}
