// kube's WithCacheControl: every answer is private and not to be reused unless its handler
// says otherwise (discovery, OpenAPI and issuer discovery set their own), so no shared cache
// between a client and the server keeps one user's objects for another.

import type Koa from 'koa';

export function cacheControlDefault(): Koa.Middleware {
  return (ctx, next) => {
    ctx.res.setHeader('Cache-Control', 'no-cache, private');
    return next();
  };
}
