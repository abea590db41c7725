/**
 * An operator's own work-view choices (docs/backoffice.md, Work views): read,
 * and changed with an audit row in the same transaction, for the signed-in
 * operator only (the login is the session's, never the request's). Any role
 * may keep its own: they change what one operator sees, no data and no right.
 */
import { randomUUID } from "node:crypto";
import { canonicalJson } from "../domain/audit-chain.ts";
import { isSavedSearchId, MAX_SAVED_SEARCHES, preferenceFaults, savedSearchFaults } from "../domain/work-preferences.ts";
import { describeViolations, domainError, type DomainError, type FieldViolation } from "../../shared/errors.ts";
import type { SavedSearchRecord, WorkPreferences } from "../ports/preferences.ts";
import type { Tx } from "../ports/transactions.ts";
import type { BackofficeDeps, ConsoleCaller } from "../ports/ports.ts";
import { authenticate } from "./console-session.ts";

/** The signed-in operator's preferences and saved searches. */
export async function workPreferences(deps: BackofficeDeps, caller: ConsoleCaller): Promise<{ preferences: WorkPreferences; searches: SavedSearchRecord[] }> {
  const who = await authenticate(deps, caller);
  const [preferences, searches] = await Promise.all([deps.operators.preferences(who.scope.login), deps.operators.savedSearches(who.scope.login)]);
  return { preferences, searches };
}

async function audited(
  deps: BackofficeDeps,
  caller: ConsoleCaller,
  login: string,
  action: string,
  json: { before?: unknown; after?: unknown },
  tx: Tx,
): Promise<void> {
  await deps.audit.append(
    {
      actor: login,
      action,
      outcome: "success",
      target: `operator:${login}`,
      clientAddress: caller.clientAddress,
      beforeJson: json.before === undefined ? undefined : canonicalJson(json.before),
      afterJson: json.after === undefined ? undefined : canonicalJson(json.after),
    },
    tx,
  );
}

const invalid = (violations: FieldViolation[]): DomainError => domainError("INVALID_FIELDS", describeViolations(violations), violations);

/** Keeps the operator's columns and page size, or names the field out of bounds. */
export async function setWorkPreferences(deps: BackofficeDeps, caller: ConsoleCaller, p: WorkPreferences): Promise<WorkPreferences | DomainError> {
  const who = await authenticate(deps, caller);
  const login = who.scope.login;
  const faults = preferenceFaults(p.transactionColumns, p.pageSize);
  if (faults.length > 0) return invalid(faults);
  await deps.operators.transaction(async (tx) => {
    const before = await deps.operators.preferences(login, tx);
    await deps.operators.setPreferences(login, p, deps.now(), tx);
    await audited(deps, caller, login, "preferences.set", { before, after: p }, tx);
  });
  return p;
}

/** Saves a search (its name trimmed), or names the field at fault; one of the same name is replaced. At most MAX_SAVED_SEARCHES. */
export async function saveSearch(deps: BackofficeDeps, caller: ConsoleCaller, rawName: string, query: string): Promise<SavedSearchRecord | DomainError> {
  const who = await authenticate(deps, caller);
  const login = who.scope.login;
  const faults = savedSearchFaults(rawName, query);
  if (faults.length > 0) return invalid(faults);
  const name = rawName.trim();
  return deps.operators.transaction(async (tx) => {
    const mine = await deps.operators.savedSearches(login, tx);
    if (mine.length >= MAX_SAVED_SEARCHES && !mine.some((s) => s.name === name))
      return invalid([{ field: "name", description: `is a new search, and the operator keeps at most ${MAX_SAVED_SEARCHES}: delete one first` }]);
    const saved = await deps.operators.saveSearch(login, { id: randomUUID(), name, query, createdAt: deps.now() }, tx);
    await audited(deps, caller, login, "search.save", { after: { id: saved.id, name: saved.name, query: saved.query } }, tx);
    return saved;
  });
}

/** Deletes one of the operator's searches; undefined when it has none of that id (another operator's included). */
export async function deleteSavedSearch(deps: BackofficeDeps, caller: ConsoleCaller, id: string): Promise<SavedSearchRecord | undefined> {
  const who = await authenticate(deps, caller);
  const login = who.scope.login;
  if (!isSavedSearchId(id)) return undefined;
  return deps.operators.transaction(async (tx) => {
    const gone = await deps.operators.deleteSavedSearch(login, id, tx);
    if (gone) await audited(deps, caller, login, "search.delete", { before: { id: gone.id, name: gone.name, query: gone.query } }, tx);
    return gone;
  });
}
