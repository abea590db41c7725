/**
 * The seed's Process reply (section 2.2), rendered in one place: the members in
 * their order, the JSON text and its `signature` (CONTRACT section 2). The
 * engine renders every reply it can sign here (a processed request, a refused
 * one, and the deposit status notification, which reuses the members); the
 * edge writes those bytes out unchanged. The edge uses `refusalReply` itself
 * only when there is no engine answer to write (a body that is no JSON, an
 * engine out of reach), and then with no key: such a reply carries
 * `signature: null`.
 */
import { type Scalar, signBody, signableText } from "../canonical.ts";
import type { HmacKey } from "../hmac.ts";
import { offeredRedirect } from "../transaction.ts";
import { API_VERSION, type Attempt } from "../transaction.ts";

/** A reply's members but `signature`, in the order they are written. */
export type ReplyMembers = Record<string, Scalar>;

/** The reply to a processed request: status 0 and the attempt as it stands. */
export function processedMembers(a: Attempt, description: string): ReplyMembers {
  return {
    status: 0,
    description,
    redirect_url: offeredRedirect(a),
    trace_id: a.traceId,
    // Empty, not null, when the processor gave none (processor unavailable).
    transaction_id: a.transactionId ?? "",
    transaction_status: a.status,
    error_code: a.errorCode ?? null,
    error_details: a.errorDetails || null,
    payment_processor: a.processor,
    version: API_VERSION,
  };
}

/**
 * The reply to a refused request: no transaction behind it. The description
 * is made signable here (no `&`, `=` or control characters, at most 256
 * characters), so that no text can pose as other members of the canonical
 * string, whoever wrote it.
 */
export function refusalMembers(status: number, description: string): ReplyMembers {
  return {
    status,
    description: signableText(description),
    redirect_url: null,
    trace_id: null,
    transaction_id: null,
    transaction_status: null,
    error_code: null,
    error_details: null,
    payment_processor: null,
    version: API_VERSION,
  };
}

/** The JSON text: the members, then `signature` over their canonical string, or null without a key. */
export function replyText(members: ReplyMembers, key: HmacKey | undefined): string {
  return JSON.stringify({ ...members, signature: key ? signBody(key, members) : null });
}

export const processedReply = (a: Attempt, description: string, key: HmacKey | undefined): string => replyText(processedMembers(a, description), key);

export const refusalReply = (status: number, description: string, key?: HmacKey): string => replyText(refusalMembers(status, description), key);
