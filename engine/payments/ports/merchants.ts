/**
 * The merchants as the use cases see them: the directory Process reads (its
 * signing keys opened, possibly cached) and the operators' store of their
 * settings, frontends and processor accounts (decision 0007).
 */
import type { KeyObject } from "node:crypto";
import type { BrandLogo } from "../../shared/branding.ts";
import type { FrontendView } from "../../shared/transaction.ts";
import type { FrontendSettings } from "../domain/frontend-settings.ts";
import type { RiskRule } from "../domain/risk-rules.ts";
import type { RoutingRule } from "../domain/routing.ts";
import type { Tx } from "../../store/tx.ts";

/** A merchant's settings (CONTRACT section 1), as every part of the engine reads them. */
export interface MerchantSettingsView {
  siteId: number | null;
  platformUrl: string | null;
  validationUrl: string | null;
  updatePayoutUrl: string | null;
  updatePayoutStatuses: string;
  payoutApproval: "auto" | "manual";
  processors: string[];
  frontends: FrontendWithSettings[];
  /** Which cascade an attempt takes (CONTRACT 11), read in order; absent or empty: `processors` routes every one. */
  routingRules?: RoutingRule[];
}

/** A frontend with what shapes its hosted Cashier (CONTRACT 9). */
export interface FrontendWithSettings extends FrontendView {
  settings: FrontendSettings;
}

/**
 * A merchant's account at an acquirer (decision 0007, CONTRACT 11): several per
 * connector per merchant, named in `processors`; the credentials opened only
 * in memory, never returned nor logged.
 */
export interface ProcessorAccount {
  /** The account's name: in `processors`, in `payment_processor` answers and in the Backoffice. */
  name: string;
  /** The connector it uses (connectors.ts); the older form names an account after its connector. */
  connector: string;
  enabled: boolean;
  /** The acquirer's base URL. */
  url: string;
  /** Write-only: sealed in the store as one JSON object. */
  credentials: Record<string, string>;
  /** As the connector's parseSettings accepted them. */
  settings: Record<string, unknown>;
}

/** A merchant as a request meets it: its settings, its accounts and its keys (opened, in memory only). */
export interface Merchant extends MerchantSettingsView {
  id: string;
  /** Accounts by name; a name in `processors` without one uses the engine's own account of that name. */
  processorAccounts: ProcessorAccount[];
  /** Current secret, opened into a key: only ever used to sign and verify. */
  signingKey: KeyObject;
  /** The secret before the last rotation, still accepted on requests until previousKeyExpiresAt. */
  previousKey: KeyObject | null;
  previousKeyExpiresAt: Date | null;
}

/** Where a request finds its merchant. */
export interface MerchantDirectory {
  /** A merchant, possibly cached for a few seconds; `fresh` reads the database. */
  get(merchantId: string, opts?: { fresh?: boolean }): Promise<Merchant | undefined>;
}

/** A merchant as written to the store, from the merchants file, the command line or AdminService. */
export interface MerchantSpec {
  merchantId: string;
  secret: string;
  siteId?: number | null;
  platformUrl?: string | null;
  validationUrl?: string | null;
  updatePayoutUrl?: string | null;
  updatePayoutStatuses?: string;
  payoutApproval?: "auto" | "manual";
  processors?: string[];
  frontends: FrontendSpec[];
  /** Given: the merchant's accounts are exactly these (an empty list removes them). Absent: left as they are. */
  processorAccounts?: ProcessorAccount[];
  /** Given: the merchant's routing rules are exactly these (an empty list removes them). Absent: left as they are. */
  routingRules?: RoutingRule[];
  /**
   * The merchants file's `risk_rules` (always given for a file entry, [] when it lists none): at start they replace
   * the merchant's rules of source `file`, never the console's (console/app/file-risk-rules.ts). Ids are 0.
   */
  riskRules?: readonly RiskRule[];
}

/** A frontend as written to the store; absent settings take CONTRACT 9's defaults. */
export interface FrontendSpec {
  name: string;
  baseCurrency: string;
  currencies?: string[];
  settings?: FrontendSettings;
}

/** A merchant as operators see it: everything but its secrets. */
export interface MerchantView extends MerchantSettingsView {
  merchantId: string;
  createdAt: Date;
  updatedAt: Date;
  /** Until when the previous secret is accepted; null when none is. */
  previousSecretExpiresAt: Date | null;
}

/** What an operator may change of a merchant: its spec less its identity, secret, frontends and accounts. */
export type MerchantSettings = Omit<MerchantSpec, "merchantId" | "secret" | "frontends" | "processorAccounts" | "routingRules" | "riskRules">;

/** The operators' reads and changes of merchants (AdminService, the Backoffice). */
export interface MerchantAdminStore {
  view(merchantId: string): Promise<MerchantView | undefined>;
  list(afterId: string | undefined, limit: number): Promise<MerchantView[]>;
  create(spec: MerchantSpec): Promise<boolean>;
  update(merchantId: string, settings: MerchantSettings, only?: ReadonlySet<keyof MerchantSettings>): Promise<boolean>;
  rotateSecret(merchantId: string, newSecret: string, overlapSeconds: number): Promise<boolean>;
  putFrontend(merchantId: string, f: Required<FrontendSpec>, mode: "create" | "update"): Promise<"ok" | "no-merchant" | "exists" | "no-frontend" | "no-logo">;
  /** Stores a checked logo by its SHA-256 (a repeat changes nothing), for a preview whose save names it by hash. */
  keepLogo(logo: BrandLogo): Promise<void>;
  /** Creates or replaces one processor account; false when there is no such merchant. */
  setProcessorAccount(merchantId: string, account: ProcessorAccount): Promise<boolean>;
  /** A merchant's accounts without their credentials; undefined when there is no such merchant. */
  processorAccounts(merchantId: string): Promise<ProcessorAccountView[] | undefined>;
  /**
   * One account with its credentials opened (in the engine's memory only), so that a change keeps the credentials
   * an operator did not type again; undefined when the merchant has none of that name.
   */
  processorAccount(merchantId: string, name: string): Promise<ProcessorAccount | undefined>;
  /** Removes one account; false when the merchant has none of that name. */
  removeProcessorAccount(merchantId: string, name: string): Promise<boolean>;
  /** Replaces the merchant's routing rules; false when there is no such merchant. */
  setRoutingRules(merchantId: string, rules: readonly RoutingRule[]): Promise<boolean>;
  /**
   * Takes the merchant's row lock until the caller's transaction (`within`) ends, so that a check of its accounts,
   * processors and rules still holds when the change it allows is written; false when there is no such merchant.
   */
  lock(merchantId: string): Promise<boolean>;
  /**
   * Runs `fn` in one database transaction that view, update, rotateSecret and
   * putFrontend join (with `tx` for more writes in it, such as an audit row),
   * then forgets the merchant's cached copy once it has committed.
   */
  within<T>(merchantId: string, fn: (tx: Tx) => Promise<T>): Promise<T>;
}

/** A processor account as operators see it: everything but the credentials, of which only the names set. */
export type ProcessorAccountView = Omit<ProcessorAccount, "credentials"> & { updatedAt: Date; credentialNames: string[] };
