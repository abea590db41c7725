/**
 * Processors by account name: the dispatcher the use cases go through. A use
 * case asks for a capability, not a processor: what a processor has not
 * declared is refused here, by name, as data (CAPABILITY_MISSING), so that
 * every caller answers the same sentence. A merchant's account (CONTRACT 11)
 * is opened through its connector's module, from the connectors list only.
 */
import { domainError, type DomainError } from "../../shared/errors.ts";
import type { ConnectorModule } from "./connector.ts";
import { CONNECTORS } from "./connectors.ts";
import { CAPABILITY_WORDS, type Capabilities, type Capability, type Processor } from "./processor.ts";

export type CapabilityResult<C extends Capability> = { ok: true; calls: Capabilities[C] } | { ok: false; error: DomainError };

/** The refusal of a capability a processor does not have (or of a processor that is not registered). */
export function capabilityMissing(processor: string, capability: Capability, registered = true): DomainError {
  const message = registered
    ? `processor ${processor} does not support ${CAPABILITY_WORDS[capability]}`
    : `processor ${processor} is not configured in this engine`;
  return domainError("CAPABILITY_MISSING", message, [{ field: "processor", description: message }]);
}

/** A merchant's account at an acquirer, as the registry needs it (ports/merchants.ts ProcessorAccount). */
export interface AccountSettings {
  /** The account's name: what `processors` and attempts name. */
  name: string;
  /** The connector it uses, from the connectors list. */
  connector: string;
  enabled: boolean;
  url: string;
  /** Opened in memory only. */
  credentials: Readonly<Record<string, string>>;
  settings: Record<string, unknown>;
}

/** Whose processors: a merchant with its accounts; without one, the engine's own accounts. */
export interface AccountHolder {
  id: string;
  processorAccounts: readonly AccountSettings[];
}

export interface RegistryOptions {
  /** The connectors accounts may name; the connectors list unless a test gives its own. */
  connectors?: readonly ConnectorModule<unknown>[];
  /** One processor call's limit, given to every account opened (the schedule's processor timeout). */
  timeoutMs?: number;
  /** True while the engine's own accounts' simulator (its child) is down and being restarted (engine/supervision.ts). */
  ownDown?: () => boolean;
}

export class ProcessorRegistry {
  readonly #byName = new Map<string, Processor>();
  readonly #connectors: ReadonlyMap<string, ConnectorModule<unknown>>;
  readonly #timeoutMs: number;
  readonly #ownDown: () => boolean;
  /** Processors opened from merchants' accounts, by merchant and account, with the account they were opened from. */
  readonly #opened = new Map<string, { fingerprint: string; processor: Processor | { refused: string } }>();

  /** `own`: the engine's own accounts (a merchant without an account of that name uses them). */
  constructor(own: Processor[], opts: RegistryOptions = {}) {
    for (const p of own) this.#byName.set(p.name, p);
    this.#connectors = new Map((opts.connectors ?? CONNECTORS).map((c) => [c.name, c]));
    this.#timeoutMs = opts.timeoutMs ?? 10_000;
    this.#ownDown = opts.ownDown ?? (() => false);
  }

  /**
   * Whether `name` (for `holder`) is known to be down: one of the engine's own accounts while their simulator is
   * being restarted. A call to it would be refused before anything is sent; the use case refuses the operation
   * as retryable instead of making an order that could only fail.
   */
  knownDown(name: string, holder?: AccountHolder): boolean {
    if (!this.#ownDown()) return false;
    return !holder?.processorAccounts.some((a) => a.name === name) && this.#byName.has(name);
  }

  /** The engine's own processor of `name` (the one merchants without an account of that name use). */
  get(name: string): Processor | undefined {
    return this.#byName.get(name);
  }

  /** The processor `name` as `holder` reaches it: through its account of that name when it has one. */
  #resolve(name: string, holder: AccountHolder | undefined): Processor | { refused: string } | undefined {
    const account = holder?.processorAccounts.find((a) => a.name === name);
    if (!account || !holder) return this.#byName.get(name);
    if (!account.enabled) return { refused: `processor ${name} is disabled for merchant ${holder.id}` };
    const key = `${holder.id}/${name}`;
    const fingerprint = JSON.stringify([account.connector, account.url, account.credentials, account.settings]);
    const cached = this.#opened.get(key);
    if (cached?.fingerprint === fingerprint) return cached.processor;
    const processor = this.#open(account);
    if (processor) this.#opened.set(key, { fingerprint, processor });
    return processor;
  }

  /** Opens one account through its connector; its settings were checked when written, and are checked again here. */
  #open(account: AccountSettings): Processor | { refused: string } | undefined {
    const connector = this.#connectors.get(account.connector);
    if (!connector) return undefined;
    const settings = connector.parseSettings(account.settings);
    if (!settings.ok) return { refused: `processor ${account.name} has settings its connector refuses: ${settings.faults.map((f) => f.field).join(", ")}` };
    return connector.open({ name: account.name, url: account.url, credentials: account.credentials, settings: settings.value, timeoutMs: this.#timeoutMs });
  }

  /** Whether `name` is reachable (for `holder`) and declares `capability`. */
  supports(name: string, capability: Capability, holder?: AccountHolder): boolean {
    const p = this.#resolve(name, holder);
    return p !== undefined && !("refused" in p) && p.capabilities[capability] !== undefined;
  }

  /** The calls of one capability of one processor (for `holder`, through its account), or its refusal by name. */
  capability<C extends Capability>(name: string, capability: C, holder?: AccountHolder): CapabilityResult<C> {
    const p = this.#resolve(name, holder);
    if (!p) return { ok: false, error: capabilityMissing(name, capability, false) };
    if ("refused" in p) return { ok: false, error: domainError("CAPABILITY_MISSING", p.refused, [{ field: "processor", description: p.refused }]) };
    const calls = p.capabilities[capability];
    return calls ? { ok: true, calls } : { ok: false, error: capabilityMissing(name, capability) };
  }
}

/**
 * The engine's own accounts at an acquirer simulator (ACQUIRER_SIM_URL): one
 * per connector the simulator gave a key for (ACQUIRER_SIM_KEYS), named after
 * it. They serve the default cascade of a merchant without accounts.
 */
export function ownAccounts(url: string, keys: Readonly<Record<string, string>>, timeoutMs: number, connectors = CONNECTORS): Processor[] {
  return connectors.flatMap((c) => {
    const key = keys[c.name];
    const settings = c.parseSettings({});
    if (key === undefined || !settings.ok) return [];
    return [c.open({ name: c.name, url, credentials: { api_key: key }, settings: settings.value, timeoutMs })];
  });
}
