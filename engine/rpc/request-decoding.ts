/**
 * Request bytes -> the method's input message, never throwing. grpc-js answers
 * INTERNAL ("Error deserializing request") when a deserializer throws, blaming
 * the engine for bytes the caller sent (truncated, wrong wire types, invalid
 * UTF-8, a varint over ten bytes). So a message that does not decode becomes a
 * MalformedRequest, which the adapter answers INVALID_ARGUMENT naming the
 * cause, after authentication and through the interceptors like any refusal.
 * Text that is not UTF-8 (half of a surrogate pair, as a client encoding
 * UTF-16 by hand writes it) is also named by its field's path, which the
 * decoder's own words do not say.
 */
import { type DescField, type DescMessage, fromBinary, type MessageShape, ScalarType } from "@bufbuild/protobuf";
import { BinaryReader, WireType } from "@bufbuild/protobuf/wire";
import { EVERY_CONTROL_CHARACTER } from "../domain/validate-process.ts";

/** The decoder's own words are short; anything longer is cut, so a reply never carries the caller's bulk. */
export const MAX_CAUSE_CHARS = 120;

/** Bytes that are not a message of the expected type, and why, fit to show the caller. */
export class MalformedRequest {
  readonly description: string;
  /** The path of a string field whose bytes are not UTF-8 (`card.number`), when that is the cause. */
  readonly field?: string;
  constructor(typeName: string, cause: unknown, field?: string) {
    this.field = field;
    const text = (cause instanceof Error ? cause.message : String(cause)).replace(EVERY_CONTROL_CHARACTER, " ").trim() || "not decodable";
    const chars = [...text];
    const short = chars.length <= MAX_CAUSE_CHARS ? text : `${chars.slice(0, MAX_CAUSE_CHARS - 3).join("")}...`;
    this.description = `malformed ${typeName}: ${short}${field ? ` (field ${field})` : ""}`;
  }
}

export function decodeRequest<D extends DescMessage>(schema: D, bytes: Uint8Array): MessageShape<D> | MalformedRequest {
  try {
    return fromBinary(schema, bytes);
  } catch (err) {
    return new MalformedRequest(schema.typeName, err, notUtf8Field(schema, bytes));
  }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

function isUtf8(bytes: Uint8Array): boolean {
  try {
    UTF8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** What a length-delimited field holds: text, a message to walk into, or neither (bytes, packed numbers). */
function contentOf(field: DescField): "text" | DescMessage | undefined {
  switch (field.fieldKind) {
    case "scalar":
      return field.scalar === ScalarType.STRING ? "text" : undefined;
    case "list":
      return field.listKind === "message" ? field.message : field.listKind === "scalar" && field.scalar === ScalarType.STRING ? "text" : undefined;
    case "message":
      return field.message;
    case "map":
      // An entry: key 1, value 2. Named as the map's field, whichever of the two is not text.
      return field.mapKey === ScalarType.STRING || (field.mapKind === "scalar" && field.scalar === ScalarType.STRING) ? "text" : undefined;
    default:
      return undefined;
  }
}

/** The path of the first string field (`card.number`) whose bytes are not UTF-8, or undefined (another cause, or bytes that do not walk). */
export function notUtf8Field(schema: DescMessage, bytes: Uint8Array, path = "", depth = 0): string | undefined {
  if (depth > 32) return undefined;
  try {
    const reader = new BinaryReader(bytes);
    while (reader.pos < reader.len) {
      const [no, wireType] = reader.tag();
      const field = schema.fields.find((f) => f.number === no);
      if (!field || wireType !== WireType.LengthDelimited) {
        reader.skip(wireType, no);
        continue;
      }
      const data = reader.bytes();
      const name = path ? `${path}.${field.name}` : field.name;
      const content = contentOf(field);
      if (content === "text") {
        if (field.fieldKind === "map" ? !mapEntryIsText(data) : !isUtf8(data)) return name;
      } else if (content) {
        const inner = notUtf8Field(content, data, name, depth + 1);
        if (inner) return inner;
      }
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** A map entry's key and value: false when either is length-delimited and not UTF-8. */
function mapEntryIsText(entry: Uint8Array): boolean {
  const reader = new BinaryReader(entry);
  while (reader.pos < reader.len) {
    const [no, wireType] = reader.tag();
    if (wireType !== WireType.LengthDelimited) {
      reader.skip(wireType, no);
      continue;
    }
    if (!isUtf8(reader.bytes())) return false;
  }
  return true;
}
