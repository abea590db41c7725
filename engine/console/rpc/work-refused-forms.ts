/**
 * ConsoleWorkService.RecordRefusedForm: a console form the Backoffice refused
 * on its own, before asking for the change (it reads some fields itself, to
 * answer in the operator's language: a four-eyes line, an offered overlap, a
 * decision's reason), filed as the change's own refusal would be. The role is
 * checked for the form's action first (a role refusal is audited and answered
 * PERMISSION_DENIED, as the change would be); then the failure is audited
 * under the action's name with the console's reason and no merchant, as every
 * refusal before the target is read (a merchant out of the caller's scope must
 * not have a row filed under it).
 */
import { create } from "@bufbuild/protobuf";
import {
  type ConsoleWorkService,
  type RecordRefusedFormRequest,
  RecordRefusedFormResponseSchema,
  RefusedForm,
} from "../../../gen/cashier/admin/v1/console_work_service_pb.js";
import type { BackofficeDeps } from "../ports/ports.ts";
import { authorize } from "../app/console-session.ts";
import { maskCardNumbers } from "../../shared/card.ts";
import type { Action } from "../domain/operator-roles.ts";
import { EVERY_CONTROL_CHARACTER } from "../../shared/control-characters.ts";
import { MAX_DESCRIPTION } from "../../shared/canonical.ts";
import { callerOf, consoleCall, merchantTarget, payoutsTarget } from "./console-mappers.ts";
import { invalidArgument } from "../../rpc/errors.ts";
import type { ServiceImpl } from "../../rpc/grpc-adapter.ts";

/** Each form: the action its change is authorized as, the action its audit rows carry, and what it names. */
const FORMS: Record<Exclude<RefusedForm, RefusedForm.UNSPECIFIED>, { action: Action; audited: string; names: "payouts" | "merchant" }> = {
  [RefusedForm.PAYOUT_DECISION]: { action: "payout.decide", audited: "payout.decide", names: "payouts" },
  [RefusedForm.BULK_APPROVAL]: { action: "payout.decide", audited: "payout.approve", names: "payouts" },
  [RefusedForm.FOUR_EYES]: { action: "merchant.update", audited: "merchant.four_eyes", names: "merchant" },
  [RefusedForm.SECRET_ROTATION]: { action: "merchant.rotate_secret", audited: "merchant.rotate_secret", names: "merchant" },
};

/** What the form named, as the change's own rows write their target. */
const targetOf = (req: RecordRefusedFormRequest, names: "payouts" | "merchant"): string =>
  names === "merchant" ? merchantTarget(req.merchantId) : payoutsTarget(req.traceIds);

export function refusedFormWork(deps: BackofficeDeps): Pick<ServiceImpl<typeof ConsoleWorkService>, "recordRefusedForm"> {
  return {
    recordRefusedForm: (req: RecordRefusedFormRequest) =>
      consoleCall(async () => {
        const form = req.form === RefusedForm.UNSPECIFIED ? undefined : FORMS[req.form];
        if (!form) throw invalidArgument("form", "must name the refused form");
        const caller = callerOf(req.context);
        const target = targetOf(req, form.names);
        const who = await authorize(deps, caller, form.action, target);
        const reason = maskCardNumbers(req.reason.replace(EVERY_CONTROL_CHARACTER, " ").trim()).slice(0, MAX_DESCRIPTION) || "refused by the console";
        await deps.audit.append({
          actor: who.scope.login,
          action: form.audited,
          outcome: "failure",
          target,
          clientAddress: caller.clientAddress,
          detail: reason,
        });
        return create(RecordRefusedFormResponseSchema, {});
      }),
  };
}
