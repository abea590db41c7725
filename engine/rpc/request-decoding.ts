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
import { EVERY_CONTROL_CHARACTER } from "../shared/control-characters.ts";

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

/** For each field number of a message (or of a map's entry), its name and what its length-delimited bytes hold. */
type Layout = (no: number) => { name: string; content: Content } | undefined;
/** Text, a message (or map entry) to walk into, or neither (bytes, packed numbers). */
type Content = "text" | Layout | undefined;

const textOr = (scalar: ScalarType | undefined): Content => (scalar === ScalarType.STRING ? "text" : undefined);

function layoutOf(schema: DescMessage): Layout {
  return (no) => {
    const field = schema.fields.find((f) => f.number === no);
    return field && { name: field.name, content: contentOf(field) };
  };
}

function contentOf(field: DescField): Content {
  switch (field.fieldKind) {
    case "scalar":
      return textOr(field.scalar);
    case "list":
      return field.listKind === "message" ? layoutOf(field.message) : field.listKind === "scalar" ? textOr(field.scalar) : undefined;
    case "message":
      return layoutOf(field.message);
    case "map": {
      // An entry is a message of its own, key 1 and value 2, both named as the map's field.
      const value: Content = field.mapKind === "message" ? layoutOf(field.message) : field.mapKind === "scalar" ? textOr(field.scalar) : undefined;
      return (no) => (no === 1 ? { name: "", content: textOr(field.mapKey) } : no === 2 ? { name: "", content: value } : undefined);
    }
    default:
      return undefined;
  }
}

/** The path of the first string field (`card.number`) whose bytes are not UTF-8, or undefined (another cause, or bytes that do not walk). */
export function notUtf8Field(schema: DescMessage, bytes: Uint8Array): string | undefined {
  try {
    return walk(layoutOf(schema), bytes, "", 0);
  } catch {
    return undefined;
  }
}

function walk(layout: Layout, bytes: Uint8Array, path: string, depth: number): string | undefined {
  if (depth > 32) return undefined;
  const reader = new BinaryReader(bytes);
  while (reader.pos < reader.len) {
    const [no, wireType] = reader.tag();
    const field = wireType === WireType.LengthDelimited ? layout(no) : undefined;
    if (!field) {
      reader.skip(wireType, no);
      continue;
    }
    const data = reader.bytes();
    const name = field.name ? (path ? `${path}.${field.name}` : field.name) : path;
    if (field.content === "text") {
      if (!isUtf8(data)) return name;
    } else if (field.content) {
      const inner = walk(field.content, data, name, depth + 1);
      if (inner) return inner;
    }
  }
  return undefined;
}
