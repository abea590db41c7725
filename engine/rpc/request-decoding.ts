/**
 * Request bytes -> the method's input message, never throwing. grpc-js answers
 * INTERNAL ("Error deserializing request") when a deserializer throws, blaming
 * the engine for bytes the caller sent (truncated, wrong wire types, invalid
 * UTF-8, a varint over ten bytes). So a message that does not decode becomes a
 * MalformedRequest, which the adapter answers INVALID_ARGUMENT naming the
 * cause, after authentication and through the interceptors like any refusal.
 */
import { fromBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { EVERY_CONTROL_CHARACTER } from "../domain/validate-process.ts";

/** The decoder's own words are short; anything longer is cut, so a reply never carries the caller's bulk. */
export const MAX_CAUSE_CHARS = 120;

/** Bytes that are not a message of the expected type, and why, fit to show the caller. */
export class MalformedRequest {
  readonly description: string;
  constructor(typeName: string, cause: unknown) {
    const text = (cause instanceof Error ? cause.message : String(cause)).replace(EVERY_CONTROL_CHARACTER, " ").trim() || "not decodable";
    const chars = [...text];
    const short = chars.length <= MAX_CAUSE_CHARS ? text : `${chars.slice(0, MAX_CAUSE_CHARS - 3).join("")}...`;
    this.description = `malformed ${typeName}: ${short}`;
  }
}

export function decodeRequest<D extends DescMessage>(schema: D, bytes: Uint8Array): MessageShape<D> | MalformedRequest {
  try {
    return fromBinary(schema, bytes);
  } catch (err) {
    return new MalformedRequest(schema.typeName, err);
  }
}
