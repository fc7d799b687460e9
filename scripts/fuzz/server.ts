// The kapi the fuzzer drives: started from dist/ on a free port and a temp data dir (with the
// CBOR gate on, so CBOR bodies reach their decoders), or an address given on the command line.
// Requests go out over plain sockets so that any header bytes and any HTTP framing can be sent
// and the answer read as the bytes that came back.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const CLI = join(ROOT, 'dist', 'src', 'cli.js');

export interface Target {
  host: string;
  port: number;
  secure: boolean;
  /** Client credentials from the kubeconfig (a TLS server may want them). */
  cert?: Buffer;
  key?: Buffer;
  token?: string;
  /** The last TLS session, resumed by the next connection. */
  session?: Buffer;
}

export interface Running {
  target: Target;
  proc?: ChildProcess;
  logs(): string;
  alive(): boolean;
  stop(): Promise<void>;
}

interface KubeUser {
  'client-certificate-data'?: string;
  'client-key-data'?: string;
  token?: string;
}

function credentials(kubeconfig: string): Pick<Target, 'cert' | 'key' | 'token'> {
  try {
    const doc = parseYaml(readFileSync(kubeconfig, 'utf8')) as { users?: { user?: KubeUser }[] };
    const u = doc.users?.[0]?.user ?? {};
    return {
      cert: u['client-certificate-data'] ? Buffer.from(u['client-certificate-data'], 'base64') : undefined,
      key: u['client-key-data'] ? Buffer.from(u['client-key-data'], 'base64') : undefined,
      token: u.token,
    };
  } catch {
    return {};
  }
}

function targetOf(url: string, kubeconfig?: string): Target {
  const u = new URL(url);
  const secure = u.protocol === 'https:';
  return { host: u.hostname, port: Number(u.port || (secure ? 443 : 80)), secure, ...(kubeconfig ? credentials(kubeconfig) : {}) };
}

export async function startServer(extraArgs: string[] = []): Promise<Running> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kapi-fuzz-'));
  const proc = spawn(process.execPath, [CLI, 'serve', '--data-dir', dataDir, '--secure-port', '0', '--feature-gates', 'CBORServingAndStorage=true', ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`kapi did not become ready:\n${out}`)), 30_000);
    const check = () => {
      for (const line of out.split('\n')) {
        if (!line.includes('"kapi ready"')) continue;
        try {
          clearTimeout(timer);
          resolveUrl((JSON.parse(line) as { url: string }).url);
          return;
        } catch {
          // a partial line
        }
      }
    };
    proc.stdout!.on('data', check);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`kapi exited with ${code}:\n${out}`));
    });
  });
  let exited = false;
  proc.once('exit', () => (exited = true));
  return {
    target: targetOf(url, join(dataDir, 'admin.kubeconfig')),
    proc,
    logs: () => out,
    alive: () => !exited,
    stop: async () => {
      if (!exited) {
        proc.kill('SIGTERM');
        await new Promise((r) => proc.once('exit', r));
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function useServer(url: string, kubeconfig?: string, alive: () => boolean = () => true): Running {
  return { target: targetOf(url, kubeconfig), logs: () => '', alive, stop: async () => {} };
}

export interface RawResponse {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

/** Why an exchange did not end in a complete HTTP response. */
export class BrokenConnection extends Error {}

/**
 * Sends one request as raw bytes and reads one complete response (Content-Length, chunked,
 * or until the server closes). Anything else (a reset, a half response, bytes that are no HTTP)
 * is a BrokenConnection. `timeoutMs` bounds the whole exchange.
 */
export function exchange(t: Target, request: Buffer, timeoutMs: number, head = false): Promise<RawResponse> {
  return new Promise((resolveResponse, reject) => {
    const sock: net.Socket = t.secure
      ? tls.connect({ host: t.host, port: t.port, rejectUnauthorized: false, cert: t.cert, key: t.key, session: t.session, ALPNProtocols: ['http/1.1'] })
      : net.connect({ host: t.host, port: t.port });
    // Resumed TLS sessions: a full handshake per request would cost most of the run's time.
    if (t.secure) sock.on('session', (s: Buffer) => (t.session = s));
    let buf = Buffer.alloc(0);
    let done = false;
    const finish = (err?: Error, res?: RawResponse) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sock.destroy();
      if (err) reject(err);
      else resolveResponse(res!);
    };
    const timer = setTimeout(() => finish(new BrokenConnection(`no complete response in ${timeoutMs} ms (${buf.length} bytes read)`)), timeoutMs);
    const tryParse = (ended: boolean) => {
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) {
        if (ended) finish(new BrokenConnection(`connection closed before the response head (${buf.length} bytes)`));
        return;
      }
      const lines = buf.subarray(0, end).toString('latin1').split('\r\n');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0]);
      if (!m) return finish(new BrokenConnection(`not an HTTP status line: ${JSON.stringify(lines[0].slice(0, 80))}`));
      const headers = lines.slice(1).map((l) => {
        const i = l.indexOf(':');
        return [l.slice(0, i).trim().toLowerCase(), l.slice(i + 1).trim()] as [string, string];
      });
      const status = Number(m[1]);
      const rest = buf.subarray(end + 4);
      const get = (n: string) => headers.find(([k]) => k === n)?.[1];
      if (head || status === 204 || status === 304) return finish(undefined, { status, headers, body: Buffer.alloc(0) });
      const len = get('content-length');
      if (len !== undefined) {
        if (rest.length >= Number(len)) return finish(undefined, { status, headers, body: rest.subarray(0, Number(len)) });
        if (ended) finish(new BrokenConnection(`body shorter than Content-Length ${len} (${rest.length})`));
        return;
      }
      if ((get('transfer-encoding') ?? '').toLowerCase().includes('chunked')) {
        const chunks: Buffer[] = [];
        let at = 0;
        for (;;) {
          const nl = rest.indexOf('\r\n', at);
          if (nl < 0) break;
          const size = parseInt(rest.subarray(at, nl).toString('latin1'), 16);
          if (Number.isNaN(size)) return finish(new BrokenConnection('malformed chunk size'));
          if (size === 0) return finish(undefined, { status, headers, body: Buffer.concat(chunks) });
          if (rest.length < nl + 2 + size + 2) break;
          chunks.push(rest.subarray(nl + 2, nl + 2 + size));
          at = nl + 2 + size + 2;
        }
        if (ended) finish(new BrokenConnection('connection closed inside a chunked body'));
        return;
      }
      if (ended) finish(undefined, { status, headers, body: rest });
    };
    sock.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      tryParse(false);
    });
    sock.on('end', () => tryParse(true));
    sock.on('close', () => tryParse(true));
    sock.on('error', (e) => finish(new BrokenConnection(`socket error: ${e.message}`)));
    sock.write(request);
  });
}
