/**
 * The reply to a session start (`POST /api/session`), rendered in one place
 * as the Process reply is (process-reply.ts): the members in their order, the
 * JSON text and its `signature` over the canonical string. A started (or
 * repeated) session answers status 0 with its autologin address, auth_token
 * and expiry; a refusal the same members with nulls.
 */
import { type Scalar, signableText } from "../canonical.ts";
import type { HmacKey } from "../hmac.ts";
import { API_VERSION } from "../transaction.ts";
import { replyText } from "./process-reply.ts";

/** What a started session tells the platform. */
export interface SessionStarted {
  redirectUrl: string;
  authToken: string;
  /** Epoch seconds. */
  expiresAt: number;
}

export function sessionMembers(s: SessionStarted, description: string): Record<string, Scalar> {
  return {
    status: 0,
    description,
    redirect_url: s.redirectUrl,
    auth_token: s.authToken,
    expires_at: s.expiresAt,
    version: API_VERSION,
  };
}

/** A refused session start: no session behind it; the description made signable, as for Process. */
export function sessionRefusalMembers(status: number, description: string): Record<string, Scalar> {
  return { status, description: signableText(description), redirect_url: null, auth_token: null, expires_at: null, version: API_VERSION };
}

export const sessionReply = (s: SessionStarted, description: string, key: HmacKey): string => replyText(sessionMembers(s, description), key);

export const sessionRefusalReply = (status: number, description: string, key?: HmacKey): string => replyText(sessionRefusalMembers(status, description), key);
