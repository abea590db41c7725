/**
 * The Connect Transport the edge's typed clients call the engine through: the
 * gRPC protocol over one HTTP/2 session per engine address. The parts with
 * rules of their own are the libraries':
 * - the session: connect-node's Http2SessionManager (connecting, GOAWAY and
 *   reconnecting, keep-alive, closing an idle connection);
 * - the response: Connect's gRPC helpers (the HTTP status and content type,
 *   then the status, message and details of the trailers or of a
 *   trailers-only answer);
 * - the messages: protobuf-es's own binary, framed by Connect's encodeEnvelope.
 * Ours is the unary call's plumbing: headers, reading the one framed reply,
 * the deadline and cancellation. It costs the edge thread about half of what
 * grpc-js's client did per call (docs/decisions/0016). An engine's refusal
 * arrives as the ConnectError the gRPC protocol defines; a call that never
 * reached an engine as a ConnectError without details. Unary only: the
 * engine's API has no streaming method.
 */
import http2 from "node:http2";
import { create, fromBinary, isMessage, toBinary, type DescMessage, type DescMethodUnary, type MessageInitShape, type MessageShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type Transport, type UnaryResponse } from "@connectrpc/connect";
import { Http2SessionManager } from "@connectrpc/connect-node";
import { encodeEnvelope } from "@connectrpc/connect/protocol";
import { validateResponse, validateTrailer } from "@connectrpc/connect/protocol-grpc";

export interface GrpcTransportOptions {
  /** http://host:port or https://host:port. */
  baseUrl: string;
  /** Sent on every call (the bearer token, say). */
  header?: Record<string, string>;
  /** A call's deadline when its caller sets none. */
  defaultTimeoutMs: number;
  /**
   * How long a call waits for a connection to the engine before it is refused as
   * UNAVAILABLE, which the pool may send to another engine: nothing was sent yet.
   * Default CONNECT_TIMEOUT_MS.
   */
  connectTimeoutMs?: number;
  /** TLS for an https:// base URL (the trusted CA or a pin, the name to check); the system's roots when not given. */
  tls?: http2.SecureClientSessionOptions;
}

export type ClosableTransport = Transport & { close(): void };

/** The engine is trusted and its replies are bounded pages; 64 MiB is a bound still. */
const MAX_REPLY_BYTES = 64 * 1024 * 1024;
/** The longest timer Node keeps (a longer one fires at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;
/**
 * A connection the engine has not accepted by then is taken as out of reach: an address that silently drops packets
 * (a host gone) would otherwise hold every call until its deadline, which the pool never sends elsewhere.
 */
export const CONNECT_TIMEOUT_MS = 5000;
const { NGHTTP2_CANCEL, NGHTTP2_NO_ERROR } = http2.constants;

/** What a stream reset by the engine means, as the gRPC protocol maps HTTP/2 error codes; any other code: INTERNAL. */
const RESET_CODES = new Map<number, Code>([
  [http2.constants.NGHTTP2_REFUSED_STREAM, Code.Unavailable],
  [NGHTTP2_CANCEL, Code.Canceled],
  [http2.constants.NGHTTP2_ENHANCE_YOUR_CALM, Code.ResourceExhausted],
  [http2.constants.NGHTTP2_INADEQUATE_SECURITY, Code.PermissionDenied],
]);

/** Node's header object as fetch Headers, without the pseudo-headers; binary values stay base64, as on the wire. */
function webHeaders(h: http2.IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const key in h) {
    const value = h[key];
    if (key.startsWith(":") || value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) out.append(key, v);
    else out.append(key, value);
  }
  return out;
}

/** grpc-timeout: at most eight digits, in milliseconds while they fit. */
function timeoutHeader(ms: number): string {
  const whole = Math.max(1, Math.ceil(ms));
  return whole <= 99_999_999 ? `${whole}m` : `${Math.ceil(whole / 1000)}S`;
}

/** The one message of a unary reply's body, or why there is none. */
function onlyMessage(body: Buffer): Uint8Array | ConnectError {
  if (body.length === 0) return new ConnectError("the engine answered without a message", Code.Unimplemented);
  const length = body.length < 5 ? Number.POSITIVE_INFINITY : body.readUInt32BE(1);
  if (body.length < 5 + length) return new ConnectError("the engine's reply ended inside its message", Code.Internal);
  if ((body[0] & 1) === 1) return new ConnectError("the engine compressed its reply, which was not asked for", Code.Internal);
  if (body.length > 5 + length) return new ConnectError("the engine answered with more than one message", Code.Unimplemented);
  return body.subarray(5);
}

export function createUnaryGrpcTransport(options: GrpcTransportOptions): ClosableTransport {
  const url = new URL(options.baseUrl);
  // Node's 10 MB default for a session's buffers resets streams under load with ENHANCE_YOUR_CALM; grpc-js lifts it too.
  const sessionOptions = { maxSessionMemory: Number.MAX_SAFE_INTEGER, ...(url.protocol === "https:" ? options.tls : {}) };
  const session = new Http2SessionManager(url, {}, sessionOptions);
  // After a caller's own headers, so that none of them replaces the protocol's or the token.
  const fixed: http2.OutgoingHttpHeaders = {
    ...options.header,
    "content-type": "application/grpc+proto",
    te: "trailers",
    "user-agent": "cashier-edge",
  };
  let closed = false;
  let inFlight = 0;
  const release = () => {
    if (--inFlight === 0 && closed) session.abort(new ConnectError("the transport is closed", Code.Canceled));
  };

  return {
    unary<I extends DescMessage, O extends DescMessage>(
      method: DescMethodUnary<I, O>,
      signal: AbortSignal | undefined,
      timeoutMs: number | undefined,
      header: ConstructorParameters<typeof Headers>[0] | undefined,
      input: MessageInitShape<I>,
    ): Promise<UnaryResponse<I, O>> {
      if (closed) return Promise.reject(new ConnectError("the connection to the engine is closed", Code.Unavailable));
      if (signal?.aborted) return Promise.reject(new ConnectError("the call was cancelled before it started", Code.Canceled));
      const message: MessageShape<I> = isMessage(input, method.input) ? input : create(method.input, input);
      // One message frame, uncompressed (flags 0).
      const body = encodeEnvelope(0, toBinary(method.input, message));
      const deadlineMs = Math.min(timeoutMs ?? options.defaultTimeoutMs, MAX_TIMER_MS);
      if (!(deadlineMs > 0)) return Promise.reject(new ConnectError("the call's deadline passed before it started", Code.DeadlineExceeded));
      const headers: http2.OutgoingHttpHeaders = {};
      if (header) for (const [k, v] of new Headers(header)) headers[k] = v;
      Object.assign(headers, fixed, { "grpc-timeout": timeoutHeader(deadlineMs) });
      inFlight++;

      return new Promise((resolve, reject) => {
        let stream: http2.ClientHttp2Stream | undefined;
        let settled = false;
        const settle = (outcome: ConnectError | UnaryResponse<I, O>) => {
          if (settled) return;
          settled = true;
          clearTimeout(deadline);
          clearTimeout(connecting);
          signal?.removeEventListener("abort", onAbort);
          if (outcome instanceof ConnectError) {
            if (stream && !stream.closed) stream.close(NGHTTP2_CANCEL);
            reject(outcome);
          } else {
            resolve(outcome);
          }
          release();
        };
        const deadline = setTimeout(() => settle(new ConnectError("the call's deadline passed", Code.DeadlineExceeded)), deadlineMs);
        const connectTimeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
        const connecting = setTimeout(() => {
          if (!stream) settle(new ConnectError(`the engine accepted no connection within ${connectTimeoutMs} ms`, Code.Unavailable));
        }, connectTimeoutMs);
        const onAbort = () => settle(new ConnectError("the call was cancelled", Code.Canceled));
        signal?.addEventListener("abort", onAbort, { once: true });

        session.request("POST", `/${method.parent.typeName}/${method.name}`, headers, {}).then(
          (s) => {
            stream = s;
            clearTimeout(connecting);
            // Node forgets a stream's session when the stream is destroyed: kept here, it tells a dropped connection from a reset.
            const conn = s.session;
            // An error always comes before the stream's close, which decides.
            let streamError: Error | undefined;
            s.on("error", (err: Error) => {
              streamError = err;
            });
            if (settled) {
              s.close(NGHTTP2_CANCEL);
              return;
            }
            let status = 0;
            let responseHeader: Headers | undefined;
            let trailer = new Headers();
            const chunks: Buffer[] = [];
            let size = 0;
            s.on("response", (h) => {
              status = Number(h[":status"]);
              responseHeader = webHeaders(h);
            });
            s.on("data", (chunk: Buffer) => {
              session.notifyResponseByteRead(s);
              size += chunk.length;
              if (size > MAX_REPLY_BYTES + 5) settle(new ConnectError(`the engine's reply is over ${MAX_REPLY_BYTES} bytes`, Code.ResourceExhausted));
              else chunks.push(chunk);
            });
            s.on("trailers", (h) => {
              trailer = webHeaders(h);
            });
            s.on("close", () => {
              if (settled) return;
              const header = responseHeader;
              const statusSeen = trailer.has("grpc-status") || header?.has("grpc-status");
              if (header === undefined || (!statusSeen && (s.rstCode !== NGHTTP2_NO_ERROR || streamError))) {
                settle(streamFailure(s, conn, streamError, header !== undefined));
                return;
              }
              try {
                const { foundStatus, headerError } = validateResponse(status, header);
                if (headerError) throw headerError;
                validateTrailer(foundStatus ? header : trailer, header);
              } catch (err) {
                settle(ConnectError.from(err, Code.Internal));
                return;
              }
              const bytes = onlyMessage(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
              if (bytes instanceof ConnectError) {
                settle(bytes);
                return;
              }
              let reply: MessageShape<O>;
              try {
                reply = fromBinary(method.output, bytes);
              } catch (err) {
                settle(new ConnectError(`the engine's reply does not decode: ${(err as Error).message}`, Code.Internal));
                return;
              }
              // A trailers-only answer carries its status in the headers: those are its trailers too.
              settle({ stream: false, service: method.parent, method, header, message: reply, trailer: trailer.has("grpc-status") ? trailer : header });
            });
            s.end(body);
          },
          (err: unknown) => settle(notSent(err)),
        );
      });
    },
    stream() {
      return Promise.reject(new ConnectError("the engine's API has no streaming method", Code.Unimplemented));
    },
    close() {
      if (closed) return;
      closed = true;
      if (inFlight === 0) session.abort(new ConnectError("the transport is closed", Code.Canceled));
    },
  };
}

/**
 * Why a stream ended without the engine's status.
 * - The connection dropped (Node then closes its streams with CANCEL) before
 *   the engine began its answer: UNAVAILABLE, as grpc-js read it, and another
 *   engine may take the call.
 * - It dropped once the answer had begun: the engine had the call, so ABORTED
 *   (the client is told to retry, and no other engine is asked).
 * - The engine reset the stream: the code the gRPC protocol gives that HTTP/2
 *   error (REFUSED_STREAM: UNAVAILABLE, never processed); INTERNAL otherwise.
 */
function streamFailure(s: http2.ClientHttp2Stream, conn: http2.Http2Session | undefined, err: Error | undefined, answering: boolean): ConnectError {
  const errno = (err as NodeJS.ErrnoException | undefined)?.code;
  if (conn === undefined || conn.destroyed || errno === "ECONNRESET" || errno === "ETIMEDOUT") {
    const why = `the connection to the engine dropped${answering ? " during its answer" : ""}${err ? `: ${err.message}` : ""}`;
    return new ConnectError(why, answering ? Code.Aborted : Code.Unavailable);
  }
  return new ConnectError(`the engine's stream closed without a status (HTTP/2 code ${s.rstCode})`, RESET_CODES.get(s.rstCode) ?? Code.Internal);
}

/**
 * A call that never left. The session manager fails a connection (refused, a
 * TLS handshake refused, a name not found, the transport closed) with a
 * ConnectError: UNAVAILABLE, another engine may take it. Anything else is
 * Node refusing the request itself (a header it forbids): a fault of ours,
 * INTERNAL, and no engine is to blame.
 */
function notSent(err: unknown): ConnectError {
  const message = err instanceof Error ? err.message : String(err);
  return err instanceof ConnectError
    ? new ConnectError(`the engine could not be reached: ${message}`, Code.Unavailable)
    : new ConnectError(`the call could not be made: ${message}`, Code.Internal);
}
