// What every verb handler needs about the request, resolved once by the dispatcher.

import type { Context } from 'koa';
import type { OutputFormat } from '../codec/negotiate.js';
import type { GenericStore } from '../registry/generic/store.js';
import type { ResourceDef } from '../registry/types.js';
import type { KObject } from '../machinery/object.js';
import type { RequestInfo } from './request-info.js';
import { readBody } from '../codec/body.js';
import { writeTurn } from './write-turn.js';
import { decodeTypedBody } from '../codec/typed-body.js';
import { SCHEMAS, rootDefinition } from '../schema/types/index.js';
import type { FieldValidation } from '../machinery/options.js';
import { badRequest } from '../machinery/errors.js';
import { strconvParseInt } from '../machinery/go-format.js';
import { WarningRecorder } from './warnings.js';

export interface Scope {
  ctx: Context;
  info: RequestInfo;
  def: ResourceDef;
  store: GenericStore;
  query: URLSearchParams;
  out: OutputFormat;
  pretty: boolean;
}

/** A write's body, handed over in the turn shared by the writes whose bodies arrived with it. */
export async function readWriteBody(s: Scope): Promise<Buffer> {
  const body = await readBody(s.ctx.req);
  await writeTurn();
  return body;
}

/** Reads the body and decodes it through the schema as an object of the scope's kind. */
export async function readObject(s: Scope, fieldValidation: FieldValidation): Promise<KObject> {
  const body = await readWriteBody(s);
  const target = {
    kind: s.def.kind,
    group: s.def.group,
    version: s.def.version,
    definition: rootDefinition(s.def.group, s.def.version, s.def.kind),
  };
  const { object, warnings } = decodeTypedBody(body, s.ctx.get('content-type') || undefined, target, SCHEMAS, fieldValidation);
  addWarnings(s, warnings);
  const obj = object as KObject;
  if (obj.metadata === undefined || obj.metadata === null) obj.metadata = {};
  return obj;
}

/** One `Warning: 299 - "<text>"` header per warning, with kube's recorder's rules (warnings.ts). */
export function addWarnings(s: Scope, warnings: string[]): void {
  if (warnings.length === 0) return;
  const rec = ((s.ctx.state.warnings as WarningRecorder | undefined) ??= new WarningRecorder());
  for (const w of warnings) rec.add(w);
  const values = rec.headers();
  if (values.length) s.ctx.set('Warning', values);
  else s.ctx.remove('Warning');
}

/** An optional int64 query parameter, read as kube's parameter codec reads it (strconv.ParseInt's 400). */
export function intParam(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  try {
    return strconvParseInt(v);
  } catch (e) {
    throw badRequest((e as Error).message);
  }
}
