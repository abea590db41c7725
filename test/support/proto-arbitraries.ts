/**
 * fast-check arbitraries for protobuf messages, read off protobuf-es
 * descriptors so every RPC's input is covered without listing its fields:
 * well-formed messages with hostile values in every field, and the byte-level
 * damage a broken or hostile client sends (truncation, wrong wire types,
 * flipped, dropped or added bytes, noise).
 */
import fc from "fast-check";
import { create, fromBinary, ScalarType, toBinary, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { hostileText } from "./hostile-input.ts";

const INT32 = fc.oneof(fc.integer(), fc.constantFrom(0, 1, -1, 2 ** 31 - 1, -(2 ** 31)));
const UINT32 = fc.oneof(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.constantFrom(0, 1, 2 ** 32 - 1));
const INT64 = fc.oneof(fc.bigInt(-(2n ** 63n), 2n ** 63n - 1n), fc.constantFrom(0n, 1n, -1n, 2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n)));
const UINT64 = fc.oneof(fc.bigInt(0n, 2n ** 64n - 1n), fc.constantFrom(0n, 1n, 2n ** 64n - 1n));

function scalarArb(type: ScalarType, longAsString: boolean): fc.Arbitrary<unknown> {
  const long = (a: fc.Arbitrary<bigint>) => (longAsString ? a.map(String) : a);
  switch (type) {
    case ScalarType.STRING:
      return hostileText;
    case ScalarType.BOOL:
      return fc.boolean();
    case ScalarType.BYTES:
      return fc.uint8Array({ maxLength: 40 });
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return fc.double();
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return INT32;
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return UINT32;
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return long(UINT64);
    default:
      return long(INT64);
  }
}

/** Enum fields: the known numbers and any other (proto3 enums are open). */
const enumArb = fc.oneof(fc.integer({ min: -1, max: 12 }), INT32);

function fieldArb(field: DescField, depth: number): fc.Arbitrary<unknown> {
  switch (field.fieldKind) {
    case "scalar":
      return scalarArb(field.scalar, field.longAsString);
    case "enum":
      return enumArb;
    case "message":
      return messageInitArb(field.message, depth + 1);
    case "list": {
      const element =
        field.listKind === "scalar"
          ? scalarArb(field.scalar, field.longAsString)
          : field.listKind === "enum"
            ? enumArb
            : messageInitArb(field.message, depth + 1);
      return fc.array(element, { maxLength: 4 });
    }
    case "map": {
      const value = field.mapKind === "scalar" ? scalarArb(field.scalar, false) : field.mapKind === "enum" ? enumArb : messageInitArb(field.message, depth + 1);
      return fc.dictionary(hostileText, value, { maxKeys: 3 });
    }
  }
}

/** A message's init object: any subset of its fields, each with a hostile value; nested messages to depth 3. */
export function messageInitArb(desc: DescMessage, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  if (depth > 3) return fc.constant({});
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const field of desc.fields) shape[field.localName] = fieldArb(field, depth);
  return fc.record(shape, { requiredKeys: [] });
}

/** Every field path of a message (["customer", "country"]), nested messages to depth 2. */
function leafPaths(desc: DescMessage, depth = 0): { path: string[]; field: DescField }[] {
  return desc.fields.flatMap((field) =>
    field.fieldKind === "message" && depth < 2
      ? [{ path: [field.localName], field }, ...leafPaths(field.message, depth + 1).map((p) => ({ path: [field.localName, ...p.path], field: p.field }))]
      : [{ path: [field.localName], field }],
  );
}

function setPath(init: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = path;
  if (rest.length === 0) return { ...init, [head]: value };
  const inner = init[head];
  return { ...init, [head]: setPath(typeof inner === "object" && inner !== null ? (inner as Record<string, unknown>) : {}, rest, value) };
}

/**
 * A valid request with one to three of its fields (at any depth) given a
 * hostile value: requests that get past the first checks and reach the
 * rules, the stores and the database.
 */
export function nearlyValidArb(desc: DescMessage, valid: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<Uint8Array> {
  const leaves = leafPaths(desc);
  const changes = fc
    .uniqueArray(fc.constantFrom(...leaves), { minLength: 1, maxLength: 3, selector: (l) => l.path.join(".") })
    .chain((chosen) => fc.tuple(...chosen.map((l) => fieldArb(l.field, 2).map((v) => [l.path, v] as const))));
  return fc.tuple(valid, changes).map(([base, list]) => toBinary(desc, create(desc, list.reduce((init, [path, v]) => setPath(init, path, v), base) as never)));
}

/** A well-formed encoding of a message with hostile values. */
export const wellFormedArb = (desc: DescMessage): fc.Arbitrary<Uint8Array> => messageInitArb(desc).map((init) => toBinary(desc, create(desc, init as never)));

/** A well-formed encoding cut short at any byte. */
export const truncatedArb = (desc: DescMessage): fc.Arbitrary<Uint8Array> =>
  wellFormedArb(desc)
    .filter((b) => b.length > 1)
    .chain((b) => fc.integer({ min: 1, max: b.length - 1 }).map((n) => b.slice(0, n)));

/**
 * One field written with any wire type, valid or not (0-7, groups and the
 * two reserved ones included), under a field number the message has or not.
 */
function strayFieldArb(desc: DescMessage): fc.Arbitrary<Uint8Array> {
  const numbers = desc.fields.map((f) => f.number);
  const fieldNo = fc.oneof(numbers.length > 0 ? fc.constantFrom(...numbers) : fc.constant(1), fc.integer({ min: 0, max: 2 ** 29 - 1 }));
  return fc.tuple(fieldNo, fc.integer({ min: 0, max: 7 }), fc.uint8Array({ maxLength: 12 }), UINT64).map(([no, wireType, payload, varint]) => {
    const w = new BinaryWriter();
    w.uint32(((no << 3) | wireType) >>> 0);
    if (wireType === WireType.Varint) w.uint64(varint);
    else if (wireType === WireType.LengthDelimited) w.bytes(payload);
    else if (wireType === WireType.Bit64) w.fixed64(varint);
    else if (wireType === WireType.Bit32) w.fixed32(Number(varint & 0xffffffffn));
    else w.raw(payload);
    return w.finish();
  });
}

const concat = (...parts: Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(parts));

/** A well-formed message damaged: a stray field before or after it, or a byte flipped, dropped or added. */
export const damagedArb = (desc: DescMessage): fc.Arbitrary<Uint8Array> =>
  fc.oneof(
    fc.tuple(wellFormedArb(desc), strayFieldArb(desc), fc.boolean()).map(([b, stray, before]) => (before ? concat(stray, b) : concat(b, stray))),
    fc
      .tuple(
        wellFormedArb(desc).filter((b) => b.length > 0),
        fc.nat(),
        fc.integer({ min: 0, max: 255 }),
        fc.constantFrom("flip", "drop", "add"),
      )
      .map(([b, at, byte, how]) => {
        const i = at % b.length;
        if (how === "flip") return concat(b.slice(0, i), Uint8Array.of(b[i] ^ (byte || 0x80)), b.slice(i + 1));
        if (how === "drop") return concat(b.slice(0, i), b.slice(i + 1));
        return concat(b.slice(0, i), Uint8Array.of(byte), b.slice(i));
      }),
  );

/** Bytes with no structure at all. */
export const noiseArb: fc.Arbitrary<Uint8Array> = fc.uint8Array({ maxLength: 200 });

/** Whether protobuf-es itself refuses the bytes as `desc` (so the service must answer INVALID_ARGUMENT). */
export function malformed(desc: DescMessage, bytes: Uint8Array): boolean {
  try {
    fromBinary(desc, bytes);
    return false;
  } catch {
    return true;
  }
}
