/**
 * The transaction search as the form and the URL carry it: its fields (the
 * further ones only when the engine's ListTransactionsRequest has them) and
 * its query string, shared by the list, its filter tools and the routes.
 */
import { ListTransactionsRequestSchema } from "../../../gen/cashier/engine/v1/engine_service_pb.js";

/** The search as the form (and the URL) carries it; every value a string, empty when unset. */
export interface Search {
  trace_id: string;
  /** The filters below exist once the engine's ListTransactionsRequest has them (see EXTRA_FILTERS). */
  email: string;
  card_last_four: string;
  processor: string;
  frontend: string;
  processor_transaction_id: string;
  merchant_id: string;
  order_id: string;
  pin: string;
  status: string;
  type: string;
  from: string;
  to: string;
}

/**
 * Filters the console offers only when the engine's ListTransactionsRequest
 * has a field of that name: the form grows them by itself when the engine
 * does, and never sends a filter the engine would ignore.
 */
export const EXTRA_FILTERS = ["email", "card_last_four", "processor", "frontend", "processor_transaction_id"] as const;
const ENGINE_FILTERS = new Set(ListTransactionsRequestSchema.fields.map((f) => f.name));
export const SUPPORTED_EXTRA_FILTERS: readonly (typeof EXTRA_FILTERS)[number][] = EXTRA_FILTERS.filter((f) => ENGINE_FILTERS.has(f));

export const SEARCH_FIELDS: readonly (keyof Search)[] = [
  "trace_id",
  "merchant_id",
  "order_id",
  "pin",
  "status",
  "type",
  "from",
  "to",
  ...SUPPORTED_EXTRA_FILTERS,
];

/** The search's query string (without page_token), for the next-page and export links. */
export function searchQuery(s: Search, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams();
  for (const k of SEARCH_FIELDS) if (s[k]) q.set(k, s[k]);
  for (const [k, v] of Object.entries(extra)) if (v) q.set(k, v);
  const text = q.toString();
  return text ? `?${text}` : "";
}
