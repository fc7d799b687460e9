// Watch over WebSocket, after kube's WatchServer.HandleWS (endpoints/handlers/watch.go),
// which serves the stream through golang.org/x/net/websocket's Handler.
//
// An HTTP upgrade never reaches the 'request' event, so `serveUpgrades` hands every upgrade
// request to the application like any other request (request info, negotiation, errors,
// metrics), answering on the raw socket through a ServerResponse of its own. Only the watch
// handler takes the socket over; any other request is answered over HTTP and the socket
// closed. On a watch, the handshake is checked as x/net/websocket checks it and then
// completed by `ws`:
//
//   - Sec-WebSocket-Key missing: 400; Sec-WebSocket-Version other than 13: 400 with
//     `Sec-WebSocket-Version: 13` (x/net/websocket hybiServerHandshaker.ReadHandshake);
//   - no Origin header (or one that is not a URI): 403 with an empty body (checkOrigin);
//   - two or more offered subprotocols: 400 with an empty body (AcceptHandshake); one is
//     echoed back. Subprotocols never change the framing.
//
// Each watch event is then one message: a text message holding the JSON event and its
// trailing newline (JSON and Table), or a binary message holding the protobuf event without
// the length prefix of the HTTP stream. Messages from the client are read and ignored. The
// watcher writes into the sink `webSocketWatchSink` returns, as into the HTTP one.

import { ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Context } from 'koa';
import { WebSocketServer, type WebSocket } from 'ws';
import type { FrameFormat } from '../codec/watch-frames.js';
import type { WatchEvent, WatchSink } from '../machinery/watch.js';

const UPGRADE = Symbol('kapi.upgrade');

/** The raw connection of an upgrade request, until a handler takes it over. */
export interface PendingUpgrade {
  socket: Duplex;
  head: Buffer;
  res: ServerResponse;
  taken: boolean;
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Serves HTTP upgrade requests through `listener` (the application's request callback).
 * Upgraded connections are closed by `server.closeAllConnections()`, like the others.
 */
export function serveUpgrades(server: Server, listener: RequestListener): void {
  const sockets = new Set<Duplex>();
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const res = new ServerResponse(req);
    // Nothing parses this connection any more: one answer, then it closes.
    res.shouldKeepAlive = false;
    res.assignSocket(socket as Socket);
    const up: PendingUpgrade = { socket, head, res, taken: false };
    res.once('finish', () => {
      if (up.taken) return;
      res.detachSocket(socket as Socket);
      (socket as Socket).destroySoon();
    });
    (req as IncomingMessage & { [UPGRADE]?: PendingUpgrade })[UPGRADE] = up;
    listener(req, res);
  });
  const closeAll = server.closeAllConnections.bind(server);
  server.closeAllConnections = () => {
    for (const s of sockets) s.destroy();
    closeAll();
  };
}

/** wsstream.IsWebSocketRequest: `Upgrade: websocket` and a Connection header naming upgrade. */
export function isWebSocketRequest(req: IncomingMessage): boolean {
  if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket') return false;
  return (req.headers.connection ?? '').toLowerCase().includes('upgrade');
}

/** The pending upgrade of a request that arrived through `serveUpgrades`, if any. */
export function pendingUpgrade(req: IncomingMessage): PendingUpgrade | undefined {
  const up = (req as IncomingMessage & { [UPGRADE]?: PendingUpgrade })[UPGRADE];
  return up && !up.taken ? up : undefined;
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 403: 'Forbidden', 405: 'Method Not Allowed' };

function rawResponse(code: number, headers: string[] = [], body = ''): string {
  return `HTTP/1.1 ${code} ${STATUS_TEXT[code]}\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n${body}`;
}

/** url.ParseRequestURI, as far as an Origin needs: an absolute URI or an absolute path. */
function isRequestURI(s: string): boolean {
  if (s.startsWith('/')) return true;
  return /^[A-Za-z][A-Za-z0-9+.-]*:/.test(s) && !/\s/.test(s);
}

/** The raw answer x/net/websocket gives a handshake it refuses, or undefined to accept. */
export function handshakeRefusal(req: IncomingMessage): string | undefined {
  if (req.method !== 'GET') return rawResponse(405, [], 'bad method');
  const key = req.headers['sec-websocket-key'];
  if (!key) return rawResponse(400, [], 'mismatch challenge/response');
  if (req.headers['sec-websocket-version'] !== '13') {
    return rawResponse(400, ['Sec-WebSocket-Version: 13'], 'bad protocol version');
  }
  const origin = req.headers.origin;
  if (!origin || !isRequestURI(origin)) return rawResponse(403);
  const protocols = offeredProtocols(req);
  if (protocols.length > 1) return rawResponse(400);
  return undefined;
}

/** The offered subprotocols as x/net/websocket splits them (the first header line, on commas). */
function offeredProtocols(req: IncomingMessage): string[] {
  const raw = req.headersDistinct['sec-websocket-protocol']?.[0]?.trim() ?? '';
  return raw ? raw.split(',').map((p) => p.trim()) : [];
}

/** Writes a refusal on the raw socket and closes it. */
export function refuse(up: PendingUpgrade, response: string): void {
  up.taken = true;
  up.res.detachSocket(up.socket as Socket);
  up.socket.end(response);
  (up.socket as Socket).destroySoon?.();
}

const wss = new WebSocketServer({
  noServer: true,
  clientTracking: false,
  perMessageDeflate: false,
  // One offered subprotocol is echoed (more were refused before): x/net/websocket echoes it
  // verbatim after trimming.
  handleProtocols: (protocols) => {
    for (const p of protocols) return p;
    return false;
  },
});

/** Completes the handshake; resolves with the socket, or undefined when `ws` refused it. */
export function acceptWebSocket(up: PendingUpgrade, req: IncomingMessage): Promise<WebSocket | undefined> {
  up.taken = true;
  up.res.detachSocket(up.socket as Socket);
  return new Promise((resolve) => {
    const onClose = (): void => resolve(undefined);
    up.socket.once('close', onClose);
    wss.handleUpgrade(req, up.socket, up.head, (ws) => {
      up.socket.off('close', onClose);
      resolve(ws);
    });
  });
}

/**
 * Completes a watch's handshake on `up` and returns the sink of its messages; undefined when
 * the handshake was refused (answered on the raw socket) or the peer left during it.
 */
export async function webSocketWatchSink(
  ctx: Context,
  up: PendingUpgrade,
  format: FrameFormat,
  encode: (ev: WatchEvent) => Buffer,
): Promise<WatchSink | undefined> {
  ctx.respond = false;
  const refusal = handshakeRefusal(ctx.req);
  if (refusal) {
    ctx.res.statusCode = Number(refusal.slice(9, 12));
    refuse(up, refusal);
    return undefined;
  }
  ctx.res.statusCode = 101;
  const ws = await acceptWebSocket(up, ctx.req);
  return ws ? webSocketSink(ws, up.socket, format, encode) : undefined;
}

function webSocketSink(ws: WebSocket, socket: Duplex, format: FrameFormat, encode: (ev: WatchEvent) => Buffer): WatchSink {
  const binary = format !== 'json';
  ws.on('error', () => ws.terminate());
  // The client should send nothing; whatever it sends is read and dropped.
  ws.on('message', () => undefined);
  return {
    write: (ev) => {
      if (ws.readyState !== ws.OPEN) return;
      const frame = encode(ev);
      // Text messages carry the JSON line; protobuf events go without the length prefix;
      // a CBOR event is one binary message as it is.
      ws.send(format === 'protobuf' ? frame.subarray(4) : frame, { binary });
    },
    pending: () => ws.bufferedAmount,
    whenDrained: (fn) => {
      if (socket.destroyed) return void setImmediate(fn);
      socket.once('drain', fn);
    },
    end: () => {
      if (ws.readyState === ws.OPEN) ws.close(1000);
    },
    destroy: () => ws.terminate(),
    onClose: (fn) => {
      if (ws.readyState === ws.CLOSED) return void setImmediate(fn);
      ws.once('close', fn);
    },
  };
}
