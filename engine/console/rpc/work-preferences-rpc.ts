/**
 * ConsoleAuthService's calls for the signed-in operator's work-view choices
 * (app/work-preferences.ts): the login is always the session's own.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type ConsoleAuthService,
  DeleteSavedSearchResponseSchema,
  GetWorkPreferencesResponseSchema,
  SavedSearchSchema,
  SaveSearchResponseSchema,
  SetWorkPreferencesResponseSchema,
  WorkPreferencesSchema,
} from "../../../gen/cashier/admin/v1/console_auth_service_pb.js";
import type { BackofficeDeps } from "../ports/ports.ts";
import type { SavedSearchRecord, WorkPreferences } from "../ports/preferences.ts";
import { deleteSavedSearch, saveSearch, setWorkPreferences, workPreferences } from "../app/work-preferences.ts";
import { domainError } from "../../shared/errors.ts";
import type { ServiceImpl } from "../../rpc/grpc-adapter.ts";
import { toRpcError } from "../../rpc/errors.ts";
import { callerOf, consoleCall } from "./console-mappers.ts";

const preferencesToProto = (p: WorkPreferences) => create(WorkPreferencesSchema, { transactionColumns: p.transactionColumns, pageSize: p.pageSize });
const searchToProto = (s: SavedSearchRecord) =>
  create(SavedSearchSchema, { id: s.id, name: s.name, query: s.query, createTime: timestampFromDate(s.createdAt) });

/** The four calls, for consoleAuthService to include. */
export function workPreferencesRpc(
  deps: BackofficeDeps,
): Pick<ServiceImpl<typeof ConsoleAuthService>, "getWorkPreferences" | "setWorkPreferences" | "saveSearch" | "deleteSavedSearch"> {
  return {
    getWorkPreferences: (req) =>
      consoleCall(async () => {
        const v = await workPreferences(deps, callerOf(req.context));
        return create(GetWorkPreferencesResponseSchema, { preferences: preferencesToProto(v.preferences), savedSearches: v.searches.map(searchToProto) });
      }),

    setWorkPreferences: (req) =>
      consoleCall(async () => {
        const p = req.preferences;
        const kept = await setWorkPreferences(deps, callerOf(req.context), {
          transactionColumns: [...(p?.transactionColumns ?? [])],
          pageSize: p?.pageSize ?? 0,
        });
        if ("reason" in kept) throw toRpcError(kept);
        return create(SetWorkPreferencesResponseSchema, { preferences: preferencesToProto(kept) });
      }),

    saveSearch: (req) =>
      consoleCall(async () => {
        const saved = await saveSearch(deps, callerOf(req.context), req.name, req.query);
        if ("reason" in saved) throw toRpcError(saved);
        return create(SaveSearchResponseSchema, { savedSearch: searchToProto(saved) });
      }),

    deleteSavedSearch: (req) =>
      consoleCall(async () => {
        if (!(await deleteSavedSearch(deps, callerOf(req.context), req.id))) throw toRpcError(domainError("NOT_FOUND", "no such saved search"));
        return create(DeleteSavedSearchResponseSchema, {});
      }),
  };
}
