/**
 * The money actions' records as the console's messages carry them: one place, for the queue
 * (work-payouts.ts) and the money service (console-money-service.ts) alike; the Virtual Terminal's request.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { PayoutHoldSchema } from "../../../gen/cashier/admin/v1/console_work_service_pb.js";
import type { TakeMotoPaymentRequest } from "../../../gen/cashier/admin/v1/console_money_service_pb.js";
import type { MotoForm } from "../app/virtual-terminal.ts";
import type { PayoutHold } from "../ports/money-actions.ts";

/** A hold as the console shows it. */
export const holdToProto = (h: PayoutHold) => create(PayoutHoldSchema, { login: h.login, reason: h.reason, time: timestampFromDate(h.heldAt) });

/**
 * The Virtual Terminal's request as its use case reads it (app/virtual-terminal.ts): the customer and card as Process
 * takes them, missing members empty for Process's rules to name. `amountMinor` is the amount already checked.
 */
export function motoFormOf(req: TakeMotoPaymentRequest, amountMinor: number): MotoForm {
  const c = req.customer;
  return {
    merchantId: req.merchantId,
    frontend: req.frontend,
    amountMinor,
    currency: req.amount?.currency ?? "",
    customer: {
      pin: c?.pin ?? "",
      email: c?.email ?? "",
      firstName: c?.firstName ?? "",
      lastName: c?.lastName ?? "",
      dob: c?.dob ?? "",
      phone: c?.phone ?? "",
      address: c?.address ?? "",
      city: c?.city ?? "",
      country: c?.country ?? "",
      state: c?.state ?? "",
      zip: c?.zip ?? "",
    },
    card: { number: req.card?.number ?? "", cvv: req.card?.cvv ?? "", expiry: req.card?.expiry ?? "" },
    reason: req.reason,
    requestId: req.requestId,
  };
}
