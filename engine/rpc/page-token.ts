/** Opaque page tokens: a versioned, base64url keyset cursor (the last trace_id seen). */
export function encodePageToken(lastTraceId: number): string {
  return Buffer.from(JSON.stringify({ v: 1, t: lastTraceId })).toString("base64url");
}

export function decodePageToken(token: string): number | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as { v?: unknown; t?: unknown };
    return parsed.v === 1 && Number.isSafeInteger(parsed.t) && (parsed.t as number) > 0 ? (parsed.t as number) : undefined;
  } catch {
    return undefined;
  }
}
