/**
 * The rules a merchant's settings must meet, wherever they come from (the
 * merchants file at start, or an operator through cashier.admin.v1): one
 * parser, snake_case in, a MerchantSpec out, and a message naming the first
 * bad field (`merchants[0].frontends[1].base_currency must be an ISO 4217 code`).
 */
import { isCurrency } from "../../shared/money.ts";
import { MERCHANT_ID } from "../../shared/transaction.ts";
import { DEFAULT_PROCESSORS } from "../processors/connectors.ts";
import { onceEach } from "../domain/once-each.ts";
import type { FrontendSpec, MerchantSpec } from "../ports/merchants.ts";
import { parseFrontendSettings } from "./frontend-settings-spec.ts";
import { str, url } from "./spec-fields.ts";
import { parseProcessorAccounts } from "./processor-accounts-spec.ts";
import { MerchantsFileError } from "./merchant-errors.ts";
import { parseFileRiskRules } from "./risk-rules-spec.ts";
import { parseRoutingRules } from "./routing-spec.ts";

export { MerchantsFileError, parseProcessorAccounts };

/**
 * A merchant secret's least length for a new one from an operator (it keys every signature). The merchants file,
 * whose format the contract sets without a length, is warned about at start instead.
 */
export const MIN_SECRET_LENGTH = 16;

/** Parses and checks the merchants file (CONTRACT section 1), naming the first bad entry. */
export function parseMerchantsFile(text: string): MerchantSpec[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new MerchantsFileError("", `not JSON: ${(err as Error).message}`);
  }
  const list = (doc as { merchants?: unknown })?.merchants;
  if (!Array.isArray(list)) throw new MerchantsFileError("", 'must be {"merchants": [...]}');
  // Risk rules are the file's alone (AdminService has no such field; the console has its own service for them).
  const specs = list.map((raw, i) => {
    const spec = parseMerchantEntry(raw, `merchants[${i}]`);
    return { ...spec, riskRules: parseFileRiskRules((raw as Record<string, unknown>).risk_rules, `merchants[${i}].risk_rules`, spec.merchantId) };
  });
  // Two entries of one merchant would be merged silently, the later one's settings winning field by field.
  const twice = specs.findIndex((m, i) => specs.findIndex((n) => n.merchantId === m.merchantId) !== i);
  if (twice >= 0) {
    const first = specs.findIndex((n) => n.merchantId === specs[twice].merchantId);
    throw new MerchantsFileError(`merchants[${twice}].merchant_id`, `repeats merchants[${first}]'s ${specs[twice].merchantId}: list each merchant once`);
  }
  return specs;
}

/** A frontend entry: name, ISO 4217 base currency, accepted currencies (default [base]), the hosted Cashier's settings. */
export function parseFrontend(fr: unknown, fw: string): Required<FrontendSpec> {
  if (typeof fr !== "object" || fr === null) throw new MerchantsFileError(`${fw}`, `must be an object`);
  const f = fr as Record<string, unknown>;
  const name = str(f, "name", fw, true)!;
  if (name.length > 256) throw new MerchantsFileError(`${fw}.name`, `must be at most 256 characters`);
  const base = str(f, "base_currency", fw, true)!;
  if (!isCurrency(base)) throw new MerchantsFileError(`${fw}.base_currency`, `must be an ISO 4217 code`);
  const currencies = f.currencies ?? [base];
  if (!Array.isArray(currencies) || !currencies.every((c) => typeof c === "string" && isCurrency(c))) {
    throw new MerchantsFileError(`${fw}.currencies`, `must be a list of ISO 4217 codes`);
  }
  const accepted = currencies.length > 0 ? (currencies as string[]) : [base];
  // A frontend takes its own base currency: one that refused sales in it would be a slip in its settings.
  if (!accepted.includes(base)) throw new MerchantsFileError(`${fw}.currencies`, `must include the base_currency ${base}`);
  return { name, baseCurrency: base, currencies: accepted, settings: parseFrontendSettings(f, fw, accepted) };
}

/** The spellings of "no letter": the merchants file's "" and the word the AdminService writes for it. */
const NO_LETTERS = new Set<unknown>(["", "none"]);

/**
 * One merchant entry of the file's format. `opts.accounts`: the names of accounts the merchant already holds
 * (AdminService's UpdateMerchant, which gives no processor_accounts), which `processors` may name too.
 */
export function parseMerchantEntry(raw: unknown, where: string, opts: { accounts?: readonly string[] } = {}): MerchantSpec {
  if (typeof raw !== "object" || raw === null) throw new MerchantsFileError(`${where}`, `must be an object`);
  const m = raw as Record<string, unknown>;
  const merchantId = str(m, "merchant_id", where, true)!;
  if (!MERCHANT_ID.test(merchantId)) throw new MerchantsFileError(`${where}.merchant_id`, `must be 1 to 50 letters, digits, '.', '_', ':' or '-'`);
  // "" (or "none"): no letter sends UpdatePayout, for a platform that never built that deprecated call.
  const statuses = NO_LETTERS.has(m.update_payout_statuses) ? "" : (str(m, "update_payout_statuses", where, false) ?? "CAPYJ");
  if (!/^[CAPYJ]*$/.test(statuses))
    throw new MerchantsFileError(`${where}.update_payout_statuses`, `must be letters of CAPYJ, or "none" (or "") for no UpdatePayout`);
  const approval = str(m, "payout_approval", where, false) ?? "auto";
  if (approval !== "auto" && approval !== "manual") throw new MerchantsFileError(`${where}.payout_approval`, `must be auto or manual`);
  const accounts = m.processor_accounts === undefined ? undefined : parseProcessorAccounts(m.processor_accounts, `${where}.processor_accounts`);
  // `processors` names accounts (CONTRACT 11): the merchant's own, or the engine's own accounts of the default cascade.
  const known = new Set<string>([...DEFAULT_PROCESSORS, ...(accounts ?? []).map((a) => a.name), ...(opts.accounts ?? [])]);
  const processors = m.processors ?? [...DEFAULT_PROCESSORS];
  if (!Array.isArray(processors) || processors.length === 0 || !processors.every((p) => typeof p === "string" && known.has(p))) {
    throw new MerchantsFileError(`${where}.processors`, `must be a non-empty list of account names: ${[...known].join(", ")}`);
  }

  const siteId = m.site_id;
  if (siteId !== undefined && siteId !== null && (!Number.isInteger(siteId) || (siteId as number) < 0))
    throw new MerchantsFileError(`${where}.site_id`, `must be a non-negative integer`);
  if (!Array.isArray(m.frontends) || m.frontends.length === 0) throw new MerchantsFileError(`${where}.frontends`, `must be a non-empty list`);
  const frontends = m.frontends.map((fr, j) => parseFrontend(fr, `${where}.frontends[${j}]`));
  const twice = frontends.findIndex((f, j) => frontends.findIndex((g) => g.name === f.name) !== j);
  if (twice >= 0) throw new MerchantsFileError(`${where}.frontends[${twice}].name`, `repeats the name ${frontends[twice].name}`);
  const secret = str(m, "secret", where, true)!;
  return {
    merchantId,
    secret,
    siteId: (siteId as number | undefined) ?? null,
    platformUrl: url(m, "platform_url", where),
    validationUrl: url(m, "validation_url", where),
    updatePayoutUrl: url(m, "update_payout_url", where),
    // Each once, in the order given: a processor listed twice would be tried twice in one cascade (the customer's
    // card sent again to the acquirer that just said retry elsewhere). Taken once rather than refused, so that a
    // file or a stored merchant that lists one twice still starts and updates (mappers.ts reads stored ones so too).
    updatePayoutStatuses: onceEach(statuses),
    payoutApproval: approval,
    processors: onceEach(processors as string[]),
    frontends,
    ...(accounts ? { processorAccounts: accounts } : {}),
    // The file is the whole truth of a merchant's rules: none listed, none kept. A rule may name any account the
    // merchant can use: its processors and its accounts (by name).
    routingRules: parseRoutingRules(m.routing_rules, `${where}.routing_rules`, onceEach([...(processors as string[]), ...(accounts ?? []).map((a) => a.name)])),
  };
}
