/**
 * What the Backoffice's use cases need: the operators' records (operators,
 * sign-ins, enrolment, console sessions, passkeys, one transaction across
 * them), the audit log, the Backoffice's own records, the keys (token hashes,
 * the sealed TOTP secrets), the clock, and the engine's own ports for the
 * reads and actions they delegate to. Interfaces only: the Pg stores in
 * engine/console/store/ implement them.
 */
import type { Keys } from "../../security/keys.ts";
import type { Clock } from "../../shared/runtime/clock.ts";
import type { MerchantDirectory } from "../../payments/index.ts";
import type { AuditLog } from "./audit.ts";
import type { BackofficeRecords } from "./backoffice.ts";
import type { ConsoleSessionStore } from "./console-sessions.ts";
import type { EnrolmentStore } from "./enrolment.ts";
import type { OperatorStore } from "./operators.ts";
import type { PasskeyStore } from "./passkeys.ts";
import type { PreferenceStore } from "./preferences.ts";
import type { SignInStore } from "./sign-ins.ts";
import type { Transactions } from "./transactions.ts";

/**
 * Everything kept of operators, as one port (`deps.operators`): each record kind is its own store
 * (engine/console/store/operator-accounts.ts puts them together), and one transaction joins any of them.
 */
export interface OperatorAccounts extends Transactions, OperatorStore, SignInStore, EnrolmentStore, ConsoleSessionStore, PasskeyStore, PreferenceStore {}

/** The Backoffice's use cases' dependencies, wired by engine.ts and operator-cli.ts. */
export interface BackofficeDeps {
  operators: OperatorAccounts;
  audit: AuditLog;
  backoffice: BackofficeRecords;
  merchants: MerchantDirectory;
  keys: Keys;
  now: Clock;
}

/** Who asks and from where, as the console tells it. */
export interface ConsoleCaller {
  sessionToken: string;
  clientAddress: string;
  userAgent: string;
  origin: string;
}
