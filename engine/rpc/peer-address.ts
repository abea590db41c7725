/**
 * The client address of a direct gRPC caller, from grpc-js's peer text
 * ("127.0.0.1:50312", "[::1]:50312", sometimes with an "ipv4:"/"ipv6:"
 * scheme): the host without its port, as the audit log records addresses.
 * Empty when grpc-js does not know it.
 */
import type { CallContext } from "./grpc-adapter.ts";

export function clientAddressOf(ctx: Pick<CallContext, "peer"> | undefined): string {
  const peer = (ctx?.peer ?? "").replace(/^ipv[46]:/, "");
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(peer);
  if (bracketed) return bracketed[1].slice(0, 64);
  const hostPort = /^([^:]+):\d+$/.exec(peer);
  return (hostPort ? hostPort[1] : peer).slice(0, 64);
}
