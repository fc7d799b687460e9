// Request bodies: read with kube's size limit, then decoded by Content-Type with
// kube's nesting limit. Errors are the Status kube-apiserver gives.

import type { IncomingMessage } from 'node:http';
import { goDecodeUtf8, yamlBodyText } from '../machinery/utf8.js';
import { YamlDecodeError, parseYamlWithDuplicates } from '../schema/yaml-dups.js';
import { StatusError, badRequest, requestEntityTooLarge, unsupportedMediaType } from '../machinery/errors.js';
import { PROTOBUF_MEDIA_TYPE, ProtobufDecodeError, decodeProtobufObject } from './protobuf/index.js';
import { CBOR_MEDIA_TYPE, CborDecodeError, cborEnabled, decodeCbor } from './cbor/index.js';

/** kube-apiserver's --max-request-bytes default: 3 MiB. */
export const MAX_REQUEST_BYTES = 3 * 1024 * 1024;
export const MAX_NESTING_DEPTH = 10_000;
export const BODY_MEDIA_TYPES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

/** The body media types a 415 lists: the CBOR gate appends application/cbor. */
export const bodyMediaTypes = (): string[] => (cborEnabled() ? [...BODY_MEDIA_TYPES, CBOR_MEDIA_TYPE] : BODY_MEDIA_TYPES);

export function readBody(req: IncomingMessage, limit = MAX_REQUEST_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > limit) {
    req.resume();
    return Promise.reject(requestEntityTooLarge(limit));
  }
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  // Listeners rather than the stream's async iterator: on every write request the iterator's
  // promise per chunk costs more than reading the body.
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        done();
        req.resume();
        reject(requestEntityTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      done();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    };
    const onError = (err: Error): void => {
      done();
      reject(err);
    };
    // A client gone before the end of its body: nothing to answer.
    const onClose = (): void => {
      if (req.complete) return;
      done();
      reject(new Error('request aborted'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** Rejects JSON nested deeper than kube allows, before the parser sees it. */
function checkJsonDepth(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_NESTING_DEPTH) throw badRequest(`json: exceeded max depth of ${MAX_NESTING_DEPTH}`);
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
}

/** The base media type of a Content-Type header, lower-cased, without parameters. */
export const baseMediaType = (ct: string | undefined): string => (ct ?? '').split(';')[0].trim().toLowerCase();

export interface DecodeTarget {
  kind: string;
  apiVersion: string;
}

/** Decodes a request body into a plain object, by Content-Type. */
export function decodeBody(body: Buffer, contentType: string | undefined, target: DecodeTarget): unknown {
  const mt = baseMediaType(contentType) || 'application/json';
  const cannot = (why: string) =>
    badRequest(`${target.kind} in version "${target.apiVersion.split('/').pop()}" cannot be handled as a ${target.kind}: ${why}`);
  if (mt === CBOR_MEDIA_TYPE && cborEnabled()) {
    try {
      const doc = decodeCbor(body);
      const dup = doc.duplicates[0];
      if (dup) throw cannot(`cbor: found duplicate map key "${dup.key}" at map element index ${dup.index}`);
      return doc.value;
    } catch (e) {
      if (e instanceof CborDecodeError) throw cannot(e.message);
      throw e;
    }
  }
  const text = mt === PROTOBUF_MEDIA_TYPE ? '' : goDecodeUtf8(body);
  if (mt === 'application/json') {
    if (text.trim() === '') throw cannot('Object \'Kind\' is missing in \'\'');
    checkJsonDepth(text);
    try {
      return JSON.parse(text);
    } catch (e) {
      throw cannot(`json: ${(e as Error).message}`);
    }
  }
  if (mt === 'application/yaml') {
    const read = yamlBodyText(body);
    if ('error' in read) throw cannot(`yaml: ${read.error}`);
    let doc: unknown;
    try {
      // goyaml.v2's reading (the first document, its depth limit, collections refused as map
      // keys before anything stringifies them, aliases capped).
      doc = parseYamlWithDuplicates(read.text, { readerFault: read.fault }).value;
    } catch (e) {
      if (e instanceof StatusError) throw e;
      if (e instanceof YamlDecodeError) throw cannot(e.message);
      throw cannot(`yaml: ${(e as Error).message.split('\n')[0]}`);
    }
    checkJsonDepth(JSON.stringify(doc ?? null));
    return doc;
  }
  if (mt === PROTOBUF_MEDIA_TYPE) {
    try {
      return decodeProtobufObject(body).object;
    } catch (e) {
      if (e instanceof ProtobufDecodeError) throw cannot(e.message);
      throw e;
    }
  }
  throw unsupportedMediaType(mt, bodyMediaTypes());
}
