/**
 * ConsoleSettingsService, a merchant's processor accounts (CONTRACT 11): added or changed by an admin, checked by
 * the merchants file's parser and the connector's own schema, each fault named as a field of the request. The
 * credentials are write-only: a name the form left blank keeps the value the account holds (same connector), a name
 * typed is sealed in its place, an optional one (the previous webhook key) may be removed, and none is ever returned, logged or audited (the audit row keeps the accounts as
 * operators see them, with the names of the credentials set). An account still named by the merchant's `processors`
 * or a routing rule is not removed: the refusal names who uses it.
 */
import { create, toJson } from "@bufbuild/protobuf";
import {
  type ConsoleSettingsService,
  ConsoleSettingsServiceSetProcessorAccountResponseSchema,
  DeleteProcessorAccountResponseSchema,
} from "../../../gen/cashier/admin/v1/console_settings_service_pb.js";
import { ProcessorAccountSchema } from "../../../gen/cashier/admin/v1/processor_account_pb.js";
import { connectorCatalogue, ruleLabel } from "../../payments/index.ts";
import { domainError } from "../../shared/errors.ts";
import { canonicalJson } from "../domain/audit-chain.ts";
import { checkText, invalidArgument, toRpcError } from "../../rpc/errors.ts";
import type { ServiceImpl } from "../../rpc/grpc-adapter.ts";
import { callerOf, consoleCall } from "./console-mappers.ts";
import { accountOfRequest, accountToProto } from "./processor-account-admin.ts";
import { merchantChange } from "./settings-change.ts";
import type { MerchantSettingsDeps } from "./settings-merchants.ts";

type Calls = Pick<ServiceImpl<typeof ConsoleSettingsService>, "setProcessorAccount" | "deleteProcessorAccount">;

/** Who still names an account: "processors" and each rule by its label ("rule 2", or its name). */
export function usersOf(
  name: string,
  m: { processors: readonly string[]; routingRules?: readonly { name?: string; processors?: string[]; split?: Record<string, number> }[] },
): string[] {
  const users = m.processors.includes(name) ? ["processors"] : [];
  for (const [index, r] of (m.routingRules ?? []).entries()) {
    const named = r.split ? Object.hasOwn(r.split, name) : (r.processors ?? []).includes(name);
    if (named) users.push(ruleLabel(r.name === undefined ? { index } : { index, name: r.name }));
  }
  return users;
}

export function processorAccountSettings(deps: MerchantSettingsDeps): Calls {
  const store = deps.merchantStore;
  const accounts = async (merchantId: string) => ((await store.processorAccounts(merchantId)) ?? []).map(accountToProto);
  const accountsJson = async (merchantId: string) => canonicalJson((await accounts(merchantId)).map((a) => toJson(ProcessorAccountSchema, a)));

  return {
    setProcessorAccount: (req) =>
      consoleCall(async () => {
        checkText("merchant_id", req.merchantId);
        await merchantChange(deps, callerOf(req.context), {
          action: "processor_account.set",
          merchantId: req.merchantId,
          read: () => accountsJson(req.merchantId),
          apply: async () => {
            if (!req.account) throw invalidArgument("account", "is required");
            if (!req.account.connector) throw invalidArgument("account.connector", "is required");
            if (!req.account.processor) throw invalidArgument("account.processor", "is required");
            checkText("account.processor", req.account.processor);
            for (const [name, value] of Object.entries(req.credentials)) checkText(`credentials.${name}`, value);
            const existing = await store.processorAccount(req.merchantId, req.account.processor);
            if (existing && req.createOnly)
              throw toRpcError(domainError("ALREADY_EXISTS", `the merchant already has an account named ${req.account.processor}`));
            // Blank is "keep": only what was typed replaces a stored value, and only at the same connector.
            const typed = Object.fromEntries(Object.entries(req.credentials).filter(([, v]) => v !== ""));
            const kept = existing && existing.connector === req.account.connector ? existing.credentials : {};
            const credentials: Record<string, string> = { ...kept, ...typed };
            // An optional credential (the previous webhook key) comes off once a rotation is over; a required one stays.
            const connector = connectorCatalogue().find((c) => c.name === req.account?.connector);
            for (const name of req.removeCredentials) {
              if (!connector?.optionalCredentials.includes(name))
                throw invalidArgument("remove_credentials", `${JSON.stringify(name)} is not an optional credential of ${req.account.connector}`);
              if (name in typed) throw invalidArgument("remove_credentials", `${name} is both typed and removed`);
              delete credentials[name];
            }
            const parsed = accountOfRequest(req.account, credentials);
            await store.setProcessorAccount(req.merchantId, parsed);
          },
        });
        return create(ConsoleSettingsServiceSetProcessorAccountResponseSchema, { accounts: await accounts(req.merchantId) });
      }),

    deleteProcessorAccount: (req) =>
      consoleCall(async () => {
        checkText("merchant_id", req.merchantId);
        checkText("name", req.name);
        await merchantChange(deps, callerOf(req.context), {
          action: "processor_account.delete",
          merchantId: req.merchantId,
          read: () => accountsJson(req.merchantId),
          apply: async () => {
            if (!req.name) throw invalidArgument("name", "is required");
            const m = await store.view(req.merchantId);
            const users = m ? usersOf(req.name, m) : [];
            if (users.length > 0)
              throw toRpcError(domainError("INVALID_STATE", `account ${req.name} is still used by ${users.join(", ")}: take it out of those first`));
            if (!(await store.removeProcessorAccount(req.merchantId, req.name)))
              throw toRpcError(domainError("NOT_FOUND", `no account ${req.name} for ${req.merchantId}`));
          },
        });
        return create(DeleteProcessorAccountResponseSchema, { accounts: await accounts(req.merchantId) });
      }),
  };
}
