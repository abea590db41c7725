/**
 * ConsoleCustomerService's reads: the customer page (totals, cards with the
 * closed loop's answer and the block that holds each, hosted sessions, notes,
 * blocks, e-mails) and the block that refused a transaction (error_code
 * 9008, its history's `block:<id>` cause). Action transaction.read; a merchant
 * outside the scope answers NOT_FOUND, as if it did not exist.
 */
import { create } from "@bufbuild/protobuf";
import {
  type ConsoleCustomerService,
  GetCustomerResponseSchema,
  GetRefusingBlockResponseSchema,
} from "../../../gen/cashier/admin/v1/console_customer_service_pb.js";
import { blockIdOfCause, type ProcessDeps } from "../../payments/index.ts";
import { authorize } from "../app/console-session.ts";
import { inScope } from "../domain/operator-roles.ts";
import type { BackofficeDeps } from "../ports/ports.ts";
import type { CustomerRecords } from "../ports/customers.ts";
import { checkText, checkTraceId, invalidArgument } from "../../rpc/errors.ts";
import type { ServiceImpl } from "../../rpc/grpc-adapter.ts";
import { callerOf, consoleCall } from "./console-mappers.ts";
import { merchantsFor, notFound } from "./console-scope.ts";
import { blockToProto, cardToProto, noteToProto, sessionToProto, totalToProto } from "./customer-mappers.ts";

/** What the customer calls need: the console's ports, the payments' (an attempt and its history), the customer's records. */
export type ConsoleCustomerDeps = ProcessDeps & BackofficeDeps & { customers: CustomerRecords };

/** A pin as Process takes one is at most this long (validate-process.ts). */
const PIN_MAX = 50;
const CARDS = 500;
const SESSIONS = 20;
const NOTES = 100;
const LIFTED = 50;
const EMAILS = 10;

/** The customer a call names: a merchant that exists in scope (else NOT_FOUND, alike) and a pin. */
export async function customerOf(
  deps: Pick<ConsoleCustomerDeps, "merchants">,
  who: Parameters<typeof merchantsFor>[0],
  merchantId: string,
  pin: string,
): Promise<{ merchantId: string; pin: string }> {
  if (merchantId === "") throw invalidArgument("merchant_id", "is required");
  merchantsFor(who, merchantId);
  if (!(await deps.merchants.get(merchantId))) throw notFound(`no merchant ${merchantId}`);
  checkText("pin", pin);
  if (pin.trim() === "") throw invalidArgument("pin", "is required");
  if (pin.length > PIN_MAX) throw invalidArgument("pin", `must be at most ${PIN_MAX} characters`);
  return { merchantId, pin };
}

type PageCalls = Pick<ServiceImpl<typeof ConsoleCustomerService>, "getCustomer" | "getRefusingBlock">;

export function customerPage(deps: ConsoleCustomerDeps): PageCalls {
  return {
    getCustomer: (req) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "transaction.read");
        const { merchantId, pin } = await customerOf(deps, who, req.merchantId, req.pin);
        const c = deps.customers;
        const [totals, cards, sessions, notes, blocks, emails] = await Promise.all([
          c.totals(merchantId, pin),
          c.cards(merchantId, pin, CARDS),
          c.sessions(merchantId, pin, SESSIONS),
          c.notes(merchantId, pin, NOTES),
          c.blocksOf(merchantId, pin, LIFTED),
          c.emails(merchantId, pin, EMAILS),
        ]);
        // Which held block holds each card, from whichever customer's page it was made.
        const held = await c.heldAmong(
          merchantId,
          cards.map((x) => ({ kind: "card" as const, value: x.fingerprint })),
        );
        const now = deps.now();
        return create(GetCustomerResponseSchema, {
          totals: totals.map(totalToProto),
          cards: cards.map((x) => cardToProto(x, held.find((b) => b.value === x.fingerprint)?.id)),
          sessions: sessions.map((s) => sessionToProto(s, now)),
          notes: notes.map(noteToProto),
          blocks: blocks.map(blockToProto),
          emails,
        });
      }),

    getRefusingBlock: (req) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "transaction.read");
        checkTraceId(req.traceId);
        const a = await deps.orders.get(req.traceId);
        if (!a || !inScope(who.scope, a.merchantId)) throw notFound(`no transaction with trace_id ${req.traceId}`);
        const id = (await deps.orders.history(a.traceId)).map((h) => blockIdOfCause(h.cause)).find((x) => x !== undefined);
        const block = id === undefined ? undefined : await deps.customers.block(id);
        if (!block || block.merchantId !== a.merchantId) throw notFound(`no block refused the transaction with trace_id ${req.traceId}`);
        return create(GetRefusingBlockResponseSchema, { block: blockToProto(block) });
      }),
  };
}
