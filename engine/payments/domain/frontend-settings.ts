/**
 * The settings of a frontend that shape its hosted Cashier (CONTRACT section
 * 9), with the contract's defaults in one place. Amounts are integers in the
 * wire unit of the currency they are read with (CONTRACT 3: minor units, whole
 * units for JPY, BHD and the other listed currencies), exactly as the
 * merchants file writes them, so a setting reads back as it was given.
 */
import type { CurrencyLimits } from "../../shared/money.ts";
import type { Branding } from "../../shared/branding.ts";

export interface FrontendSettings {
  /** Origins (scheme://host[:port]) that may frame the Cashier and receive its events; empty: no framing. */
  allowedOrigins: string[];
  /** Amounts offered as buttons on the deposit page, in the wire unit of the session's currency. */
  depositPresets: number[];
  /** Keyed by ISO 4217 code, each one of the frontend's currencies. */
  limits: Record<string, CurrencyLimits>;
  /** BCP 47 tag of the language when neither the session nor the browser names one the Cashier speaks. */
  defaultLocale: string;
  /** Whether the customer may keep a card after an approved deposit. */
  saveCards: boolean;
  /** Whether withdrawals go only to cards this customer deposited from at this merchant. */
  closedLoopWithdrawals: boolean;
  /** Whether the customer may cancel their own pending withdrawal (off: the UK Gambling Commission forbids it). */
  playerCancelWithdrawal: boolean;
  /** The merchant's name, colours and corners on its hosted Cashier (branding-spec.ts); absent: the Cashier's own look. */
  branding?: Branding;
}

/** CONTRACT 9's defaults: no framing, no presets, no limits, English, saved cards on, closed loop on, no cancel. */
export const DEFAULT_FRONTEND_SETTINGS: Readonly<FrontendSettings> = Object.freeze({
  allowedOrigins: [],
  depositPresets: [],
  limits: {},
  defaultLocale: "en",
  saveCards: true,
  closedLoopWithdrawals: true,
  playerCancelWithdrawal: false,
});

/** The four bounds' names as the merchants file and the proto spell them, with their field in CurrencyLimits. */
export const LIMIT_FIELDS = [
  ["deposit_min", "depositMin"],
  ["deposit_max", "depositMax"],
  ["withdrawal_min", "withdrawalMin"],
  ["withdrawal_max", "withdrawalMax"],
] as const satisfies readonly (readonly [string, keyof CurrencyLimits])[];
