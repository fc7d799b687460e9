// resourceVersion as the API reads it: the decimal store revision, opaque to clients
// (storage.APIObjectVersioner.ParseResourceVersion).

import { badRequest } from './errors.js';
import { goQuote } from './go-format.js';

export function parseResourceVersion(rv: string): number {
  if (!/^[0-9]+$/.test(rv)) {
    throw badRequest(`resourceVersion: Invalid value: ${goQuote(rv)}: strconv.ParseUint: parsing ${goQuote(rv)}: invalid syntax`);
  }
  return Number(rv);
}
