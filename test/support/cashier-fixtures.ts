/** Sessions and transactions as the engine returns them, for the views' tests. */
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { type CashierSession, CashierSessionSchema, SessionIntent } from "../../gen/cashier/engine/v1/cashier_service_pb.js";
import { type Transaction, TransactionSchema, TransactionStatus, TransactionType } from "../../gen/cashier/engine/v1/transaction_pb.js";

export const TOKEN = "s".repeat(43);
export const SHOP = "https://shop.example";

export function depositSession(over: Omit<MessageInitShape<typeof CashierSessionSchema>, "$typeName"> = {}): CashierSession {
  return create(CashierSessionSchema, {
    intent: SessionIntent.DEPOSIT,
    merchantId: "m-test",
    frontend: "test-usd",
    currency: "USD",
    returnUrl: `${SHOP}/back`,
    customerName: "Jane Doe",
    frontendSettings: {
      allowedOrigins: [SHOP],
      depositPresetsMinor: [1000n, 2500n],
      depositMinMinor: 500n,
      depositMaxMinor: 500000n,
      withdrawalMinMinor: 1000n,
      withdrawalMaxMinor: 500000n,
      saveCards: true,
      closedLoopWithdrawals: true,
    },
    savedCards: [{ cardId: "card-a", card: { maskedNumber: "411111******1111", brand: "VISA", expiry: "12/2030" }, holder: "Jane Doe", withdrawable: true }],
    ...over,
  });
}

export function transaction(over: Omit<MessageInitShape<typeof TransactionSchema>, "$typeName"> = {}): Transaction {
  return create(TransactionSchema, {
    traceId: 1234,
    orderId: "cs-abc",
    merchantId: "m-test",
    transactionType: TransactionType.SALE,
    status: TransactionStatus.APPROVED,
    amount: { amountMinor: 2500n, currency: "USD" },
    card: { maskedNumber: "411111******1111", brand: "VISA", expiry: "12/2030" },
    createTime: { seconds: 1795000000n, nanos: 0 },
    ...over,
  });
}
