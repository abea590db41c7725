/**
 * A Connect Transport over @grpc/grpc-js's client: the edge keeps its typed
 * Connect clients (createClient over the generated descriptors), and each call
 * travels on grpc-js's HTTP/2 channel, which cost the edge thread about a third
 * less CPU per sale than connect-node's gRPC transport (docs/decisions/0016).
 * Messages are protobuf-es's own binary; an engine's refusal arrives as the
 * ConnectError the gRPC protocol defines (code, message and the details of
 * grpc-status-details-bin, read by Connect's own parser), and a call that
 * never reached an engine as a ConnectError without details. Unary only: the
 * engine's API has no streaming method.
 */
import * as grpc from "@grpc/grpc-js";
import { create, fromBinary, isMessage, toBinary, type DescMessage, type DescMethodUnary, type MessageInitShape, type MessageShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type Transport, type UnaryResponse } from "@connectrpc/connect";
import { findTrailerError } from "@connectrpc/connect/protocol-grpc";

export interface GrpcJsTransportOptions {
  /** http://host:port or https://host:port. */
  baseUrl: string;
  /** Sent on every call (the bearer token, say). */
  header?: Record<string, string>;
  /** A call's deadline when its caller sets none. */
  defaultTimeoutMs: number;
  /** TLS for an https:// base URL: grpc-js credentials (plaintext otherwise). */
  credentials?: grpc.ChannelCredentials;
  /** The TLS name to check when it is not the URL's host (an address resolved from a name). */
  servername?: string;
}

export type ClosableTransport = Transport & { close(): void };

/** grpc-js metadata as fetch Headers, binary values in base64 as the gRPC protocol writes them on the wire. */
function headersOf(metadata: grpc.Metadata): Headers {
  const headers = new Headers();
  for (const key of Object.keys(metadata.getMap())) {
    for (const value of metadata.get(key)) headers.append(key, typeof value === "string" ? value : Buffer.from(value).toString("base64"));
  }
  return headers;
}

/** A failed call as Connect would report it: the engine's Status with its details, or the transport's own code. */
export function connectErrorOf(status: { code: number; details: string; metadata: grpc.Metadata }): ConnectError {
  const trailer = headersOf(status.metadata);
  trailer.set("grpc-status", String(status.code));
  trailer.set("grpc-message", encodeURIComponent(status.details));
  return findTrailerError(trailer) ?? new ConnectError(status.details, Code.Unknown, trailer);
}

export function createGrpcJsTransport(options: GrpcJsTransportOptions): ClosableTransport {
  const url = new URL(options.baseUrl);
  const tls = url.protocol === "https:";
  const port = url.port || (tls ? "443" : "80");
  // The engine is trusted and its replies are bounded pages; 64 MiB rather than grpc-js's 4 MiB, as a bound still.
  const channelOptions: grpc.ChannelOptions = { "grpc.max_receive_message_length": 64 * 1024 * 1024 };
  if (options.servername) channelOptions["grpc.ssl_target_name_override"] = options.servername;
  const client = new grpc.Client(
    `${url.hostname}:${port}`,
    tls ? (options.credentials ?? grpc.credentials.createSsl()) : grpc.credentials.createInsecure(),
    channelOptions,
  );
  const fixed = Object.entries(options.header ?? {});
  let closed = false;

  return {
    unary<I extends DescMessage, O extends DescMessage>(
      method: DescMethodUnary<I, O>,
      signal: AbortSignal | undefined,
      timeoutMs: number | undefined,
      header: ConstructorParameters<typeof Headers>[0] | undefined,
      input: MessageInitShape<I>,
    ): Promise<UnaryResponse<I, O>> {
      const message: MessageShape<I> = isMessage(input, method.input) ? input : create(method.input, input);
      const metadata = new grpc.Metadata();
      for (const [k, v] of fixed) metadata.set(k, v);
      if (header) for (const [k, v] of new Headers(header)) metadata.set(k, v);
      return new Promise((resolve, reject) => {
        if (signal?.aborted) {
          reject(new ConnectError("the call was cancelled before it started", Code.Canceled));
          return;
        }
        let responseHeader = new Headers();
        let reply: MessageShape<O> | undefined;
        if (closed) {
          reject(new ConnectError("the connection to the engine is closed", Code.Unavailable));
          return;
        }
        const call = client.makeUnaryRequest(
          `/${method.parent.typeName}/${method.name}`,
          (m: MessageShape<I>) => Buffer.from(toBinary(method.input, m)),
          (bytes: Buffer) => fromBinary(method.output, bytes),
          message,
          metadata,
          { deadline: Date.now() + (timeoutMs ?? options.defaultTimeoutMs) },
          (_err, value) => {
            reply = value;
          },
        );
        const onAbort = () => call.cancel();
        signal?.addEventListener("abort", onAbort, { once: true });
        call.on("metadata", (m: grpc.Metadata) => {
          responseHeader = headersOf(m);
        });
        // The status comes after the callback and carries the trailers: the call ends here, either way.
        call.on("status", (status: grpc.StatusObject) => {
          signal?.removeEventListener("abort", onAbort);
          if (status.code !== grpc.status.OK || reply === undefined) {
            reject(status.code === grpc.status.OK ? new ConnectError("the engine answered without a message", Code.Unimplemented) : connectErrorOf(status));
            return;
          }
          resolve({
            stream: false,
            service: method.parent,
            method,
            header: responseHeader,
            message: reply,
            trailer: headersOf(status.metadata),
          });
        });
      });
    },
    stream() {
      return Promise.reject(new ConnectError("the engine's API has no streaming method", Code.Unimplemented));
    },
    close() {
      closed = true;
      client.close();
    },
  };
}
