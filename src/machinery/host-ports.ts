// The host ports a pod asks its node for, as kube's scheduler (NodePorts) and kubelet's
// admission compare them: `hostIP/protocol/port`, hostIP defaulting to 0.0.0.0 (any address)
// and protocol to TCP. Shared by the scheduler and the node agent.

import { asArr, asObj, str, type Obj } from './json-view.js';

const list = (v: unknown): Obj[] => asArr(v).map(asObj).filter((x): x is Obj => !!x);

/** hostIP/protocol/port of every container port the pod asks the node for. */
export function hostPorts(pod: Obj): string[] {
  const spec = asObj(pod.spec) ?? {};
  const out: string[] = [];
  for (const c of [...list(spec.containers), ...list(spec.initContainers)]) {
    for (const p of list(c.ports)) {
      const hp = Number(p.hostPort ?? 0);
      if (hp > 0) out.push(`${str(p.hostIP) || '0.0.0.0'}/${str(p.protocol) || 'TCP'}/${hp}`);
    }
  }
  return out;
}

/**
 * Whether a wanted host port clashes with a used one: the same protocol and port, and the same
 * host IP or 0.0.0.0 on either side.
 */
export function portsConflict(want: string[], used: Set<string>): boolean {
  for (const w of want) {
    const [ip, proto, port] = w.split('/');
    for (const u of used) {
      const [uip, uproto, uport] = u.split('/');
      if (proto !== uproto || port !== uport) continue;
      if (ip === '0.0.0.0' || uip === '0.0.0.0' || ip === uip) return true;
    }
  }
  return false;
}
