/**
 * What an operator chose for the console's work views (docs/backoffice.md,
 * Work views): the transaction list's columns and page size, and its saved
 * searches. Every method takes the operator's login from its session: there
 * is no way to name another operator's.
 */
import type { Tx } from "./transactions.ts";

/** The list's columns and page size; the console's defaults when never set (empty, 0). */
export interface WorkPreferences {
  transactionColumns: string[];
  pageSize: number;
}

/** A named search: the console's query string, applied again as a link. */
export interface SavedSearchRecord {
  id: string;
  name: string;
  query: string;
  createdAt: Date;
}

/** The operators' work-view preferences and saved searches (024). */
export interface PreferenceStore {
  /** The operator's preferences (the defaults when it has none). */
  preferences(login: string, tx?: Tx): Promise<WorkPreferences>;
  setPreferences(login: string, p: WorkPreferences, now: Date, tx: Tx): Promise<void>;
  /** The operator's saved searches, by name. */
  savedSearches(login: string, tx?: Tx): Promise<SavedSearchRecord[]>;
  /** Saves a search; one of the same name is replaced (its id kept). Returns the search as stored. */
  saveSearch(login: string, s: SavedSearchRecord, tx: Tx): Promise<SavedSearchRecord>;
  /** The removed search, or undefined when the operator has none of that id. */
  deleteSavedSearch(login: string, id: string, tx: Tx): Promise<SavedSearchRecord | undefined>;
}
