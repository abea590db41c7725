/**
 * The adapter tests' fixture service (test/fixtures/round_trip.proto),
 * compiled by `buf build` and loaded with protobuf-es at run time: the same
 * kind of descriptors gen/ holds, without a generated module to keep in step.
 * The shapes below are the messages as protobuf-es represents them.
 */
import { execFileSync } from "node:child_process";
import { createFileRegistry, fromBinary, type DescFile, type DescMessage, type DescService } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";

const repo = new URL("../..", import.meta.url).pathname;

export interface Inner {
  label: string;
  values: number[];
}

export interface Scalars {
  fDouble: number;
  fFloat: number;
  fInt32: number;
  fInt64: bigint;
  fUint32: number;
  fUint64: bigint;
  fSint32: number;
  fSint64: bigint;
  fFixed32: number;
  fFixed64: bigint;
  fSfixed32: number;
  fSfixed64: bigint;
  fBool: boolean;
  fString: string;
  fBytes: Uint8Array;
}

export type Choice =
  | { case: "text"; value: string }
  | { case: "inner"; value: Inner }
  | { case: "picked"; value: number }
  | { case: undefined; value?: undefined };

export interface EchoRequest {
  scalars?: Scalars;
  tags: string[];
  numbers: bigint[];
  counts: Record<string, bigint>;
  inners: Record<number, Inner>;
  choice: Choice;
  colour: number;
  nested?: Inner;
  nestedList: Inner[];
  delayMs: number;
  failWith: string;
}

export interface EchoResponse {
  echo?: EchoRequest;
  method: string;
  caller: string;
  hasDeadline: boolean;
}

export const Colour = { UNSPECIFIED: 0, RED: 1, GREEN: 2 } as const;

export interface RoundTrip {
  file: DescFile;
  service: DescService;
  EchoRequest: DescMessage;
  EchoResponse: DescMessage;
  Inner: DescMessage;
  Scalars: DescMessage;
}

export function loadRoundTrip(): RoundTrip {
  const set = execFileSync(`${repo}node_modules/.bin/buf`, ["build", "test/fixtures/round_trip.proto", "--exclude-source-info", "-o", "-#format=binpb"], {
    cwd: repo,
  });
  const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, set));
  const need = <T>(what: string, v: T | undefined): T => {
    if (v === undefined) throw new Error(`${what} is not in test/fixtures/round_trip.proto`);
    return v;
  };
  const message = (name: string) => need(name, registry.getMessage(`cashier.roundtrip.v1.${name}`));
  const service = need("RoundTripService", registry.getService("cashier.roundtrip.v1.RoundTripService"));
  return {
    file: service.file,
    service,
    EchoRequest: message("EchoRequest"),
    EchoResponse: message("EchoResponse"),
    Inner: message("Inner"),
    Scalars: message("Scalars"),
  };
}
