/**
 * A google.protobuf.Timestamp a caller sends -> a Date, or INVALID_ARGUMENT
 * naming the field. The type's own range is 0001-01-01 to 9999-12-31 with
 * nanos 0 to 999,999,999; outside it (seconds near 2^63, say) the Date is
 * invalid and would fail only deep in the query, as an INTERNAL.
 */
import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import { invalidArgument } from "./errors.ts";

/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z in epoch seconds. */
export const MIN_TIMESTAMP_SECONDS = -62_135_596_800n;
export const MAX_TIMESTAMP_SECONDS = 253_402_300_799n;

export function timeArgument(field: string, ts: Timestamp | undefined): Date | undefined {
  if (!ts) return undefined;
  if (ts.seconds < MIN_TIMESTAMP_SECONDS || ts.seconds > MAX_TIMESTAMP_SECONDS || ts.nanos < 0 || ts.nanos > 999_999_999) {
    throw invalidArgument(field, "must be a timestamp from 0001-01-01 to 9999-12-31 (nanos 0 to 999999999)");
  }
  return timestampDate(ts);
}
