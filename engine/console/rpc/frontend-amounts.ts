/**
 * A frontend's amounts as the console sends them (minor units of a currency) and as a frontend keeps them (the
 * merchant interface's wire unit: cents, or whole units for JPY, BHD, ...; CONTRACT 9), converted exactly by integer
 * arithmetic, never through a float: an amount the wire unit cannot carry (BHD 5.500, kept in whole dinars) is
 * refused, named by the request's field, rather than rounded. And the merchants-file parser's field names turned
 * back into the request's, so that a console form shows each refusal beside its own input.
 */
import { create } from "@bufbuild/protobuf";
import { FrontendLimitsSchema, FrontendSchema, type Frontend } from "../../../gen/cashier/admin/v1/merchant_pb.js";
import type { SetFrontendAmountsRequest } from "../../../gen/cashier/admin/v1/console_settings_service_pb.js";
import { ErrorDetailSchema } from "../../../gen/cashier/engine/v1/errors_pb.js";
import { currencyExponent, WHOLE_UNIT_CURRENCIES, wireUnitProblem } from "../../shared/money.ts";
import { invalidArgument } from "../../rpc/errors.ts";
import { RpcError } from "../../rpc/grpc-adapter.ts";

/** The request's limit fields by the parser's names. */
const LIMIT_KEYS = [
  ["deposit_min", "depositMinMinor", "depositMin"],
  ["deposit_max", "depositMaxMinor", "depositMax"],
  ["withdrawal_min", "withdrawalMinMinor", "withdrawalMin"],
  ["withdrawal_max", "withdrawalMaxMinor", "withdrawalMax"],
] as const;

/** Minor units -> the wire unit, exactly; undefined when the wire unit cannot carry it (or the currency is unknown). */
export function minorToWire(minor: bigint, currency: string): bigint | undefined {
  const exponent = currencyExponent(currency);
  if (exponent === undefined) return undefined;
  const shift = exponent - (WHOLE_UNIT_CURRENCIES.has(currency) ? 0 : 2);
  if (shift <= 0) return minor * 10n ** BigInt(-shift);
  const step = 10n ** BigInt(shift);
  return minor % step === 0n ? minor / step : undefined;
}

/** One amount of the request in the wire unit, or the refusal naming `field`. */
function wireOf(minor: bigint, currency: string, field: string): bigint {
  if (minor <= 0n) throw invalidArgument(field, "must be a positive amount in minor units");
  const wire = minorToWire(minor, currency);
  // An unknown currency is the currency field's fault, named by the parser; the amount passes as it is until then.
  if (currencyExponent(currency) === undefined) return minor;
  if (wire === undefined) throw invalidArgument(field, wireUnitProblem(currency));
  if (wire > BigInt(Number.MAX_SAFE_INTEGER)) throw invalidArgument(field, "is too large");
  return wire;
}

/** The request as the frontend's fields in the wire unit (AdminService's UpdateFrontend takes them so). */
export function frontendOfAmounts(req: SetFrontendAmountsRequest): Frontend {
  const base = req.baseCurrency.trim().toUpperCase();
  return create(FrontendSchema, {
    name: req.frontend,
    baseCurrency: base,
    currencies: req.currencies.map((c) => c.trim().toUpperCase()),
    depositPresets: req.depositPresetsMinor.map((p, i) => wireOf(p, base, `deposit_presets_minor[${i}]`)),
    limits: req.limits.map((l, i) => {
      const currency = l.currency.trim().toUpperCase();
      const bound = (k: (typeof LIMIT_KEYS)[number]) => {
        const v = l[k[1]];
        return v === undefined ? undefined : wireOf(v, currency, `limits[${i}].${k[0]}_minor`);
      };
      return create(FrontendLimitsSchema, {
        currency,
        depositMin: bound(LIMIT_KEYS[0]),
        depositMax: bound(LIMIT_KEYS[1]),
        withdrawalMin: bound(LIMIT_KEYS[2]),
        withdrawalMax: bound(LIMIT_KEYS[3]),
      });
    }),
  });
}

/**
 * The parser's field (frontend.limits.USD.deposit_max, frontend.deposit_presets[2], frontend.limits[1].currency)
 * as the request's (limits[0].deposit_max_minor, deposit_presets_minor[2], limits[1].currency).
 */
export function requestField(field: string, req: SetFrontendAmountsRequest): string {
  const f = field.replace(/^frontend\./, "");
  const preset = /^deposit_presets(\[\d+\])?$/.exec(f);
  if (preset) return `deposit_presets_minor${preset[1] ?? ""}`;
  const limit = /^limits\.([^.]+)(?:\.(\w+))?$/.exec(f);
  if (limit) {
    const i = req.limits.findIndex((l) => l.currency.trim().toUpperCase() === limit[1]);
    const at = i >= 0 ? `limits[${i}]` : "limits";
    if (!limit[2]) return i >= 0 ? `${at}.currency` : at;
    return LIMIT_KEYS.some(([name]) => name === limit[2]) ? `${at}.${limit[2]}_minor` : at;
  }
  return f;
}

/** A refusal of AdminService's UpdateFrontend with its fields renamed as the request's; anything else as it was. */
export function renamedRefusal(err: unknown, req: SetFrontendAmountsRequest): unknown {
  if (!(err instanceof RpcError)) return err;
  const detail = err.details.find((d) => d.schema === ErrorDetailSchema)?.message as { violations?: { field: string; description: string }[] } | undefined;
  const v = detail?.violations?.[0];
  if (!v) return err;
  return invalidArgument(requestField(v.field, req), v.description);
}
