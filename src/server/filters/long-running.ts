// kube-apiserver's long-running request check (BasicLongRunningRequestCheck with the
// kube-apiserver's verbs and subresources): watches, and the streaming subresources. They
// are exempt from the in-flight limits and the request timeout.

import type { RequestInfo } from '../../api/request-info.js';

const LONG_RUNNING_VERBS = new Set(['watch', 'proxy']);
const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

export function isLongRunning(info: RequestInfo): boolean {
  if (LONG_RUNNING_VERBS.has(info.verb)) return true;
  return info.isResourceRequest && LONG_RUNNING_SUBRESOURCES.has(info.subresource);
}
