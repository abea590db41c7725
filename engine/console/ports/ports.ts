/**
 * What the Backoffice's use cases need: the operator and audit stores, the
 * keys (token hashes, the sealed TOTP secrets), the clock, and the engine's
 * own ports for the reads and actions they delegate to.
 */
import type { Keys } from "../../security/keys.ts";
import type { PgAuditStore } from "../store/audit-store.ts";
import type { PgOperatorStore } from "../store/operator-store.ts";
import type { PgBackofficeStore } from "../store/backoffice-store.ts";
import type { Clock } from "../../shared/runtime/clock.ts";
import type { MerchantDirectory } from "../../payments/index.ts";

export interface BackofficeDeps {
  operators: PgOperatorStore;
  audit: PgAuditStore;
  backoffice: PgBackofficeStore;
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
