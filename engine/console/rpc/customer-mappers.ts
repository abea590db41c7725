/**
 * The customer page's records as ConsoleCustomerService answers them: blocks
 * (never a card's fingerprint: the label is what an operator sees), notes,
 * totals, cards and hosted sessions (with their state told from the clock).
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  BlockKind as PbKind,
  BlockSchema,
  CustomerCardSchema,
  CustomerNoteSchema,
  CustomerSessionSchema,
  CustomerTotalSchema,
} from "../../../gen/cashier/admin/v1/console_customer_service_pb.js";
import type { BlockKind } from "../../payments/index.ts";
import { statusToProto, typeToProto } from "../../payments/rpc/index.ts";
import type { BlockRecord, CustomerCardRow, CustomerSessionRow, CustomerTotalRow, NoteRecord } from "../ports/customers.ts";

const KINDS: Readonly<Record<BlockKind, PbKind>> = {
  customer: PbKind.CUSTOMER,
  card: PbKind.CARD,
  email: PbKind.EMAIL,
  bin: PbKind.BIN,
};

/** The kind a request names, or undefined for none or an unknown number. */
export const kindFromProto = (k: PbKind): BlockKind | undefined => (Object.entries(KINDS) as [BlockKind, PbKind][]).find(([, v]) => v === k)?.[0];

export const blockToProto = (b: BlockRecord) =>
  create(BlockSchema, {
    id: BigInt(b.id),
    merchantId: b.merchantId,
    kind: KINDS[b.kind],
    label: b.label,
    reason: b.reason,
    pin: b.pin,
    createdBy: b.createdBy,
    createTime: timestampFromDate(b.createdAt),
    liftedBy: b.liftedBy ?? "",
    liftTime: b.liftedAt ? timestampFromDate(b.liftedAt) : undefined,
    liftReason: b.liftReason ?? "",
  });

export const noteToProto = (n: NoteRecord) =>
  create(CustomerNoteSchema, { id: BigInt(n.id), text: n.text, createdBy: n.createdBy, createTime: timestampFromDate(n.createdAt) });

export const totalToProto = (r: CustomerTotalRow) =>
  create(CustomerTotalSchema, {
    transactionType: typeToProto(r.type),
    status: statusToProto(r.status),
    currency: r.currency,
    count: r.count,
    amountMinor: BigInt(r.amountMinor),
  });

export const cardToProto = (c: CustomerCardRow, blockId: number | undefined) =>
  create(CustomerCardSchema, {
    traceId: c.traceId,
    maskedNumber: c.masked,
    brand: c.brand,
    expiry: c.expiry,
    withdrawalsAllowed: c.withdrawalsAllowed,
    blockId: BigInt(blockId ?? 0),
    saved: c.saved,
  });

/** unopened (its autologin not used), open, or expired: what the session's rows say at `now`. */
export function sessionState(s: CustomerSessionRow, now: Date): "unopened" | "open" | "expired" {
  if (s.expiresAt <= now) return "expired";
  return s.autologinUsed ? "open" : "unopened";
}

export const sessionToProto = (s: CustomerSessionRow, now: Date) =>
  create(CustomerSessionSchema, {
    id: BigInt(s.id),
    intent: s.intent,
    state: sessionState(s, now),
    frontend: s.frontend,
    currency: s.currency,
    createTime: timestampFromDate(s.createdAt),
    expireTime: timestampFromDate(s.expiresAt),
  });
