/**
 * The merchant interface's JSON typing, one rule set for every signed body the
 * edge decodes (Process, session start): every member's name can stand in the
 * canonical string (not empty, no `&`, `=` or control character), no member may
 * hold an object or an array, string members are strings, integer members JSON
 * integers, and `phone` a JSON integer or a string of digits. What breaks it travels to the
 * engine as typed findings, named by member, in the same call.
 */
import { WireViolationKind } from "../../gen/cashier/engine/v1/engine_service_pb.js";

/** A member whose JSON type the interface does not allow, and how. */
export interface WireViolation {
  field: string;
  kind: WireViolationKind;
}

export type Body = Record<string, unknown>;

/** A member name as it may be echoed in a reply: the caller chose it, so only [A-Za-z0-9_], at most 50. */
function memberName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9_]/g, "_").slice(0, 50);
  return safe === name ? name : `${safe} (renamed)`;
}

/**
 * Empty, holding what joins the canonical string (`&`, `=`), a control
 * character or half of a surrogate pair (a JSON escape such as \ud800, which
 * signs as U+FFFD), or `__proto__`, which no object the edge builds can hold
 * as a member of its own.
 */
const BAD_NAME = /^$|^__proto__$|[&=]|\p{Cc}|\p{Surrogate}/u;
/** Half of a surrogate pair alone: JSON can escape one, but it is no Unicode text (it would sign and store as U+FFFD). */
const LONE_SURROGATE = /\p{Surrogate}/u;

/** A JSON integer past 2^53 - 1 either way: JSON.parse has already rounded it (1e21 included, Infinity not). */
const tooLarge = (v: unknown): boolean => typeof v === "number" && Number.isInteger(v) && !Number.isSafeInteger(v);

/** Members of `body` whose JSON type breaks the interface, given which members are strings and which integers. */
export function typeViolations(body: Body, members: { strings: readonly string[]; integers: readonly string[] }): WireViolation[] {
  const out: WireViolation[] = [];
  for (const [name, value] of Object.entries(body)) {
    // A null member is no member (the canonical string drops it), whatever its name.
    if (value !== null && BAD_NAME.test(name)) out.push({ field: memberName(name), kind: WireViolationKind.BAD_NAME });
    else if (value !== null && typeof value === "object") out.push({ field: memberName(name), kind: WireViolationKind.NOT_SCALAR });
    else if (typeof value === "string" && LONE_SURROGATE.test(value)) out.push({ field: memberName(name), kind: WireViolationKind.NOT_UNICODE });
  }
  // One finding per member: one that holds an object is not also "not a string".
  const found = new Set(out.map((v) => v.field));
  for (const f of members.strings) {
    const v = body[f];
    if (v !== undefined && v !== null && typeof v !== "string" && !found.has(f)) out.push({ field: f, kind: WireViolationKind.NOT_STRING });
  }
  for (const f of members.integers) {
    const v = body[f];
    if (v !== undefined && v !== null && !(typeof v === "number" && Number.isSafeInteger(v)) && !found.has(f))
      out.push({ field: f, kind: tooLarge(v) ? WireViolationKind.INTEGER_TOO_LARGE : WireViolationKind.NOT_INTEGER });
  }
  const phone = body.phone;
  if (
    phone !== undefined &&
    phone !== null &&
    !found.has("phone") &&
    !(typeof phone === "string" || (typeof phone === "number" && Number.isSafeInteger(phone) && phone >= 0))
  ) {
    out.push({
      field: "phone",
      kind: tooLarge(phone) && (phone as number) > 0 ? WireViolationKind.INTEGER_TOO_LARGE : WireViolationKind.NOT_INTEGER_OR_STRING,
    });
  }
  return out;
}

/** A string member; anything else (already a violation) reads as empty. */
export const stringMember = (body: Body, f: string): string => (typeof body[f] === "string" ? (body[f] as string) : "");

/**
 * The customer's members of a signed body (Process, session start), in the
 * engine request's names; `phone` may be a JSON integer and is sent as its digits.
 */
export function customerOf(body: Body) {
  const s = stringMember;
  return {
    pin: s(body, "pin"),
    email: s(body, "email"),
    firstName: s(body, "first_name"),
    lastName: s(body, "last_name"),
    dob: s(body, "dob"),
    phone: typeof body.phone === "number" ? String(body.phone) : s(body, "phone"),
    address: s(body, "address"),
    city: s(body, "city"),
    country: s(body, "country"),
    state: s(body, "state"),
    zip: s(body, "zip"),
    requesterIp: s(body, "requester_ip"),
  };
}
