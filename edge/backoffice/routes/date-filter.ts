/**
 * The console's date filters (transactions, the audit log, their exports):
 * `from` and `to` are days written YYYY-MM-DD, in UTC, `to` taking in its whole
 * day. A filter that is there but not such a day, or a `to` before `from`, is
 * named, never dropped: a search that quietly ignored it would show, or
 * export, every row as if it were the answer.
 */
import { timestampFromMs } from "@bufbuild/protobuf/wkt";

const DAY_MS = 86_400_000;

/** A YYYY-MM-DD day's start in UTC (ms); undefined for anything else, 2026-02-30 included. */
function dayStart(value: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value ? undefined : ms;
}

/** The engine's time window for `from` and `to`, and the names of those that are not understood. */
export function dayRange(from: string, to: string) {
  const start = from === "" ? undefined : dayStart(from);
  const end = to === "" ? undefined : dayStart(to);
  const bad: string[] = [];
  if (from !== "" && start === undefined) bad.push("from");
  if (to !== "" && end === undefined) bad.push("to");
  else if (start !== undefined && end !== undefined && end < start) bad.push("to");
  return {
    window: {
      ...(start !== undefined ? { startTime: timestampFromMs(start) } : {}),
      ...(end !== undefined ? { endTime: timestampFromMs(end + DAY_MS) } : {}),
    },
    bad,
  };
}
