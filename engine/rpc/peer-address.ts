/**
 * The client address of a direct gRPC caller, from grpc-js's peer text
 * (`<remoteAddress>:<remotePort>`: "127.0.0.1:50312", "::1:50312", perhaps
 * "[::1]:50312" or with an "ipv4:"/"ipv6:" scheme): the host without its
 * port, as the audit log records addresses. Empty when grpc-js does not know it.
 */
import { isIP } from "node:net";
import type { CallContext } from "./grpc-adapter.ts";

export function clientAddressOf(ctx: Pick<CallContext, "peer"> | undefined): string {
  const peer = (ctx?.peer ?? "").replace(/^ipv[46]:/, "");
  // The port first: grpc-js always appends it for TCP, and "::1:443" is itself a valid IPv6 address.
  const host = peer.replace(/:\d+$/, "").replace(/^\[(.*)\]$/, "$1");
  return (isIP(host) ? host : peer).slice(0, 64);
}
