/**
 * What the payments use cases are given: the ports (merchants, orders, follow-ups, callbacks), the processors, the
 * keys, the sender, the schedule and the clock. The stores and the processors plug in here; tests may pass real ones
 * over a real Postgres.
 */
import type { Keys } from "../../security/keys.ts";
import type { Clock } from "../../shared/runtime/clock.ts";
import type { Schedule } from "./schedule.ts";
import type { ProcessorRegistry } from "../processors/registry.ts";
import type { CallbackLog, Send } from "./callbacks.ts";
import type { FollowUpStore } from "./follow-ups.ts";
import type { MerchantDirectory } from "./merchants.ts";
import type { OrderStore } from "./orders.ts";
import type { CardTokenStore } from "./card-tokens.ts";
import type { BlockList } from "./blocks.ts";
import type { IpCountrySource, RiskRuleSource } from "./risk.ts";

/** Everything a payments use case may call, wired once by engine.ts (and by test/support/engine-deps.ts). */
export interface ProcessDeps {
  merchants: MerchantDirectory;
  orders: OrderStore;
  /** The hosted payment fields' card tokens (CONTRACT 12); absent: every card_token is refused as unknown. */
  cardTokens?: CardTokenStore;
  followUps: FollowUpStore;
  callbacks: CallbackLog;
  /** The operators' held blocks, looked up once per sale or payout before any processor or Validation call. */
  blocks: BlockList;
  /** The merchant's risk rules and their one counts query, read after the blocks and before any processor or Validation call. */
  risk: RiskRuleSource;
  /** The operator's IP country table (CASHIER_IP_COUNTRY_FILE); absent: no IP address's country is known. */
  ipCountries?: IpCountrySource;
  processors: ProcessorRegistry;
  keys: Keys;
  send: Send;
  /** Every delay, lease and horizon of the asynchronous life (schedule.ts). */
  schedule: Schedule;
  /** The time of day (clock.ts): one clock for every use case. */
  now: Clock;
  publicUrl: () => string;
  /** Tells this process's workers that something may be due now. */
  wake: () => void;
  /** Counts a processor's answer (metrics). */
  onProcessorOutcome?: (processor: string, type: string, outcome: string) => void;
  /** Tells an operator what a use case refused to apply (an acquirer webhook whose amount is not its attempt's): ids and amounts, never card data. */
  warn?: (fields: Record<string, unknown>, message: string) => void;
}
