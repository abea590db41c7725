/**
 * A form the console refused on its own (it reads some fields itself, to answer in the operator's language) is filed
 * with the engine before the console answers: the engine checks the operator's role for the form's action first (a
 * role that may not take it is refused there, audited, and this throws PERMISSION_DENIED, which the console answers
 * "Not allowed"), then audits the refusal with the reason in English, as every refused action is audited.
 */
import type { RefusedForm } from "../../../gen/cashier/admin/v1/console_work_service_pb.js";
import { type ConsoleKey, consoleTranslator } from "../i18n.ts";
import type { PageDeps, SignedIn } from "./pages.ts";

const english = consoleTranslator("en");

export async function fileRefusedForm(
  deps: PageDeps,
  s: SignedIn,
  form: RefusedForm,
  named: { traceIds?: number[]; merchantId?: string },
  why: { key: ConsoleKey; params?: Record<string, string | number> },
): Promise<void> {
  await deps.client.work.recordRefusedForm({
    context: s.context,
    form,
    traceIds: named.traceIds ?? [],
    merchantId: named.merchantId ?? "",
    reason: english.t(why.key, why.params),
  });
}
