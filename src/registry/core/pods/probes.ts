// Probes and lifecycle handlers (validateProbe, validateLifecycle, validateHandler):
// exactly one handler each, with kube 1.33's rules (zero-second sleep actions allowed).

import type { FieldError } from '../../../machinery/errors.js';
import { forbidden, invalid, nonNegative, notSupported, required } from '../../../machinery/validation/field.js';
import { regexError } from '../../../machinery/validation/names.js';
import { isValidPortName, isValidPortNum } from '../../../machinery/validation/network.js';
import { asArr, asObj, str, type Obj } from '../../../machinery/json-view.js';

const HTTP_SCHEMES = ['HTTP', 'HTTPS'];

function validatePortNumOrName(port: unknown, path: string): FieldError[] {
  if (typeof port === 'number') return isValidPortNum(port).map((m) => invalid(path, port, m));
  if (typeof port === 'string') return isValidPortName(port).map((m) => invalid(path, port, m));
  return isValidPortNum(0).map((m) => invalid(path, 0, m));
}

interface Handler {
  exec?: unknown;
  httpGet?: unknown;
  tcpSocket?: unknown;
  grpc?: unknown;
  sleep?: unknown;
}

function validateHandler(h: Handler, grace: number | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let n = 0;
  const take = (k: keyof Handler, validate: (o: Obj, p: string) => FieldError[]): void => {
    if (h[k] === undefined || h[k] === null) return;
    if (n > 0) {
      errs.push(forbidden(`${path}.${k}`, 'may not specify more than 1 handler type'));
      return;
    }
    n++;
    errs.push(...validate(asObj(h[k]) ?? {}, `${path}.${k}`));
  };
  take('exec', (o, p) => (asArr(o.command).length === 0 ? [required(`${p}.command`)] : []));
  take('httpGet', (o, p) => {
    const e: FieldError[] = [];
    if (!str(o.path)) e.push(required(`${p}.path`));
    e.push(...validatePortNumOrName(o.port, `${p}.port`));
    if (!HTTP_SCHEMES.includes(str(o.scheme))) e.push(notSupported(`${p}.scheme`, str(o.scheme), HTTP_SCHEMES));
    for (const hdr of asArr(o.httpHeaders)) {
      const hn = str(asObj(hdr)?.name);
      if (!/^[-A-Za-z0-9]+$/.test(hn)) {
        e.push(invalid(`${p}.httpHeaders`, hn, regexError("a valid HTTP header must consist of alphanumeric characters or '-'", '[-A-Za-z0-9]+', 'X-Header-Name')));
      }
    }
    return e;
  });
  take('tcpSocket', (o, p) => validatePortNumOrName(o.port, `${p}.port`));
  take('grpc', (o, p) => validatePortNumOrName(typeof o.port === 'number' ? o.port : 0, `${p}.port`));
  take('sleep', (o, p) => {
    const s = typeof o.seconds === 'number' ? o.seconds : 0;
    if (grace !== undefined && (s < 0 || s > grace)) {
      return [invalid(p, s, `must be non-negative and less than terminationGracePeriodSeconds (${grace})`)];
    }
    return [];
  });
  if (n === 0) errs.push(required(path, 'must specify a handler type'));
  return errs;
}

function validateProbe(probe: Obj, grace: number | undefined, path: string): FieldError[] {
  const errs = validateHandler({ exec: probe.exec, httpGet: probe.httpGet, tcpSocket: probe.tcpSocket, grpc: probe.grpc }, grace, path);
  for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    errs.push(...nonNegative(probe[f], `${path}.${f}`));
  }
  const t = probe.terminationGracePeriodSeconds;
  if (typeof t === 'number' && t <= 0) errs.push(invalid(`${path}.terminationGracePeriodSeconds`, t, 'must be greater than 0'));
  return errs;
}

export function validateLivenessOrStartup(probe: unknown, grace: number | undefined, path: string): FieldError[] {
  const p = asObj(probe);
  if (!p) return [];
  const errs = validateProbe(p, grace, path);
  const st = typeof p.successThreshold === 'number' ? p.successThreshold : 0;
  if (st !== 1) errs.push(invalid(`${path}.successThreshold`, st, 'must be 1'));
  return errs;
}

export function validateReadinessProbe(probe: unknown, grace: number | undefined, path: string): FieldError[] {
  const p = asObj(probe);
  if (!p) return [];
  const errs = validateProbe(p, grace, path);
  if (p.terminationGracePeriodSeconds !== undefined && p.terminationGracePeriodSeconds !== null) {
    errs.push(invalid(`${path}.terminationGracePeriodSeconds`, p.terminationGracePeriodSeconds, 'must not be set for readinessProbes'));
  }
  return errs;
}

export function validateLifecycle(lc: Obj, grace: number | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of ['postStart', 'preStop'] as const) {
    const h = asObj(lc[k]);
    if (h) errs.push(...validateHandler({ exec: h.exec, httpGet: h.httpGet, tcpSocket: h.tcpSocket, sleep: h.sleep }, grace, `${path}.${k}`));
  }
  return errs;
}
