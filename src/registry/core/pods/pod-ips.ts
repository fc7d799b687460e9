// The v1 <-> internal conversion of a pod's addresses (Convert_v1_PodStatus_To_core_PodStatus
// and back): the internal type has only the list, so the singular podIP wins when a client
// sets both and they differ, fills an empty list, and always reads back as the list's first.
// hostIP and hostIPs have no such conversion: kube keeps them as sent.

import { asArr, asObj, str, type Obj } from '../../../machinery/json-view.js';

export function syncPodIPs(status: unknown): void {
  const st = asObj(status) as Obj | undefined;
  if (!st) return;
  const ip = str(st.podIP);
  const ips = asArr(st.podIPs);
  if (ip && (ips.length === 0 || str(asObj(ips[0])?.ip) !== ip)) st.podIPs = [{ ip }];
  const list = asArr(st.podIPs);
  if (list.length > 0) st.podIP = str(asObj(list[0])?.ip);
  else delete st.podIP;
}
