// A watch over chunked HTTP: a 200 whose body is the stream of frames, one chunk per event
// (HTTP/1.1), or one DATA write per event on the request's stream (HTTP/2).

import type { Context } from 'koa';
import type { Http2ServerResponse } from 'node:http2';
import type { WatchEvent, WatchSink } from '../machinery/watch.js';

/**
 * A frame in HTTP/1.1 chunked framing, made once per frame: every watcher of an event
 * shares the frame, so they share its chunk too.
 */
const chunkedFrames = new WeakMap<Buffer, Buffer>();
const CRLF = Buffer.from('\r\n');

function chunked(frame: Buffer): Buffer {
  let c = chunkedFrames.get(frame);
  if (!c) {
    c = Buffer.concat([Buffer.from(`${frame.length.toString(16)}\r\n`, 'latin1'), frame, CRLF]);
    chunkedFrames.set(frame, c);
  }
  return c;
}

/**
 * HTTP/2 frames its own data: frames go straight to the request's stream, which HTTP/2
 * flow-controls on its own (its buffer and drain, not the shared connection's).
 */
function http2WatchSink(ctx: Context, contentType: string, encode: (ev: WatchEvent) => Buffer): WatchSink {
  const res = ctx.res as unknown as Http2ServerResponse;
  const stream = res.stream;
  // writeHead sends the headers at once, before any event.
  res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-cache, private' });
  return {
    write: (ev) => {
      if (stream.destroyed || stream.writableEnded) return;
      stream.write(encode(ev));
    },
    cork: () => stream.cork(),
    uncork: () => stream.uncork(),
    pending: () => stream.writableLength,
    whenDrained: (fn) => {
      if (stream.destroyed) return void setImmediate(fn);
      stream.once('drain', fn);
    },
    end: () => {
      if (!res.writableEnded) res.end();
    },
    destroy: () => stream.destroy(),
    onClose: (fn) => void res.once('close', fn),
  };
}

/** Answers the watch with the stream's headers and returns the sink of its body. */
export function httpWatchSink(ctx: Context, contentType: string, encode: (ev: WatchEvent) => Buffer): WatchSink {
  ctx.respond = false;
  if (ctx.req.httpVersionMajor === 2) return http2WatchSink(ctx, contentType, encode);
  const res = ctx.res;
  res.statusCode = 200;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Cache-Control', 'no-cache, private');
  res.setHeader('Transfer-Encoding', 'chunked');
  res.flushHeaders();
  // The headers are flushed and the response is chunked: a frame goes to the socket as one
  // ready-made chunk shared by every watcher, where res.write would frame it again per
  // watcher as four buffers. res.end() still writes the last chunk.
  const direct = res.headersSent && res.chunkedEncoding && res.socket !== null;
  return {
    write: (ev) => {
      if (res.writableEnded || res.destroyed) return;
      const frame = encode(ev);
      const sock = res.socket;
      if (direct && sock && !sock.destroyed) sock.write(chunked(frame));
      else res.write(frame);
    },
    // Frames written while the socket is corked leave in one writev.
    cork: () => res.socket?.cork(),
    uncork: () => res.socket?.uncork(),
    pending: () => res.writableLength,
    whenDrained: (fn) => {
      const sock = res.socket;
      if (!sock || sock.destroyed) return void setImmediate(fn);
      sock.once('drain', fn);
    },
    end: () => {
      if (!res.writableEnded) res.end();
    },
    destroy: () => res.destroy(),
    // The response closes when it completes or when the connection goes away.
    onClose: (fn) => void res.once('close', fn),
  };
}
