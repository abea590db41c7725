/**
 * JSON text with money as decimal literals. The PascalCase callbacks want
 * `Amount` as a JSON number written with the currency's decimals (USD 1050 ->
 * 10.50), which JSON.stringify cannot write (it would give 10.5). A Decimal
 * holds the literal, made from the integer by string arithmetic, and is
 * written as it is.
 */
import { formatMajor } from "../../shared/money.ts";

export class Decimal {
  readonly literal: string;
  constructor(minor: number | bigint, currency: string) {
    this.literal = formatMajor(minor, currency);
  }
}

export type JsonValue = string | number | boolean | null | Decimal;

/** Members in the given order; undefined members are left out. */
export function jsonText(obj: Record<string, JsonValue | undefined>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(obj)) {
    if (v === undefined) continue;
    parts.push(`${JSON.stringify(k)}:${v instanceof Decimal ? v.literal : JSON.stringify(v)}`);
  }
  return `{${parts.join(",")}}`;
}
