/**
 * Domain field -> a session start's names: the wire's member names (the
 * platform's JSON) and the StartSessionRequest field paths (a direct gRPC
 * caller), so a refusal names the field as its caller wrote it.
 */
import { PROTO_PATHS } from "./proto-paths.ts";
import { WIRE_NAMES } from "./wire-names.ts";

const OWN = { intent: "intent", balance: "balance", locale: "locale", scOrderId: "sc_order_id", udef1: "udef1", udef2: "udef2" };

export const SESSION_WIRE_NAMES: Readonly<Record<string, string>> = { ...WIRE_NAMES, ...OWN };

export const SESSION_PROTO_PATHS: Readonly<Record<string, string>> = {
  ...PROTO_PATHS,
  ...OWN,
  amount: "amount_minor",
  balance: "balance_minor",
  currency: "currency",
};
