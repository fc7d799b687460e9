// `application/apply-patch+cbor` bodies: kube decodes them (validateAndTranscodePatch) into a
// plain value with its strict CBOR decoder and re-encodes it as JSON before Server-Side
// Apply sees it, so an apply patch in CBOR means exactly what the same value in YAML
// means. Any decode failure, a repeated map key anywhere included, is a 400
// `error decoding patch: <cbor error>`.

import { badRequest } from '../../machinery/errors.js';
import { CborDecodeError, decodeCbor, duplicateKeyMessage } from './decode.js';

/** The plain JSON value of an apply-patch+cbor body (what an apply-patch+yaml body yields). */
export function applyPatchCborToJson(body: Buffer): unknown {
  try {
    const doc = decodeCbor(body);
    const dup = doc.duplicates[0];
    if (dup) throw badRequest(`error decoding patch: ${duplicateKeyMessage(dup)}`);
    return doc.value;
  } catch (e) {
    if (e instanceof CborDecodeError) throw badRequest(`error decoding patch: ${e.message}`);
    throw e;
  }
}
