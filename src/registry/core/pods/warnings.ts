// Warnings kube gives for a pod spec or template that it accepts (pkg/api/pod's
// warningsForPodSpecAndMeta): the ones kapi knows so far are the port definitions that
// repeat or overlap across the pod's containers, and a negative grace period.

import { asArr, asObj, isObj, type Obj } from '../../../machinery/json-view.js';

interface PortSeen {
  field: string;
  hostIP: string;
  hostPort: number;
}

/** The containers in kube's visiting order (init containers, containers, ephemeral ones), each with its path. */
function containersWithPaths(spec: Obj, path: string): [Obj, string][] {
  const out: [Obj, string][] = [];
  for (const kind of ['initContainers', 'containers', 'ephemeralContainers']) {
    asArr(spec[kind]).forEach((c, i) => {
      if (isObj(c)) out.push([c, `${path}.${kind}[${i}]`]);
    });
  }
  return out;
}

/** Warnings for the pod spec at `path` (e.g. `spec.template.spec`). */
export function podSpecWarnings(spec: unknown, path: string): string[] {
  if (!isObj(spec)) return [];
  const warnings: string[] = [];
  const seen = new Map<string, PortSeen[]>();
  for (const [c, cpath] of containersWithPaths(spec, path)) {
    asArr(c.ports).forEach((p, i) => {
      const port = asObj(p) ?? {};
      const field = `${cpath}.ports[${i}]`;
      const hostIP = typeof port.hostIP === 'string' ? port.hostIP : '';
      const hostPort = typeof port.hostPort === 'number' ? port.hostPort : 0;
      const key = `${String(port.containerPort ?? 0)}/${typeof port.protocol === 'string' ? port.protocol : ''}`;
      const others = seen.get(key);
      if (others) {
        for (const o of others) {
          if (hostIP === o.hostIP && hostPort === o.hostPort) warnings.push(`${field}: duplicate port definition with ${o.field}`);
          else if (hostPort === 0 || o.hostPort === 0) warnings.push(`${field}: overlapping port definition with ${o.field}`);
          else if (hostPort === o.hostPort && (hostIP === '') !== (o.hostIP === '')) warnings.push(`${field}: dangerously ambiguous port definition with ${o.field}`);
        }
        others.push({ field, hostIP, hostPort });
      } else {
        seen.set(key, [{ field, hostIP, hostPort }]);
      }
    });
  }
  const grace = spec.terminationGracePeriodSeconds;
  if (typeof grace === 'number' && grace < 0) {
    warnings.push(`${path}.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1`);
  }
  return warnings;
}
