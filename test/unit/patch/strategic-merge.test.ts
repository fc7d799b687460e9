// Strategic merge patch driven by the schema's patchStrategy/patchMergeKey markers.

import { describe, expect, it } from 'vitest';
import { StrategicMergeError, strategicMergePatch } from '../../../src/patch/strategic-merge.js';

const POD_SPEC = 'io.k8s.api.core.v1.PodSpec';
const STS = 'io.k8s.api.apps.v1.StatefulSet';

const spec = () => ({
  containers: [
    { name: 'a', image: 'a:1', env: [{ name: 'X', value: '1' }, { name: 'Y', value: '2' }], ports: [{ containerPort: 80 }, { containerPort: 443 }] },
    { name: 'b', image: 'b:1' },
  ],
  volumes: [{ name: 'v', emptyDir: {} }],
  tolerations: [{ key: 'k1', operator: 'Exists' }],
});

describe('strategicMergePatch', () => {
  it('merges keyed lists by their merge key and replaces atomic ones', () => {
    const out = strategicMergePatch(
      spec(),
      {
        containers: [{ name: 'a', image: 'a:2', env: [{ name: 'Y', value: '3' }, { name: 'Z', value: 'z' }], ports: [{ containerPort: 8080 }] }],
        tolerations: [{ key: 'k2', operator: 'Exists' }],
      },
      POD_SPEC,
    ) as ReturnType<typeof spec>;
    expect(out.containers.map((c) => c.name)).toEqual(['a', 'b']);
    expect(out.containers[0].image).toBe('a:2');
    // Without $setElementOrder the patch's items keep its order; live-only items keep their place before them.
    expect(out.containers[0].env).toEqual([{ name: 'X', value: '1' }, { name: 'Y', value: '3' }, { name: 'Z', value: 'z' }]);
    expect(out.containers[0].ports!.map((p) => p.containerPort)).toEqual([8080, 80, 443]);
    expect(out.tolerations).toEqual([{ key: 'k2', operator: 'Exists' }]);
  });

  it('honours $patch delete/replace, $setElementOrder, $retainKeys and $deleteFromPrimitiveList', () => {
    const s = spec();
    expect((strategicMergePatch(s, { containers: [{ name: 'b', $patch: 'delete' }] }, POD_SPEC) as ReturnType<typeof spec>).containers.map((c) => c.name)).toEqual(['a']);
    expect(
      (strategicMergePatch(s, { containers: [{ name: 'c', image: 'c' }, { $patch: 'replace' }] }, POD_SPEC) as ReturnType<typeof spec>).containers,
    ).toEqual([{ name: 'c', image: 'c' }]);
    const ordered = strategicMergePatch(
      s,
      { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }], containers: [{ name: 'b', image: 'b:2' }] },
      POD_SPEC,
    ) as ReturnType<typeof spec>;
    expect(ordered.containers.map((c) => `${c.name}=${c.image}`)).toEqual(['b=b:2', 'a=a:1']);
    const retained = strategicMergePatch(s, { volumes: [{ name: 'v', $retainKeys: ['name', 'hostPath'], hostPath: { path: '/x' } }] }, POD_SPEC) as {
      volumes: unknown[];
    };
    expect(retained.volumes).toEqual([{ name: 'v', hostPath: { path: '/x' } }]);
    const meta = strategicMergePatch({ metadata: { finalizers: ['a', 'b', 'c'] } }, { metadata: { '$deleteFromPrimitiveList/finalizers': ['b'], finalizers: ['d'] } }, STS);
    // New items go in front, as kube's server-side merge places them without $setElementOrder.
    expect(meta).toEqual({ metadata: { finalizers: ['d', 'a', 'c'] } });
    const mapReplace = strategicMergePatch({ metadata: { labels: { a: '1', b: '2' } } }, { metadata: { labels: { $patch: 'replace', c: '3' } } }, STS);
    expect(mapReplace).toEqual({ metadata: { labels: { c: '3' } } });
  });

  it('reports bad directives with the status kube gives', () => {
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e instanceof StrategicMergeError ? e.code : -1;
      }
      return 0;
    };
    expect(code(() => strategicMergePatch(spec(), { volumes: [{ name: 'v', $retainKeys: ['name'], hostPath: { path: '/x' } }] }, POD_SPEC))).toBe(400);
    expect(code(() => strategicMergePatch(spec(), { $retainKeys: 'x' }, POD_SPEC))).toBe(400);
    expect(code(() => strategicMergePatch(spec(), { '$setElementOrder': [] }, POD_SPEC))).toBe(400);
    expect(code(() => strategicMergePatch(spec(), { containers: [{ image: 'x' }] }, POD_SPEC))).toBe(500);
    expect(code(() => strategicMergePatch(spec(), { $patch: 'bogus' }, POD_SPEC))).toBe(500);
  });
});
