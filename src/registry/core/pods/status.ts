// What /status may write (ValidatePodStatusUpdate): condition types, the nominated node,
// an immutable QoS class, no container back from terminated (unless it restarts), and pod
// and host IPs one per family.

import type { FieldError } from '../../../machinery/errors.js';
import { duplicate, forbidden, invalid } from '../../../machinery/validation/field.js';
import type { KObject } from '../../../machinery/object.js';
import { isDNS1123Subdomain, isQualifiedName } from '../../../machinery/validation/names.js';
import { IP_MSG, isIP } from '../../../machinery/validation/network.js';
import { asArr, asObj, isObj, str, type Obj } from '../../../machinery/json-view.js';
import { validatePodSpecificAnnotationUpdates, validatePodSpecificAnnotations } from './annotations.js';

const spec = (o: KObject): Obj => (o.spec ??= {}) as Obj;
const status = (o: KObject): Obj => (o.status ??= {}) as Obj;

const SYSTEM_CONDITIONS = new Set(['PodScheduled', 'Ready', 'Initialized']);

export function validatePodStatusUpdate(obj: KObject, old: KObject): FieldError[] {
  const st = status(obj);
  const ost = (old.status ?? {}) as Obj;
  const errs = validatePodSpecificAnnotationUpdates(obj.metadata.annotations, old.metadata.annotations, 'metadata.annotations');
  errs.push(...validatePodSpecificAnnotations(obj.metadata.annotations, spec(obj), 'metadata.annotations'));
  asArr(st.conditions).forEach((c, i) => {
    const t = str(asObj(c)?.type);
    if (SYSTEM_CONDITIONS.has(t)) return;
    // kube validates these under metadata.conditions (sic).
    for (const m of isQualifiedName(t)) errs.push(invalid(`metadata.conditions[${i}].Type`, t, m));
  });
  const nominated = str(st.nominatedNodeName);
  if (nominated && nominated !== str(ost.nominatedNodeName)) {
    for (const m of isDNS1123Subdomain(nominated)) errs.push(invalid('status.nominatedNodeName', nominated, m));
  }
  if ((st.qosClass ?? '') !== (ost.qosClass ?? '')) {
    errs.push(invalid('status.qosClass', st.qosClass ?? '', 'field is immutable'));
  }
  const restartPolicy = str((old.spec as Obj | undefined)?.restartPolicy);
  errs.push(...containerStateTransitions(st.containerStatuses, ost.containerStatuses, 'status.containerStatuses', restartPolicy, () => false));
  const initSpecs = asArr((old.spec as Obj | undefined)?.initContainers).filter(isObj);
  errs.push(
    ...containerStateTransitions(st.initContainerStatuses, ost.initContainerStatuses, 'status.initContainerStatuses', restartPolicy, (name) =>
      initSpecs.some((c) => c.name === name && c.restartPolicy === 'Always'),
    ),
  );
  errs.push(...containerStateTransitions(st.ephemeralContainerStatuses, ost.ephemeralContainerStatuses, 'status.ephemeralContainerStatuses', 'Never', () => false));
  errs.push(...validateIPList(asArr(st.podIPs), 'status.podIPs'));
  const hostIPs = asArr(st.hostIPs);
  if (hostIPs.length > 0) {
    const first = str(asObj(hostIPs[0])?.ip);
    if (str(st.hostIP) !== first) errs.push(invalid('status.hostIPs[0].ip', first, 'must be equal to `hostIP`'));
    errs.push(...validateIPList(hostIPs, 'status.hostIPs'));
  }
  return errs;
}

function containerStateTransitions(next: unknown, prev: unknown, path: string, restartPolicy: string, restartable: (name: string) => boolean): FieldError[] {
  if (restartPolicy === 'Always') return [];
  const errs: FieldError[] = [];
  asArr(prev).forEach((raw, i) => {
    const os = asObj(raw) ?? {};
    const term = asObj(asObj(os.state)?.terminated);
    if (!term) return;
    if (term.exitCode !== 0 && restartPolicy === 'OnFailure') return;
    if (restartable(str(os.name))) return;
    for (const n of asArr(next)) {
      const ns = asObj(n) ?? {};
      if (ns.name === os.name && !asObj(asObj(ns.state)?.terminated)) {
        errs.push(forbidden(`${path}[${i}].state`, 'may not be transitioned to non-terminated state'));
      }
    }
  });
  return errs;
}

function validateIPList(list: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const ips = list.map((p) => str(asObj(p)?.ip));
  ips.forEach((ip, i) => {
    if (!isIP(ip)) errs.push(invalid(`${path}[${i}].ip`, ip, IP_MSG));
  });
  if (ips.length > 1) {
    const v4 = ips.filter((ip) => !ip.includes(':')).length;
    const v6 = ips.length - v4;
    if (ips.length > 2 || v4 !== 1 || v6 !== 1) {
      errs.push(invalid(path, list, 'may specify no more than one IP for each IP family'));
    }
    const seen = new Set<string>();
    ips.forEach((ip, i) => {
      if (seen.has(ip)) errs.push(duplicate(`${path}[${i}]`, list[i]));
      seen.add(ip);
    });
  }
  return errs;
}
