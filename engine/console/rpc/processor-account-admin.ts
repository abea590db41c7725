/**
 * A merchant's processor accounts through cashier.admin.v1 (decision 0007,
 * CONTRACT 11): checked by the merchants file's parser (the connector's own
 * schema for the settings), each fault named as a field of the request; the
 * credentials are write-only (stored sealed, never returned nor logged).
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type AdminService, ListProcessorAccountsResponseSchema, SetProcessorAccountResponseSchema } from "../../../gen/cashier/admin/v1/admin_service_pb.js";
import { type ProcessorAccount, ProcessorAccountSchema } from "../../../gen/cashier/admin/v1/processor_account_pb.js";
import { MerchantsFileError, parseProcessorAccounts } from "../../payments/index.ts";
import type { MerchantAdminStore, ProcessorAccountView } from "../../payments/index.ts";
import { domainError } from "../../shared/errors.ts";
import type { ServiceImpl } from "../../rpc/grpc-adapter.ts";
import { checkText, invalidArgument, toRpcError } from "../../rpc/errors.ts";

/** The parser's paths (account[0].url) as the request's fields (account.endpoint_url, api_key, credentials.secret_key). */
const FIELD_OF: Record<string, string> = {
  processor: "account.processor",
  name: "account.processor",
  connector: "account.connector",
  url: "account.endpoint_url",
  api_key: "api_key",
  enabled: "account.enabled",
  settings: "account.settings",
  credentials: "credentials",
};

/** A parser path's leaf as the request's field: settings and credentials keep their member (account.settings.merchant_account). */
function fieldOf(leaf: string): string {
  if (leaf.startsWith("settings.")) return `account.${leaf}`;
  if (leaf.startsWith("credentials.")) return leaf;
  return FIELD_OF[leaf] ?? "account";
}

/** An account as operators see it: no credential value, only the names of those set. */
export function accountToProto(v: ProcessorAccountView): ProcessorAccount {
  return create(ProcessorAccountSchema, {
    processor: v.name,
    connector: v.connector,
    endpointUrl: v.url,
    enabled: v.enabled,
    settings: v.settings as ProcessorAccount["settings"],
    updateTime: timestampFromDate(v.updatedAt),
    credentialsSet: v.credentialNames,
  });
}

/**
 * A request's account and credentials checked by the merchants file's parser (the connector's schema for the
 * settings), each fault named as a field of the request (account.settings.merchant_account, credentials.secret_key).
 * No connector: the older form, an account named after its connector with one API key.
 */
export function accountOfRequest(account: ProcessorAccount, credentials: Readonly<Record<string, string>>): ParsedAccount {
  const older = !account.connector;
  const entry = older
    ? { processor: account.processor || undefined, api_key: credentials.api_key }
    : { name: account.processor || undefined, connector: account.connector, credentials };
  try {
    return parseProcessorAccounts(
      [{ ...entry, url: account.endpointUrl || undefined, enabled: account.enabled, settings: account.settings ?? {} }],
      "account",
    )[0];
  } catch (err) {
    if (!(err instanceof MerchantsFileError)) throw err;
    const leaf = err.field.replace(/^account\[0\]\.?/, "");
    throw invalidArgument(fieldOf(leaf), err.problem);
  }
}

type ParsedAccount = ReturnType<typeof parseProcessorAccounts>[number];

const notFound = (merchantId: string) => toRpcError(domainError("NOT_FOUND", `no merchant ${merchantId}`));

type Calls = Pick<ServiceImpl<typeof AdminService>, "setProcessorAccount" | "listProcessorAccounts">;

export function processorAccountAdmin(deps: { merchantStore: MerchantAdminStore }): Calls {
  const store = deps.merchantStore;
  const accounts = async (merchantId: string) => {
    const list = await store.processorAccounts(merchantId);
    if (!list) throw notFound(merchantId);
    return list.map(accountToProto);
  };
  return {
    async setProcessorAccount(req) {
      checkText("merchant_id", req.merchantId);
      if (!req.merchantId) throw invalidArgument("merchant_id", "is required");
      if (!req.account) throw invalidArgument("account", "is required");
      const credentials = Object.keys(req.credentials).length > 0 ? req.credentials : req.apiKey ? { api_key: req.apiKey } : {};
      const parsed = accountOfRequest(req.account, credentials);
      if (!(await store.setProcessorAccount(req.merchantId, parsed))) throw notFound(req.merchantId);
      return create(SetProcessorAccountResponseSchema, { accounts: await accounts(req.merchantId) });
    },

    async listProcessorAccounts(req) {
      checkText("merchant_id", req.merchantId);
      if (!req.merchantId) throw invalidArgument("merchant_id", "is required");
      return create(ListProcessorAccountsResponseSchema, { accounts: await accounts(req.merchantId) });
    },
  };
}
