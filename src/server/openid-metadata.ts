// The routes of service account issuer discovery: the documents as rendered, with the hour of
// public caching kube allows them.

import type Router from '@koa/router';
import { JWKS_PATH, OPENID_CONFIG_PATH, type OpenIDMetadata } from '../auth/serviceaccount/openid-metadata.js';

const CACHE_CONTROL = 'public, max-age=3600';

/** `metadata()` is read per request: the JWKS URI may name the port known only once listening. */
export function installOpenIDMetadata(router: Router, metadata: () => OpenIDMetadata): void {
  router.get(OPENID_CONFIG_PATH, (ctx) => {
    ctx.status = 200;
    ctx.set('Content-Type', 'application/json');
    ctx.set('Cache-Control', CACHE_CONTROL);
    ctx.body = metadata().configJSON;
  });
  router.get(JWKS_PATH, (ctx) => {
    ctx.status = 200;
    ctx.set('Content-Type', 'application/jwk-set+json');
    ctx.set('Cache-Control', CACHE_CONTROL);
    ctx.body = metadata().keysetJSON;
  });
}
