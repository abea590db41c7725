/**
 * RecordFailedDeposit (seed 2.6): PascalCase with `errorCode`/`errorDesc` as
 * the seed writes them, the card only masked, money in major units with the
 * currency's decimals.
 */
import type { Attempt } from "../../shared/transaction.ts";
import { Decimal, jsonText } from "./json-text.ts";

/** The processor's code and reason: "05" and "Do not honour" out of "05 Do not honour". */
function errorOf(a: Attempt): { code: string; desc: string } {
  const details = a.errorDetails ?? "";
  if (a.processorCode && details.startsWith(`${a.processorCode} `)) {
    return { code: a.processorCode, desc: details.slice(a.processorCode.length + 1) };
  }
  return { code: a.processorCode ?? (a.errorCode === null ? "" : String(a.errorCode)), desc: details || "Declined" };
}

export function recordFailedDepositBody(a: Attempt, siteId: number | null): string {
  const { code, desc } = errorOf(a);
  const amount = new Decimal(a.amountMinor, a.currency);
  return jsonText({
    PIN: a.pin,
    SiteID: siteId ?? undefined,
    FrontEndName: a.frontend,
    Currency: a.currency,
    TraceID: a.traceId,
    PP: "CreditCard",
    PaymentMethod: a.cardBrand,
    Amount: amount,
    TransactionID: a.transactionId ?? "",
    errorCode: code,
    errorDesc: desc,
    CardNumber: a.cardMasked,
    CardExp: a.cardExpiry,
    CardType: a.cardBrand,
    PSPCurrency: a.currency,
    PSPAmount: amount,
    IPAddress: a.requesterIp || undefined,
    // Given in the session start; Cashier deposits only.
    SCOrderID: a.scOrderId ?? undefined,
    Udef1: a.udef1 ?? undefined,
    Udef2: a.udef2 ?? undefined,
    CreatedBy: a.createdBy,
    EditedBy: "system",
  });
}
