/**
 * What the limiter reads from a request: a Web `Request` fits, and the node/Express adapters pass
 * a light view over `IncomingMessage` instead of building a full `Request` per call.
 */
export interface LimitRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: { get(name: string): string | null };
}

/** Facts about the connection that the request itself does not carry. */
export interface ClientInfo {
  /** The peer address of the socket (`socket.remoteAddress`), if known. */
  ip?: string | undefined;
}
