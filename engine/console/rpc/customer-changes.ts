/**
 * ConsoleCustomerService's changes, each with its audit row in one database
 * transaction and every refusal audited: a note (customer.note), a block
 * (customer.block: the customer, a card by an attempt's keyed fingerprint, an
 * e-mail, a BIN) and its lift (customer.unblock). The roles: support and up
 * note and block, payouts and up lift (docs/backoffice-operations.md, Blocks).
 */
import { create } from "@bufbuild/protobuf";
import {
  AddCustomerNoteResponseSchema,
  type ConsoleCustomerService,
  CreateBlockResponseSchema,
  LiftBlockResponseSchema,
} from "../../../gen/cashier/admin/v1/console_customer_service_pb.js";
import { domainError } from "../../shared/errors.ts";
import type { BlockKind } from "../../payments/index.ts";
import { auditingRefusals, authorize, type SignedIn } from "../app/console-session.ts";
import { canonicalJson } from "../domain/audit-chain.ts";
import { binToBlock, emailToBlock, noteFault, reasonFault, type TextFault } from "../domain/customer-rules.ts";
import { inScope } from "../domain/operator-roles.ts";
import type { BlockRecord, NewBlock } from "../ports/customers.ts";
import type { ConsoleCaller } from "../ports/ports.ts";
import { checkTraceId, invalidArgument, toRpcError } from "../../rpc/errors.ts";
import type { ServiceImpl } from "../../rpc/grpc-adapter.ts";
import { callerOf, consoleCall } from "./console-mappers.ts";
import { notFound } from "./console-scope.ts";
import { blockToProto, kindFromProto, noteToProto } from "./customer-mappers.ts";
import { type ConsoleCustomerDeps, customerOf } from "./customer-page.ts";

const fault = (f: TextFault | undefined) => {
  if (f) throw invalidArgument(f.field, f.description);
};

/** The block's face in the audit log: never the card's fingerprint. */
const blockFace = (b: BlockRecord) =>
  canonicalJson({ id: b.id, kind: b.kind, label: b.label, reason: b.reason, pin: b.pin, lifted_by: b.liftedBy ?? "", lift_reason: b.liftReason ?? "" });

/** `backoffice:<login>`, as a block or a note names who made it. */
const byOf = (who: SignedIn) => `backoffice:${who.scope.login}`;

type ChangeCalls = Pick<ServiceImpl<typeof ConsoleCustomerService>, "addCustomerNote" | "createBlock" | "liftBlock">;

export function customerChanges(deps: ConsoleCustomerDeps): ChangeCalls {
  /** The block a request asks for, checked field by field (the value as the block keeps it, and its label). */
  async function blockOf(
    who: SignedIn,
    r: { merchantId: string; pin: string; kind: number; value: string; cardTraceId: number; reason: string },
  ): Promise<NewBlock> {
    const { merchantId, pin } = await customerOf(deps, who, r.merchantId, r.pin);
    const kind: BlockKind | undefined = kindFromProto(r.kind);
    if (!kind) throw invalidArgument("kind", "must be customer, card, email or bin");
    fault(reasonFault(r.reason));
    const base = { merchantId, pin, kind, reason: r.reason.trim(), createdBy: byOf(who) };
    if (kind === "customer") return { ...base, value: pin, label: pin };
    if (kind === "card") {
      checkTraceId(r.cardTraceId, "card_trace_id");
      const card = await deps.customers.cardOf(merchantId, pin, r.cardTraceId);
      if (!card) throw invalidArgument("card_trace_id", "names no attempt of this customer with a card");
      return { ...base, value: card.fingerprint, label: card.masked };
    }
    const checked = kind === "email" ? emailToBlock(r.value) : binToBlock(r.value);
    if ("field" in checked) throw invalidArgument(checked.field, checked.description);
    return { ...base, value: checked.value, label: checked.value };
  }

  const audited = <T>(who: SignedIn, caller: ConsoleCaller, action: string, target: string, fn: () => Promise<T>) =>
    auditingRefusals(deps, who, caller, { action, target }, fn);

  return {
    addCustomerNote: (req) =>
      consoleCall(async () => {
        const caller = callerOf(req.context);
        const target = `customer:${req.pin.slice(0, 64)}`;
        const who = await authorize(deps, caller, "customer.note", target);
        const note = await audited(who, caller, "customer.note", target, async () => {
          const { merchantId, pin } = await customerOf(deps, who, req.merchantId, req.pin);
          fault(noteFault(req.text));
          return deps.operators.transaction(async (tx) => {
            const n = await deps.customers.addNote({ merchantId, pin, text: req.text.trim(), createdBy: byOf(who) }, tx);
            await deps.audit.append(
              {
                actor: who.scope.login,
                action: "customer.note",
                outcome: "success",
                merchantId,
                target: `customer:${pin}`,
                clientAddress: caller.clientAddress,
                afterJson: canonicalJson({ id: n.id, text: n.text }),
              },
              tx,
            );
            return n;
          });
        });
        return create(AddCustomerNoteResponseSchema, { note: noteToProto(note) });
      }),

    createBlock: (req) =>
      consoleCall(async () => {
        const caller = callerOf(req.context);
        const target = `customer:${req.pin.slice(0, 64)}`;
        const who = await authorize(deps, caller, "customer.block", target);
        const block = await audited(who, caller, "customer.block", target, async () => {
          const wanted = await blockOf(who, req);
          return deps.operators.transaction(async (tx) => {
            const made = await deps.customers.createBlock(wanted, tx);
            if ("heldBy" in made)
              throw toRpcError(
                domainError("ALREADY_EXISTS", `the ${wanted.kind} is blocked already, by block ${made.heldBy.id}`, [
                  { field: "kind", description: `blocked already by block ${made.heldBy.id}` },
                ]),
              );
            const b = made.created;
            await deps.audit.append(
              {
                actor: who.scope.login,
                action: "customer.block",
                outcome: "success",
                merchantId: b.merchantId,
                target: `block:${b.id}`,
                clientAddress: caller.clientAddress,
                afterJson: blockFace(b),
              },
              tx,
            );
            return b;
          });
        });
        return create(CreateBlockResponseSchema, { block: blockToProto(block) });
      }),

    liftBlock: (req) =>
      consoleCall(async () => {
        const caller = callerOf(req.context);
        const target = `block:${String(req.id).slice(0, 20)}`;
        const who = await authorize(deps, caller, "customer.unblock", target);
        const block = await audited(who, caller, "customer.unblock", target, async () => {
          if (req.id <= 0n || req.id > BigInt(Number.MAX_SAFE_INTEGER)) throw invalidArgument("id", "must be a positive block id");
          fault(reasonFault(req.reason));
          const id = Number(req.id);
          const before = await deps.customers.block(id);
          if (!before || !inScope(who.scope, before.merchantId)) throw notFound(`no block ${id}`);
          return deps.operators.transaction(async (tx) => {
            const after = await deps.customers.liftBlock(id, byOf(who), req.reason.trim(), tx);
            if (!after) throw toRpcError(domainError("INVALID_STATE", `block ${id} was lifted already`));
            await deps.audit.append(
              {
                actor: who.scope.login,
                action: "customer.unblock",
                outcome: "success",
                merchantId: after.merchantId,
                target: `block:${id}`,
                clientAddress: caller.clientAddress,
                beforeJson: blockFace(before),
                afterJson: blockFace(after),
              },
              tx,
            );
            return after;
          });
        });
        return create(LiftBlockResponseSchema, { block: blockToProto(block) });
      }),
  };
}
