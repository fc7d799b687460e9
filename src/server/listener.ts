// The listening socket: TLS with ALPN offering h2 and http/1.1, as kube-apiserver serves.
//
// One tls.Server accepts and handshakes; each connection then goes to the server of the
// protocol it chose: an HTTP/2 server (kubectl, client-go) or an HTTP/1.1 server (clients
// without ALPN, WebSocket upgrades, the bench's keep-alive clients). Both call the same
// request listener. The HTTP/1.1 side is a plain http.Server, with its upgrade event,
// timeouts and keep-alive handling unchanged, so HTTP/1.1 over TLS costs what TLS costs.
//
// The handshake asks for a client certificate and checks it against the client CA bundle
// without refusing the connection when it fails (Go's RequestClientCert, as kube does): the
// x509 authenticator reads the outcome per request, and a bad certificate is a 401, not a
// failed handshake.
//
// A plain HTTP request sent to the TLS port gets Go's answer (`400 Client sent an HTTP request
// to an HTTPS server.`) instead of a dropped connection: the first bytes of a connection are
// looked at before the TLS server takes it.
//
// With `tls` unset (--insecure-plain-http) it is a plain HTTP/1.1 server.

import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createH2Server, type Http2Server, type Http2ServerRequest, type Http2ServerResponse, type ServerHttp2Session } from 'node:http2';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { createServer as createTlsServer, type SecureVersion, type Server as TlsServer, type TLSSocket } from 'node:tls';

/** What net/http answers a TLS port's plain HTTP request with (server.go). */
const HTTP_ON_TLS_PORT = 'HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n';
/** How long a new connection may stay silent before its first bytes (Go's ReadHeaderTimeout is 32 s in kube). */
const PEEK_TIMEOUT_MS = 32_000;

/**
 * How long a connection that has sent no request yet holds up a graceful shutdown (Go's
 * http.Server.Shutdown closes a new connection only once it has been silent this long).
 */
const NEW_CONNECTION_GRACE_MS = 5_000;

/** The request starts net/http recognises (tlsRecordHeaderLooksLikeHTTP). */
const HTTP_STARTS = ['GET /', 'HEAD ', 'POST ', 'PUT /', 'OPTIO'].map((s) => Buffer.from(s, 'latin1'));

function looksLikeHTTP(b: Buffer): boolean {
  return HTTP_STARTS.some((p) => b.length >= p.length && b.subarray(0, p.length).equals(p));
}

export interface TLSServing {
  /** The serving certificate chain and its key (PEM). */
  cert: string;
  key: string;
  /** CA bundle (PEM) client certificates are verified against; none: certificates are not asked for. */
  clientCA?: string;
  minVersion: SecureVersion;
  /** OpenSSL cipher list (TLS 1.2 and lower), from --tls-cipher-suites. */
  ciphers?: string;
  /** Streams a client may open at once on one HTTP/2 connection (Go's default: 250). */
  http2MaxStreams: number;
}

export type RequestListener = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => void;

/**
 * Go's answer to a request its HTTP/1.1 parser refuses (server.go): the status as text, no
 * keep-alive. Node's own answer is skipped on a TLS socket (its bytesWritten counts the
 * handshake), which left such a client with a dropped connection. Node's parser also refuses
 * methods outside its list, which Go passes on as tokens (kube then answers 405 or 404): those
 * are a 400 here.
 */
const GO_ERROR_HEADERS = '\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n';

function answerBadRequests(server: HttpServer): void {
  // A response in progress on the connection (a pipelined request broke after it) finishes first.
  const busy = new WeakMap<Socket, ServerResponse>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    busy.set(req.socket, res);
    res.once('close', () => {
      if (busy.get(req.socket) === res) busy.delete(req.socket);
    });
  });
  const answered = new WeakSet<Socket>();
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // The rest of a refused request's bytes fail the parser again: they are read and dropped
    // (closing with them unread would reset the connection before the client reads the answer).
    if (answered.has(socket)) return;
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    answered.add(socket);
    const text = err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
    const answer = () => {
      socket.end(`HTTP/1.1 ${text}${GO_ERROR_HEADERS}${text}`);
      // As Go's server waits (rstAvoidanceDelay) for the client to read and close.
      setTimeout(() => socket.destroy(), 500).unref();
    };
    const res = busy.get(socket);
    if (res && !res.writableFinished) res.once('finish', answer);
    else answer();
  });
}

export class Listener {
  /** The HTTP/1.1 server: watch-websocket hooks its upgrade event. */
  readonly http1: HttpServer;
  private readonly http2?: Http2Server;
  private readonly outer: NetServer;
  private readonly sockets = new Set<Socket>();
  private readonly sessions = new Set<ServerHttp2Session>();
  /**
   * Connections accepted that have not sent a request yet ("addr:port" -> when accepted): a
   * client may already have written its request on one, so shutdown waits for them.
   */
  private readonly fresh = new Map<string, number>();

  constructor(
    listener: RequestListener,
    readonly tls?: TLSServing,
  ) {
    this.http1 = createHttpServer(listener as (req: IncomingMessage, res: ServerResponse) => void);
    // Watches are long-lived; Node's default request timeout would cut them.
    this.http1.requestTimeout = 0;
    this.http1.keepAliveTimeout = 65_000;
    const used = (req: IncomingMessage): void => void this.fresh.delete(connectionKey(req.socket));
    this.http1.on('request', used);
    // (An 'upgrade' listener makes Node hand upgrades to that event: the node's WebSocket
    // handler takes them there.)
    this.http1.on('upgrade', used);
    answerBadRequests(this.http1);
    if (!tls) {
      this.outer = this.http1;
      this.outer.on('connection', (s: Socket) => this.track(s));
      return;
    }
    this.http2 = createH2Server({ settings: { maxConcurrentStreams: tls.http2MaxStreams } }, listener);
    this.http2.on('session', (s: ServerHttp2Session) => {
      // (A session's streams are the GOAWAY's business: its client knows which were taken.)
      this.fresh.delete(connectionKey(s.socket));
      this.sessions.add(s);
      s.once('close', () => this.sessions.delete(s));
    });
    // HTTP/2 connections stay open between requests (kube's idle timeout is far longer than
    // Node's two minutes); clients close them.
    this.http2.setTimeout(0);
    const tlsServer: TlsServer = createTlsServer(
      {
        cert: tls.cert,
        key: tls.key,
        ca: tls.clientCA,
        requestCert: tls.clientCA !== undefined,
        rejectUnauthorized: false,
        minVersion: tls.minVersion,
        ciphers: tls.ciphers,
        ALPNProtocols: ['h2', 'http/1.1'],
      },
      (sock: TLSSocket) => {
        if (sock.alpnProtocol === 'h2') this.http2!.emit('connection', sock);
        else this.http1.emit('connection', sock);
      },
    );
    // A client that fails the handshake (wrong CA, bad protocol) only loses its connection.
    tlsServer.on('tlsClientError', (_err: Error, s: TLSSocket) => s.destroy());
    // Go's net package turns Nagle off on every TCP connection, and Node's HTTP server does too,
    // but only for connections its own listener accepts: this one hands them over, so it must
    // say so itself. With Nagle on, a watch event written while the previous one waits for the
    // client's delayed ACK is held up to 40 ms.
    this.outer = createNetServer({ noDelay: true }, (raw: Socket) => {
      this.track(raw);
      raw.on('error', () => raw.destroy());
      // A connection that never says anything is dropped (after that, the TLS handshake
      // timeout holds).
      raw.setTimeout(PEEK_TIMEOUT_MS, () => raw.destroy());
      const onReadable = (): void => {
        const first = raw.read() as Buffer | null;
        if (first === null) return;
        raw.off('readable', onReadable);
        raw.setTimeout(0);
        if (looksLikeHTTP(first)) {
          raw.end(HTTP_ON_TLS_PORT);
          return;
        }
        // The TLS socket reads what is already buffered on the connection first.
        raw.unshift(first);
        tlsServer.emit('connection', raw);
      };
      raw.on('readable', onReadable);
    });
  }

  private track(s: Socket): void {
    const key = connectionKey(s);
    this.sockets.add(s);
    this.fresh.set(key, Date.now());
    s.once('close', () => {
      this.sockets.delete(s);
      this.fresh.delete(key);
    });
  }

  /** Connections accepted in the last few seconds that have not sent a request yet. */
  pendingConnections(): number {
    const since = Date.now() - NEW_CONNECTION_GRACE_MS;
    let n = 0;
    for (const at of this.fresh.values()) if (at > since) n++;
    return n;
  }

  get scheme(): 'https' | 'http' {
    return this.tls ? 'https' : 'http';
  }

  listen(port: number, host: string): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      this.outer.once('error', reject);
      this.outer.listen(port, host, () => {
        this.outer.off('error', reject);
        resolve(this.outer.address() as AddressInfo);
      });
    });
  }

  /**
   * Stops accepting (graceful shutdown): no new connection; idle HTTP/1.1 connections close,
   * HTTP/2 sessions get a GOAWAY; requests in flight and open streams go on.
   */
  stopAccepting(): void {
    this.outer.close();
    this.http1.closeIdleConnections();
    for (const s of this.sessions) s.close();
  }

  /** Stops accepting and drops every open connection (watches included). */
  async close(): Promise<void> {
    const closed = new Promise<void>((r) => this.outer.close(() => r()));
    for (const s of this.sessions) s.destroy();
    this.http1.closeAllConnections();
    for (const s of this.sockets) s.destroy();
    await closed;
  }
}

function connectionKey(s: { remoteAddress?: string; remotePort?: number }): string {
  return `${s.remoteAddress ?? ''}:${s.remotePort ?? ''}`;
}
