// CBOR, kube's third wire format, served behind the CBORServingAndStorage feature gate
// (alpha in 1.33, off by default): objects, lists, tables and Status in application/cbor,
// watch streams in application/cbor-seq, apply patches in application/apply-patch+cbor.

import { featureEnabled } from '../../machinery/feature-gates.js';

export const CBOR_MEDIA_TYPE = 'application/cbor';
/** RFC 8742 CBOR sequence: a watch stream is one CBOR item per event, back to back. */
export const CBOR_SEQ_MEDIA_TYPE = 'application/cbor-seq';
export const APPLY_PATCH_CBOR_MEDIA_TYPE = 'application/apply-patch+cbor';

/** The gate kube adds the CBOR serializer (and the apply+cbor patch type) under. */
export const cborEnabled = (): boolean => featureEnabled('CBORServingAndStorage');

export { encodeCbor, encodeCborWatchEvent, SELF_DESCRIBED_PREFIX, CborEncodeError } from './encode.js';
export { decodeCbor, CborDecodeError, type CborDocument, type CborDuplicate } from './decode.js';
export { decodeCborTypedBody } from './typed.js';
export { applyPatchCborToJson } from './apply-patch.js';
