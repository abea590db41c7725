/**
 * Methods Node's HTTP parser refuses before Koa sees the request (`FOO`, a
 * lower-case `get`: llhttp knows a fixed list) and CONNECT, which Node hands
 * to a `connect` listener instead of the app. Node's own answer is a bare 400
 * (or, for CONNECT, a closed socket); here they answer as the app answers a
 * method it does not take: 405 METHOD_NOT_ALLOWED with `Allow` when a route
 * serves the path, 404 NO_ROUTE otherwise, in the wire's error JSON, and the
 * connection closes (the parser cannot read on). Every other client error
 * keeps Node's own answer.
 */
import type { Server } from "node:http";
import type { Duplex } from "node:stream";
import { REASONS } from "../engine/shared/errors.ts";
import { redactPath } from "./cashier/paths.ts";
import { unsignedRefusal } from "./middleware/errors.ts";

/** Node's answers when no clientError listener is set (lib/_http_server.js). */
const NODE_DEFAULT: Record<string, string> = {
  HPE_HEADER_OVERFLOW: "HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n",
  HPE_CHUNK_EXTENSIONS_OVERFLOW: "HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n",
  ERR_HTTP_REQUEST_TIMEOUT: "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n",
};
const BAD_REQUEST = "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n";

/** The request line's method and target, from the bytes the parser refused. */
function requestLine(raw: Buffer | undefined): { method: string; target: string } {
  const line = (raw ?? Buffer.alloc(0)).subarray(0, 8192).toString("latin1").split("\r\n", 1)[0];
  const [method = "", target = ""] = line.split(" ");
  return { method: method.slice(0, 32), target };
}

/** The reply, as raw HTTP/1.1, to `method` on `target`. */
export function unknownMethodReply(method: string, target: string, allowedOn: (path: string) => string[]): string {
  const path = target.startsWith("/") ? target.split("?", 1)[0] : target;
  const allow = path.startsWith("/") ? allowedOn(path) : [];
  const reason = allow.length > 0 ? "METHOD_NOT_ALLOWED" : "NO_ROUTE";
  const shown = redactPath(path);
  const description = allow.length > 0 ? `${method} is not allowed on ${shown}; allowed: ${allow.join(", ")}` : `no route ${method} ${shown}`;
  // No merchant behind it: unsigned (signature null), made signable text by the reply module.
  const body = unsignedRefusal(path, REASONS[reason].status, description);
  const head = [
    `HTTP/1.1 ${REASONS[reason].http} ${reason === "NO_ROUTE" ? "Not Found" : "Method Not Allowed"}`,
    "Content-Type: application/json; charset=utf-8",
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...(allow.length > 0 ? [`Allow: ${allow.join(", ")}`] : []),
    "Connection: close",
  ];
  return `${head.join("\r\n")}\r\n\r\n${body}`;
}

function answer(socket: Duplex, reply: string): void {
  if (socket.writable) socket.end(reply);
  else socket.destroy();
}

export function answerUnknownMethods(server: Server, allowedOn: (path: string) => string[]): void {
  server.on("clientError", (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (err.code === "ECONNRESET" || !socket.writable || (socket as Duplex & { bytesWritten?: number }).bytesWritten) {
      socket.destroy();
      return;
    }
    if (err.code === "HPE_INVALID_METHOD") {
      const { method, target } = requestLine(err.rawPacket);
      answer(socket, unknownMethodReply(method, target, allowedOn));
      return;
    }
    answer(socket, NODE_DEFAULT[err.code ?? ""] ?? BAD_REQUEST);
  });
  server.on("connect", (req, socket: Duplex) => answer(socket, unknownMethodReply("CONNECT", req.url ?? "", allowedOn)));
}
