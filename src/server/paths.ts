// Which paths are kube's go-restful web services and which belong to its plain mux, and the
// root index (`GET /`) that lists what the mux and the web services serve.

import type Router from '@koa/router';
import type { ResourceDef } from '../registry/types.js';
import { apiVersionOf } from '../machinery/api-resource.js';

/**
 * A predicate for the paths of go-restful web services (app.ts, AppParts.restfulPath):
 * `/api...`, `/version...`, and a served group's paths below `/apis/<group>/` (the group's
 * own document, `/apis/<group>` with or without a slash, is the aggregator's, on the mux).
 */
export function restfulPaths(defs: () => ResourceDef[]): (path: string) => boolean {
  let groups: Set<string> | undefined;
  return (path) => {
    if (path === '/api' || path.startsWith('/api/') || path === '/version' || path.startsWith('/version/')) return true;
    if (!path.startsWith('/apis/')) return false;
    const segs = path.split('/');
    groups ??= new Set(defs().map((d) => d.group).filter((g) => g !== ''));
    return groups.has(segs[2]) && segs.length > 3 && segs.slice(3).some((x) => x !== '');
  };
}

/** `GET /` (any method): the sorted list of served paths, as kube's index handler writes it. */
export function installIndex(router: Router, defs: () => ResourceDef[], healthPaths: () => string[]): void {
  router.all(/^\/$/, (ctx) => {
    const gvs = new Set<string>();
    const groups = new Set<string>();
    for (const d of defs()) {
      gvs.add(d.group === '' ? `/api/${d.version}` : `/apis/${apiVersionOf(d)}`);
      if (d.group !== '') groups.add(`/apis/${d.group}`);
    }
    const paths = ['/api', '/apis', '/metrics', '/openapi/v2', '/openapi/v3', '/openapi/v3/', '/version', ...gvs, ...groups, ...healthPaths()];
    ctx.status = 200;
    ctx.set('Content-Type', 'application/json');
    ctx.body = JSON.stringify({ paths: [...new Set(paths)].sort() }, null, 2);
  });
}
