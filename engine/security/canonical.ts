/**
 * The canonical string of a flat JSON object (CONTRACT section 2): every member
 * but `signature`, nulls dropped, sorted by name in code-unit order,
 * `name=value` joined with `&`. Used by the engine to sign what it sends (Process
 * replies, notifications) and by the edge to hand the engine what it received.
 */
export type Scalar = string | number | boolean | null | undefined;

export function canonicalString(obj: Record<string, Scalar>): string {
  const names = Object.keys(obj).filter((k) => k !== "signature" && obj[k] !== null && obj[k] !== undefined);
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return names.map((k) => `${k}=${String(obj[k])}`).join("&");
}
