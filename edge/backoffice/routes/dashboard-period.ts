/**
 * The dashboard's period (docs/backoffice.md, Work views): today (UTC, from
 * midnight), the last 7 or 30 days, or custom days (from and until, UTC,
 * until included, at most 31 days as the engine allows); the last 24 hours
 * when none is chosen, and the old ?hours=1..744 still read. A custom period
 * that is not understood is named, never replaced by another.
 */
import { dayRange } from "./date-filter.ts";

export type PeriodName = "24h" | "today" | "7d" | "30d" | "custom";

export interface Period {
  name: PeriodName;
  from: string;
  to: string;
  /** The window in ms, or undefined with the fields not understood. */
  window?: { start: number; end: number };
  bad: string[];
}

const HOUR = 3_600_000;
const MAX_MS = 31 * 24 * HOUR;

/** The period a dashboard request asks for, at `now`. */
export function periodOf(query: Record<string, unknown>, now: number): Period {
  const one = (k: string) => {
    const v = query[k];
    return String((Array.isArray(v) ? v[0] : v) ?? "")
      .trim()
      .slice(0, 32);
  };
  const name = one("period");
  const from = one("from");
  const to = one("to");
  if (name === "today") {
    const midnight = Math.floor(now / (24 * HOUR)) * 24 * HOUR;
    return { name, from, to, window: { start: midnight, end: now }, bad: [] };
  }
  if (name === "7d" || name === "30d") return { name, from, to, window: { start: now - (name === "7d" ? 7 : 30) * 24 * HOUR, end: now }, bad: [] };
  if (name === "custom") {
    const r = dayRange(from, to);
    const bad = [...r.bad];
    if (from === "" && !bad.includes("from")) bad.push("from");
    const start = r.window.startTime ? Number(r.window.startTime.seconds) * 1000 : undefined;
    const end = r.window.endTime ? Math.min(now, Number(r.window.endTime.seconds) * 1000) : now;
    if (bad.length === 0 && start !== undefined && (end <= start || end - start > MAX_MS)) bad.push("to");
    return bad.length === 0 && start !== undefined ? { name, from, to, window: { start, end }, bad } : { name, from, to, bad };
  }
  const hours = Math.min(744, Math.max(1, Number.parseInt(one("hours") || "24", 10) || 24));
  return { name: "24h", from, to, window: { start: now - Math.min(hours * HOUR, MAX_MS), end: now }, bad: [] };
}
