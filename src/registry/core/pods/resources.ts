// Container and pod resources with kube 1.33's rules: resource names, quantities, hugepages,
// requests against limits, resource claims (ValidateContainerResourceRequirements,
// validatePodResourceClaims), and the QoS class computed from them (qos.ComputePodQOS).
//
// Go prints resource names and quantities through their String() methods, so those bad
// values are wrapped in GoStringer and render bare, not quoted.

import type { FieldError } from '../../../machinery/errors.js';
import { GoStringer, duplicate, forbidden, invalid, key, notFound, required, NON_NEGATIVE } from '../../../machinery/validation/field.js';
import { isQualifiedName, validateDNS1123Label, validateDNS1123Subdomain } from '../../../machinery/validation/names.js';
import { cmpQty, isQtyNegative, isQtyPositive, listQuantityGoSharpV, milliIsWhole, qty, type Qty } from '../../../schema/quantity.js';
import { asArr, asObj, str } from '../../../machinery/json-view.js';

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const STANDARD_RESOURCES = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'persistentvolumeclaims',
  'configmaps',
  'services.nodeports',
  'services.loadbalancers',
]);
const INTEGER_RESOURCES = new Set([
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
]);

const isHugePages = (n: string): boolean => n.startsWith('hugepages-');
const isNativeResource = (n: string): boolean => !n.includes('/') || n.includes('kubernetes.io/');
const isExtendedResource = (n: string): boolean =>
  !isNativeResource(n) && !n.startsWith('requests.') && isQualifiedName(`requests.${n}`).length === 0;
const isOvercommitAllowed = (n: string): boolean => isNativeResource(n) && !isHugePages(n);
const isIntegerResource = (n: string): boolean => INTEGER_RESOURCES.has(n) || isExtendedResource(n);

function validateResourceName(name: string, field: string): FieldError[] {
  const errs = isQualifiedName(name).map((m) => invalid(field, new GoStringer(name), m));
  if (errs.length) return errs;
  if (!name.includes('/') && !(STANDARD_RESOURCES.has(name) || isHugePages(name))) {
    errs.push(invalid(field, new GoStringer(name), 'must be a standard resource type or fully qualified'));
  }
  return errs;
}

function validateContainerResourceName(name: string, field: string): FieldError[] {
  const errs = validateResourceName(name, field);
  if (!name.includes('/')) {
    if (!(STANDARD_CONTAINER_RESOURCES.has(name) || isHugePages(name))) {
      errs.push(invalid(field, new GoStringer(name), 'must be a standard resource for containers'));
    }
  } else if (!isNativeResource(name) && !isExtendedResource(name)) {
    errs.push(invalid(field, new GoStringer(name), "doesn't follow extended resource name standard"));
  }
  return errs;
}

/** ValidateResourceQuantityValue of `list[name]` (parsed: `q`): not negative; whole for integer resources. */
function validateQuantityValue(list: Record<string, unknown>, name: string, q: Qty, field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (isQtyNegative(q)) errs.push(invalid(field, q.canonical, NON_NEGATIVE));
  // kube passes the Quantity itself, which fmt prints with %#v (defaulted: rounded up to milli).
  if (isIntegerResource(name) && !milliIsWhole(q)) errs.push(invalid(field, new GoStringer(listQuantityGoSharpV(list, name) ?? q.canonical), 'must be an integer'));
  return errs;
}

/** validateResourceQuantityHugePageValue: a whole multiple of the page size. */
function hugePageValue(name: string, q: Qty, field: string): FieldError[] {
  const page = qty(name.slice('hugepages-'.length));
  const whole = (v: number): number => Math.sign(v) * Math.ceil(Math.abs(v) - 1e-9);
  const ok = page !== undefined && page.value > 0 && milliIsWhole(page) && whole(q.value) % whole(page.value) === 0;
  return ok ? [] : [invalid(field, q.canonical, `${q.canonical} is not positive integer multiple of ${name}`)];
}

/** ValidateContainerResourceRequirements (also used for pod overhead). */
export function validateResourceRequirements(res: unknown, podClaimNames: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const r = asObj(res) ?? {};
  const limits = asObj(r.limits) ?? {};
  const requests = asObj(r.requests) ?? {};
  const limPath = `${path}.limits`;
  const reqPath = `${path}.requests`;
  let limCpuMem = false;
  let reqCpuMem = false;
  let limHuge = false;
  let reqHuge = false;
  for (const [name, raw] of Object.entries(limits)) {
    const f = key(limPath, name);
    errs.push(...validateContainerResourceName(name, f));
    const q = qty(raw);
    if (q) errs.push(...validateQuantityValue(limits, name, q, f));
    if (isHugePages(name)) {
      limHuge = true;
      if (q) errs.push(...hugePageValue(name, q, f));
    }
    if (name === 'cpu' || name === 'memory') limCpuMem = true;
  }
  for (const [name, raw] of Object.entries(requests)) {
    const f = key(reqPath, name);
    errs.push(...validateContainerResourceName(name, f));
    const q = qty(raw);
    if (q) errs.push(...validateQuantityValue(requests, name, q, f));
    const lim = Object.hasOwn(limits, name) ? qty(limits[name]) : undefined;
    if (Object.hasOwn(limits, name)) {
      if (q && lim) {
        const c = cmpQty(q, lim);
        if (c !== 0 && !isOvercommitAllowed(name)) {
          errs.push(invalid(reqPath, q.canonical, `must be equal to ${name} limit of ${lim.canonical}`));
        } else if (c > 0) {
          errs.push(invalid(reqPath, q.canonical, `must be less than or equal to ${name} limit of ${lim.canonical}`));
        }
      }
    } else if (!isOvercommitAllowed(name)) {
      errs.push(required(limPath, 'Limit must be set for non overcommitable resources'));
    }
    if (isHugePages(name)) {
      reqHuge = true;
      if (q) errs.push(...hugePageValue(name, q, f));
    }
    if (name === 'cpu' || name === 'memory') reqCpuMem = true;
  }
  if (!limCpuMem && !reqCpuMem && (reqHuge || limHuge)) errs.push(forbidden(path, 'HugePages require cpu or memory'));
  errs.push(...validateResourceClaimNames(r.claims, podClaimNames, `${path}.claims`));
  return errs;
}

function validateResourceClaimNames(claims: unknown, podClaimNames: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  asArr(claims).forEach((raw, i) => {
    const c = asObj(raw) ?? {};
    const name = str(c.name);
    const p = `${path}[${i}]`;
    if (!name) {
      errs.push(required(p));
      return;
    }
    const request = str(c.request);
    if (names.has(name)) {
      errs.push(duplicate(p, name));
    } else {
      let k = name;
      if (request) {
        errs.push(...validateDNS1123Label(request, `${p}.request`));
        k += `/${request}`;
      }
      if (names.has(k)) errs.push(duplicate(p, k));
      else if (!request) {
        for (const n of names) {
          const idx = n.indexOf('/');
          if (idx >= 0 && n.slice(0, idx) === name) errs.push(duplicate(p, name));
        }
      }
      names.add(k);
    }
    if (!podClaimNames.has(name)) {
      const list = [...podClaimNames].sort();
      const detail = `must be one of the names in pod.spec.resourceClaims${list.length === 0 ? ' which is empty' : `: ${list.join(', ')}`}`;
      errs.push({ ...notFound(p, name), detail });
    }
  });
  return errs;
}

export function validatePodResourceClaims(claims: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  asArr(claims).forEach((raw, i) => {
    const c = asObj(raw) ?? {};
    const p = `${path}[${i}]`;
    const name = str(c.name);
    if (!name) errs.push(required(`${p}.name`));
    else if (names.has(name)) errs.push(duplicate(`${p}.name`, name));
    else {
      errs.push(...validateDNS1123Label(name, `${p}.name`));
      names.add(name);
    }
    const rcn = c.resourceClaimName;
    const rctn = c.resourceClaimTemplateName;
    const set = (v: unknown): boolean => v !== undefined && v !== null;
    if (set(rcn) && set(rctn)) errs.push(invalid(p, c, 'at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified'));
    if (!set(rcn) && !set(rctn)) errs.push(invalid(p, c, 'must specify one of: `resourceClaimName`, `resourceClaimTemplateName`'));
    if (set(rcn)) errs.push(...validateDNS1123Subdomain(str(rcn), `${p}.resourceClaimName`));
    if (set(rctn)) errs.push(...validateDNS1123Subdomain(str(rctn), `${p}.resourceClaimTemplateName`));
  });
  return errs;
}

// ---- QoS ----

/** qos.ComputePodQOS over containers and init containers (cpu and memory only). */
export function computePodQOS(specIn: unknown): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const spec = asObj(specIn) ?? {};
  const requests = new Map<string, Qty>();
  const limits = new Map<string, Qty>();
  let guaranteed = true;
  const add = (m: Map<string, Qty>, name: string, q: Qty): void => {
    const prev = m.get(name);
    m.set(name, prev ? prev.add(q) : q);
  };
  for (const raw of [...asArr(spec.containers), ...asArr(spec.initContainers)]) {
    const res = asObj(asObj(raw)?.resources) ?? {};
    for (const [name, v] of Object.entries(asObj(res.requests) ?? {})) {
      if (name !== 'cpu' && name !== 'memory') continue;
      const q = qty(v);
      if (q && isQtyPositive(q)) add(requests, name, q);
    }
    const found = new Set<string>();
    for (const [name, v] of Object.entries(asObj(res.limits) ?? {})) {
      if (name !== 'cpu' && name !== 'memory') continue;
      const q = qty(v);
      if (q && isQtyPositive(q)) {
        found.add(name);
        add(limits, name, q);
      }
    }
    if (!(found.has('cpu') && found.has('memory'))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name);
      if (!lim || cmpQty(lim, req) !== 0) {
        guaranteed = false;
        break;
      }
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
