// pods/binding, after kube's BindingREST (pkg/registry/core/pod/storage): a POSTed Binding
// sets the pod's spec.nodeName once, merges the Binding's annotations into the pod's and marks
// it PodScheduled, in one update of the pod. A pod already bound, being deleted or still gated
// is a 409 Conflict on pods/binding, as kube answers; kube writes the pod straight to storage,
// so no strategy runs and managedFields stay as they were.

import { badRequest, conflict, fieldErrorMessage, type FieldError } from '../../../machinery/errors.js';
import type { KObject } from '../../../machinery/object.js';
import { nowTimestamp } from '../../../machinery/meta.js';
import { asArr, asObj, str, type Obj } from '../../../machinery/json-view.js';
import { notSupported, required } from '../../../machinery/validation/field.js';
import type { ActionSubresource } from '../../types.js';
import { plainStrategy } from '../../plain-strategy.js';

/** The reason a pod cannot take the binding (kube's plain error, turned into a Conflict). */
class NotBindable extends Error {}

/** ValidatePodBinding. */
function validateBinding(b: KObject): FieldError[] {
  const target = asObj((b as unknown as Obj).target) ?? {};
  const errs: FieldError[] = [];
  if (str(target.kind) && target.kind !== 'Node') errs.push(notSupported('target.kind', target.kind, ['Node', '<empty>']));
  if (!str(target.name)) errs.push(required('target.name'));
  return errs;
}

/** UpdatePodCondition with {PodScheduled, True}: a new transition time only when the status changes. */
function markScheduled(status: Obj): void {
  const conditions = asArr(status.conditions) as Obj[];
  const i = conditions.findIndex((c) => c.type === 'PodScheduled');
  const old = i >= 0 ? conditions[i]! : undefined;
  const cond: Obj = { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: old?.status === 'True' ? old.lastTransitionTime : nowTimestamp() };
  if (i >= 0) conditions[i] = cond;
  else conditions.push(cond);
  status.conditions = conditions;
}

// The pod goes to storage as bound, with no strategy rule of its own (kube's direct write).
const bindingStrategy = plainStrategy();

const POD_BINDING = { group: '', resource: 'pods/binding' };

export const podBinding: ActionSubresource = {
  kind: { group: '', version: 'v1', kind: 'Binding' },
  strategy: bindingStrategy,
  async post(store, namespace, name, body, opts) {
    if (body.metadata.name !== name) throw badRequest('name in URL does not match name in Binding object');
    const errs = validateBinding(body);
    // kube answers these as a bare 500; bad input gets a 400 here, with kube's text.
    if (errs.length) throw badRequest(errs.length === 1 ? fieldErrorMessage(errs[0]!) : `[${errs.map(fieldErrorMessage).join(', ')}]`);
    const node = str(asObj((body as unknown as Obj).target)?.name);
    const uid = body.metadata.uid;
    const rv = body.metadata.resourceVersion;
    const annotations = body.metadata.annotations ?? {};
    try {
      await store.guaranteedUpdate(
        namespace,
        name,
        'binding',
        (old) => {
          if (uid && uid !== old.metadata.uid) {
            throw conflict(store.gr, name, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${old.metadata.uid ?? ''}`);
          }
          if (rv && rv !== old.metadata.resourceVersion) {
            throw conflict(store.gr, name, `Precondition failed: ResourceVersion in precondition: ${rv}, ResourceVersion in object meta: ${old.metadata.resourceVersion ?? ''}`);
          }
          const pod = structuredClone(old);
          const spec = (pod.spec ??= {}) as Obj;
          if (pod.metadata.deletionTimestamp) throw new NotBindable(`pod ${name} is being deleted, cannot be assigned to a host`);
          if (str(spec.nodeName)) throw new NotBindable(`pod ${name} is already assigned to node ${JSON.stringify(str(spec.nodeName))}`);
          if (asArr(spec.schedulingGates).length !== 0) throw new NotBindable(`pod ${name} has non-empty .spec.schedulingGates`);
          spec.nodeName = node;
          if (Object.keys(annotations).length) pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), ...annotations };
          markScheduled((pod.status ??= {}) as Obj);
          return pod;
        },
        undefined,
        opts.dryRun,
      );
    } catch (e) {
      if (e instanceof NotBindable) throw conflict(POD_BINDING, name, e.message);
      throw e;
    }
    return { code: 201, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } };
  },
};
