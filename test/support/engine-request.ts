/**
 * A valid gRPC sale (cashier.engine.v1.ProcessRequest) for the test merchant
 * (m-test, frontend test-usd, an approving card), with any field replaced:
 * what the tests and the bench send to the engine directly, without the
 * seed's JSON wire or its signature.
 */
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { ProcessRequestSchema } from "../../gen/cashier/engine/v1/engine_service_pb.js";
import { TransactionType } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { orderId } from "./wire.ts";

export type SaleInit = MessageInitShape<typeof ProcessRequestSchema>;

const FIELDS = new Set(ProcessRequestSchema.fields.map((f) => f.localName));

/**
 * The sale's fields as a plain init object (a fresh order id unless `over` names one). `over` may hold wrong
 * values on purpose, so it is not typed by the message; a name that is not a field of it is refused instead of
 * being sent as nothing.
 */
export function saleInit(over: Record<string, unknown> = {}): SaleInit {
  const unknown = Object.keys(over).filter((k) => !FIELDS.has(k));
  if (unknown.length > 0) throw new Error(`not fields of ProcessRequest: ${unknown.join(", ")}`);
  return {
    merchantId: "m-test",
    orderId: orderId("grpc"),
    transactionType: TransactionType.SALE,
    amount: { amountMinor: 1050n, currency: "USD" },
    card: { number: "4111111111111111", cvv: "123", expiry: "12/2030" },
    customer: { pin: "cust-1", email: "a@example.com", firstName: "A", lastName: "B", country: "GB" },
    frontend: "test-usd",
    returnUrl: "https://merchant.example/return",
    version: "1.0",
    ...over,
  } as SaleInit;
}

/** The sale as a message. */
export const saleRequest = (over: Record<string, unknown> = {}) => create(ProcessRequestSchema, saleInit(over));
