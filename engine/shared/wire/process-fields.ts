/**
 * The fields of a Process request by the domain's own names. Rules and
 * refusals name these; each caller's names are an outward table away:
 * the seed's member names (engine/shared/wire/wire-names.ts) for the HTTP wire, the
 * ProcessRequest field paths (engine/shared/wire/proto-paths.ts) for gRPC callers.
 */
export const PROCESS_FIELDS = [
  "merchantId",
  "orderId",
  "transactionType",
  "amount",
  "currency",
  "cardNumber",
  "cvv",
  "cardExp",
  "pin",
  "dob",
  "email",
  "phone",
  "requesterIp",
  "address",
  "city",
  "country",
  "firstName",
  "lastName",
  "state",
  "zip",
  "frontend",
  "returnUrl",
  "notificationUrl",
  "referenceId",
  "errorDetails",
  "errorCode",
  "version",
  "timestamp",
  "cardToken",
] as const;

export type ProcessField = (typeof PROCESS_FIELDS)[number];

/** A table from every domain field to a caller's name for it. */
export type FieldNames = Readonly<Record<ProcessField, string>>;
