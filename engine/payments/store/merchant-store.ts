/**
 * Merchants and frontends. Secrets are sealed with the master key before they
 * are written and opened only into the in-memory directory (merchant-cache.ts),
 * which keeps each merchant for a few seconds so the hot path does not read it
 * on every call (a change made through another engine takes effect here within
 * that time); a change made here forgets it at once.
 * The operator's view never carries a secret.
 */
import { type InferEntity, LockMode, UniqueConstraintViolationException } from "@mikro-orm/core";
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import { DEFAULT_FRONTEND_SETTINGS } from "../domain/frontend-settings.ts";
import { MERCHANT_ID } from "../../shared/transaction.ts";
import type { RoutingRule } from "../domain/routing.ts";
import type {
  FrontendSpec,
  Merchant,
  MerchantAdminStore,
  MerchantDirectory,
  MerchantSettings,
  MerchantSpec,
  MerchantView,
  ProcessorAccount,
  ProcessorAccountView,
} from "../ports/merchants.ts";
import { open, seal } from "../../security/sealed-box.ts";
import { hmacKey } from "../../shared/hmac.ts";
import { DEFAULT_PROCESSORS } from "../processors/connectors.ts";
import type { KeyObject } from "node:crypto";
import { FrontendEntity } from "../../store/entities/frontend.entity.ts";
import { keepBrandLogo, storedBranding } from "./brand-logo-store.ts";
import { type BrandLogo, DEFAULT_BRAND_LOOK, UnknownLogoError } from "../../shared/branding.ts";
import { MerchantEntity } from "../../store/entities/merchant.entity.ts";
import { ProcessorAccountEntity } from "../../store/entities/processor-account.entity.ts";
import { settingsOf } from "./mappers.ts";
import { MerchantCache } from "./merchant-cache.ts";
import { type Tx, txOf } from "../../store/tx.ts";
import { type Clock, systemClock } from "../../shared/runtime/clock.ts";

const aad = (merchantId: string) => `merchant-secret:${merchantId}`;
/** A processor account's credentials are bound to their merchant and account: a sealed value cannot be moved to another row. */
const accountAad = (merchantId: string, account: string) => `processor-account:${merchantId}:${account}`;

/** An account's columns: its credentials sealed as one JSON object (017). */
function accountColumns(key: KeyObject, merchantId: string, a: ProcessorAccount) {
  return {
    connector: a.connector,
    enabled: a.enabled,
    endpointUrl: a.url,
    credentialsSealed: seal(key, JSON.stringify(a.credentials), accountAad(merchantId, a.name)),
    credentialsForm: "json" as const,
    settings: a.settings,
  };
}

/** A row's credentials opened: one JSON object, or (written before 017) one API key. */
function openCredentials(
  key: KeyObject,
  merchantId: string,
  row: { name: string; credentialsSealed: string; credentialsForm: string },
): Record<string, string> {
  const opened = open(key, row.credentialsSealed, accountAad(merchantId, row.name));
  return row.credentialsForm === "json" ? (JSON.parse(opened) as Record<string, string>) : { api_key: opened };
}

/** Settings -> the row's columns, with the CONTRACT's defaults. */
function columnsOf(s: MerchantSettings) {
  return {
    siteId: s.siteId ?? null,
    platformUrl: s.platformUrl ?? null,
    validationUrl: s.validationUrl ?? null,
    updatePayoutUrl: s.updatePayoutUrl ?? null,
    updatePayoutStatuses: s.updatePayoutStatuses ?? "CAPYJ",
    payoutApproval: s.payoutApproval ?? "auto",
    processors: s.processors ?? [...DEFAULT_PROCESSORS],
  };
}

/** A frontend's columns, with the CONTRACT's defaults for what the spec leaves out. */
function frontendColumnsOf(f: FrontendSpec) {
  const settings = f.settings ?? DEFAULT_FRONTEND_SETTINGS;
  return {
    baseCurrency: f.baseCurrency,
    currencies: f.currencies && f.currencies.length > 0 ? f.currencies : [f.baseCurrency],
    allowedOrigins: [...settings.allowedOrigins],
    depositPresets: [...settings.depositPresets],
    limits: { ...settings.limits },
    defaultLocale: settings.defaultLocale,
    saveCards: settings.saveCards,
    closedLoopWithdrawals: settings.closedLoopWithdrawals,
    playerCancelWithdrawal: settings.playerCancelWithdrawal,
    branding: storedBranding(settings.branding),
  };
}

export class PgMerchantStore implements MerchantDirectory, MerchantAdminStore {
  readonly #orm: MikroORM;
  readonly #key: KeyObject;
  readonly #cache: MerchantCache<Merchant>;
  readonly #now: Clock;

  /** `now`: the service's clock (app/clock.ts), on which a secret's overlap is set and read. */
  constructor(orm: MikroORM, encryptionKey: KeyObject, ttlMs = 5000, now: Clock = systemClock) {
    this.#orm = orm;
    this.#key = encryptionKey;
    this.#cache = new MerchantCache((id) => this.#load(id), { ttlMs });
    this.#now = now;
  }

  /**
   * An entity manager that joins the caller's open ORM transaction, if any
   * (a Backoffice change and its audit row commit together), else its own.
   * Only the operators' reads and changes use it; the directory never does.
   */
  #joined(): EntityManager {
    return this.#orm.em.fork({ keepTransactionContext: true });
  }

  async within<T>(merchantId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await this.#orm.em.fork().transactional((em) => fn(txOf(em)));
    } finally {
      // The changes forgot it before their commit; a read in between may have cached the old merchant again.
      this.#cache.invalidate(merchantId);
    }
  }

  /** The merchant, from the cache when it is fresh (or `fresh` asks for the database, at most once a second). */
  async get(merchantId: string, opts: { fresh?: boolean } = {}): Promise<Merchant | undefined> {
    // An id no merchant can have is none, without a query: a caller's NUL would otherwise be the driver's error (500).
    if (!MERCHANT_ID.test(merchantId)) return undefined;
    return this.#cache.get(merchantId, opts);
  }

  async #load(merchantId: string): Promise<Merchant | undefined> {
    const m = await this.#orm.em
      .fork()
      .findOne(MerchantEntity, { id: merchantId }, { populate: ["frontends"], populateOrderBy: { frontends: { id: "asc" } }, strategy: "select-in" });
    if (!m) return undefined;
    return {
      id: m.id,
      signingKey: hmacKey(open(this.#key, m.secretSealed, aad(m.id))),
      previousKey: m.previousSecretSealed ? hmacKey(open(this.#key, m.previousSecretSealed, aad(m.id))) : null,
      previousKeyExpiresAt: m.previousSecretExpiresAt ?? null,
      ...settingsOf(m, m.frontends.getItems()),
      processorAccounts: await this.#accounts(m.id),
    };
  }

  /** The merchant's processor accounts, their keys opened (in memory only). */
  async #accounts(merchantId: string): Promise<ProcessorAccount[]> {
    const rows = await this.#orm.em.fork().find(ProcessorAccountEntity, { merchant: merchantId }, { orderBy: { id: "asc" } });
    return rows.map((a) => this.#account(merchantId, a));
  }

  /** One stored account as the engine uses it, its credentials opened (in memory only). */
  #account(merchantId: string, a: InferEntity<typeof ProcessorAccountEntity>): ProcessorAccount {
    return {
      name: a.name,
      connector: a.connector,
      enabled: a.enabled,
      url: a.endpointUrl,
      credentials: openCredentials(this.#key, merchantId, a),
      settings: a.settings,
    };
  }

  /** Creates or updates a merchant and its listed frontends in one transaction. */
  async upsert(spec: MerchantSpec, opts: { onlyNew?: boolean } = {}): Promise<void> {
    await this.#joined().transactional(async (em) => {
      const data = {
        secretSealed: seal(this.#key, spec.secret, aad(spec.merchantId)),
        ...columnsOf(spec),
        ...(spec.routingRules ? { routingRules: spec.routingRules } : {}),
      };
      const existing = opts.onlyNew ? null : await em.findOne(MerchantEntity, { id: spec.merchantId });
      if (existing) em.assign(existing, data);
      else em.create(MerchantEntity, { id: spec.merchantId, ...data });
      for (const f of spec.frontends) {
        if (!(await keepBrandLogo(em, f.settings?.branding))) throw new UnknownLogoError(f.name);
        const columns = frontendColumnsOf(f);
        const fe = await em.findOne(FrontendEntity, { merchant: spec.merchantId, name: f.name });
        if (fe) em.assign(fe, columns);
        else em.create(FrontendEntity, { merchant: spec.merchantId, name: f.name, ...columns });
      }
      if (spec.processorAccounts) {
        // The file's list is the whole truth: accounts not listed are removed.
        await em.flush();
        await em.nativeDelete(ProcessorAccountEntity, { merchant: spec.merchantId, name: { $nin: spec.processorAccounts.map((a) => a.name) } });
        for (const a of spec.processorAccounts) {
          const data = accountColumns(this.#key, spec.merchantId, a);
          const existing = await em.findOne(ProcessorAccountEntity, { merchant: spec.merchantId, name: a.name });
          if (existing) em.assign(existing, data);
          else em.create(ProcessorAccountEntity, { merchant: spec.merchantId, name: a.name, ...data });
        }
      }
    });
    this.#cache.invalidate(spec.merchantId);
  }

  async setProcessorAccount(merchantId: string, a: ProcessorAccount): Promise<boolean> {
    const done = await this.#joined().transactional(async (em) => {
      if (!(await em.findOne(MerchantEntity, { id: merchantId }))) return false;
      const data = accountColumns(this.#key, merchantId, a);
      const existing = await em.findOne(ProcessorAccountEntity, { merchant: merchantId, name: a.name });
      if (existing) em.assign(existing, data);
      else em.create(ProcessorAccountEntity, { merchant: merchantId, name: a.name, ...data });
      return true;
    });
    this.#cache.invalidate(merchantId);
    return done;
  }

  async processorAccounts(merchantId: string): Promise<ProcessorAccountView[] | undefined> {
    const em = this.#joined();
    if (!(await em.findOne(MerchantEntity, { id: merchantId }))) return undefined;
    const rows = await em.find(ProcessorAccountEntity, { merchant: merchantId }, { orderBy: { name: "asc" } });
    return rows.map((a) => ({
      name: a.name,
      connector: a.connector,
      enabled: a.enabled,
      url: a.endpointUrl,
      settings: a.settings,
      updatedAt: a.updatedAt,
      // Opened here only to tell which names are set; the values stay in this function.
      credentialNames: Object.keys(openCredentials(this.#key, merchantId, a)).sort(),
    }));
  }

  async processorAccount(merchantId: string, name: string): Promise<ProcessorAccount | undefined> {
    const a = await this.#joined().findOne(ProcessorAccountEntity, { merchant: merchantId, name });
    return a ? this.#account(merchantId, a) : undefined;
  }

  async removeProcessorAccount(merchantId: string, name: string): Promise<boolean> {
    const removed = await this.#joined().nativeDelete(ProcessorAccountEntity, { merchant: merchantId, name });
    this.#cache.invalidate(merchantId);
    return removed > 0;
  }

  async setRoutingRules(merchantId: string, rules: readonly RoutingRule[]): Promise<boolean> {
    const updated = await this.#joined().nativeUpdate(MerchantEntity, { id: merchantId }, { routingRules: [...rules], updatedAt: this.#now() });
    this.#cache.invalidate(merchantId);
    return updated > 0;
  }

  async lock(merchantId: string): Promise<boolean> {
    const m = await this.#joined().findOne(MerchantEntity, { id: merchantId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    return m !== null;
  }

  /** The operator's view, without secrets. */
  async view(merchantId: string): Promise<MerchantView | undefined> {
    const [v] = await this.#views({ id: merchantId }, 1);
    return v;
  }

  /** Merchants by merchant_id, after the given one. */
  async list(afterId: string | undefined, limit: number): Promise<MerchantView[]> {
    return this.#views(afterId ? { id: { $gt: afterId } } : {}, limit);
  }

  async #views(where: { id: string | { $gt: string } } | Record<string, never>, limit: number): Promise<MerchantView[]> {
    const ms = await this.#joined().find(MerchantEntity, where, {
      orderBy: { id: "asc" },
      limit,
      populate: ["frontends"],
      populateOrderBy: { frontends: { id: "asc" } },
      strategy: "select-in",
    });
    const now = this.#now();
    return ms.map((m) => ({
      merchantId: m.id,
      ...settingsOf(m, m.frontends.getItems()),
      createdAt: m.createdAt,
      updatedAt: m.updatedAt,
      previousSecretExpiresAt: m.previousSecretExpiresAt && m.previousSecretExpiresAt > now ? m.previousSecretExpiresAt : null,
    }));
  }

  /** A new merchant; false when the merchant_id is taken. */
  async create(spec: MerchantSpec): Promise<boolean> {
    if (await this.#joined().findOne(MerchantEntity, { id: spec.merchantId })) return false;
    try {
      await this.upsert(spec, { onlyNew: true });
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException) return false;
      throw err;
    }
    return true;
  }

  /** Changes a merchant's settings (not its secret, not its frontends); false when there is no such merchant. */
  async update(merchantId: string, settings: MerchantSettings, only?: ReadonlySet<keyof MerchantSettings>): Promise<boolean> {
    const columns = columnsOf(settings);
    // Only the fields asked for are written: two operators changing different fields do not undo each other.
    const patch = only ? Object.fromEntries(Object.entries(columns).filter(([k]) => only.has(k as keyof MerchantSettings))) : columns;
    const updated = await this.#joined().nativeUpdate(MerchantEntity, { id: merchantId }, { ...patch, updatedAt: this.#now() });
    this.#cache.invalidate(merchantId);
    return updated > 0;
  }

  /**
   * A new secret at once; the current one becomes the previous, accepted on
   * requests for `overlapSeconds` more. False when there is no such merchant.
   */
  async rotateSecret(merchantId: string, newSecret: string, overlapSeconds: number): Promise<boolean> {
    const done = await this.#joined().transactional((em) => this.#rotate(em, merchantId, newSecret, overlapSeconds));
    this.#cache.invalidate(merchantId);
    return done;
  }

  async #rotate(em: EntityManager, merchantId: string, newSecret: string, overlapSeconds: number): Promise<boolean> {
    const m = await em.findOne(MerchantEntity, { id: merchantId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!m) return false;
    // Sending the same rotation again (a retry after a timeout) changes nothing.
    if (open(this.#key, m.secretSealed, aad(merchantId)) === newSecret) return true;
    em.assign(m, {
      previousSecretSealed: m.secretSealed,
      previousSecretExpiresAt: new Date(this.#now().getTime() + overlapSeconds * 1000),
      secretSealed: seal(this.#key, newSecret, aad(merchantId)),
    });
    return true;
  }

  /** Adds ("create") or changes ("update") one frontend; the outcome says which failed. */
  async putFrontend(
    merchantId: string,
    f: Required<FrontendSpec>,
    mode: "create" | "update",
  ): Promise<"ok" | "no-merchant" | "exists" | "no-frontend" | "no-logo"> {
    const outcome = await this.#joined().transactional(async (em) => {
      if (!(await em.findOne(MerchantEntity, { id: merchantId }))) return "no-merchant" as const;
      const fe = await em.findOne(FrontendEntity, { merchant: merchantId, name: f.name });
      if (mode === "create" && fe) return "exists" as const;
      if (mode === "update" && !fe) return "no-frontend" as const;
      if (!(await keepBrandLogo(em, f.settings.branding))) return "no-logo" as const;
      const columns = frontendColumnsOf(f);
      if (fe) em.assign(fe, columns);
      else em.create(FrontendEntity, { merchant: merchantId, name: f.name, ...columns });
      return "ok" as const;
    });
    this.#cache.invalidate(merchantId);
    return outcome;
  }

  async keepLogo(logo: BrandLogo): Promise<void> {
    await keepBrandLogo(this.#orm.em.fork(), { displayName: "", ...DEFAULT_BRAND_LOOK, logoSha256: logo.sha256, newLogo: logo });
  }

  async count(): Promise<number> {
    return this.#orm.em.fork().count(MerchantEntity, {});
  }
}
