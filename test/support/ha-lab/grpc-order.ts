/**
 * An order sent as an internal service sends it: Process over gRPC straight
 * to the engine with a service token, no JSON wire and no signature. The
 * failover test's load sends some of its orders this way, so that what the
 * engine answers during a switch is seen on gRPC too: UNAVAILABLE with the
 * engine's ErrorDetail (reason UNAVAILABLE), never another code.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorDetailSchema, ErrorReason } from "../../../gen/cashier/engine/v1/errors_pb.js";
import { TransactionStatus, TransactionType } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import type { EngineClient } from "../../../edge/engine-client.ts";
import { saleRequest } from "../engine-request.ts";

/** What one try of an order got: an answer, or a refusal to retry (`retry`), in the load's terms. */
export interface Outcome {
  retry: boolean;
  /** HTTP status, or for gRPC 200 when answered and 0 when refused. */
  http: number;
  /** The wire's status member (HTTP), or the gRPC code's name. */
  status: number | undefined;
  code: string;
  transactionStatus: string | undefined;
  traceId: number | undefined;
  text: string;
}

export interface GrpcOrder {
  merchantId: string;
  frontend: string;
  orderId: string;
  card: string;
  payout: boolean;
  notifyUrl: string;
}

/** Sends the order once over gRPC and reads the answer or the refusal. */
export async function sendGrpc(client: EngineClient, o: GrpcOrder): Promise<Outcome> {
  const req = saleRequest({
    merchantId: o.merchantId,
    frontend: o.frontend,
    orderId: o.orderId,
    transactionType: o.payout ? TransactionType.PAYOUT : TransactionType.SALE,
    amount: { amountMinor: o.payout ? 2500n : 1050n, currency: "USD" },
    card: { number: o.card, cvv: o.payout ? "" : "123", expiry: "12/2030" },
    notificationUrl: o.notifyUrl,
  });
  try {
    // A hang guard: an engine that held a call this long would be a fault, answered here as DEADLINE_EXCEEDED.
    const res = await client.process(req, { timeoutMs: 60_000 });
    const tx = res.transaction;
    return {
      retry: false,
      http: 200,
      status: 0,
      code: "OK",
      transactionStatus: tx ? TransactionStatus[tx.status].toLowerCase() : undefined,
      traceId: tx?.traceId,
      text: "",
    };
  } catch (err) {
    const e = ConnectError.from(err);
    const reason = e.findDetails(ErrorDetailSchema)[0]?.reason;
    const code = `${Code[e.code]}${reason === undefined ? "" : `/${ErrorReason[reason]}`}`;
    // Only the engine's own UNAVAILABLE (its database) is a refusal to retry; any other code is an answer, and wrong.
    const retry = e.code === Code.Unavailable && reason === ErrorReason.UNAVAILABLE;
    return { retry, http: 0, status: undefined, code, transactionStatus: undefined, traceId: undefined, text: e.rawMessage.slice(0, 300) };
  }
}
