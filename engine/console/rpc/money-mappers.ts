/**
 * The money actions' records as the console's messages carry them: one place, for the queue
 * (work-payouts.ts) and the money service (console-money-service.ts) alike.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { PayoutHoldSchema } from "../../../gen/cashier/admin/v1/console_work_service_pb.js";
import type { PayoutHold } from "../ports/money-actions.ts";

/** A hold as the console shows it. */
export const holdToProto = (h: PayoutHold) => create(PayoutHoldSchema, { login: h.login, reason: h.reason, time: timestampFromDate(h.heldAt) });
