"""The official Kubernetes Python client (Debian's python3-kubernetes) against a kapi server.

Usage: client_check.py <kubeconfig>

Loads the kubeconfig as any user of the client would (the server's CA, the admin's client
certificate), then lists namespaces, creates a namespace and a StatefulSet, watches the
StatefulSet through a create, a patch and a delete, and deletes the namespace. Prints one
JSON line with what it saw; test/clients/python.test.ts asserts on it.
"""

import json
import sys
import threading
import time

from kubernetes import client, config, watch


def main() -> None:
    config.load_kube_config(config_file=sys.argv[1])
    core = client.CoreV1Api()
    apps = client.AppsV1Api()
    out = {}

    out["namespaces"] = sorted(n.metadata.name for n in core.list_namespace().items)

    name = "py-%d" % int(time.time() * 1000)
    ns = core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=name)))
    out["namespace"] = {"name": ns.metadata.name, "phase": ns.status.phase, "uid": bool(ns.metadata.uid)}

    listed = apps.list_namespaced_stateful_set(name)
    start_rv = listed.metadata.resource_version

    events = []

    def follow() -> None:
        w = watch.Watch()
        for ev in w.stream(apps.list_namespaced_stateful_set, name, resource_version=start_rv, timeout_seconds=20):
            obj = ev["object"]
            events.append({"type": ev["type"], "name": obj.metadata.name, "replicas": obj.spec.replicas, "rv": obj.metadata.resource_version})
            if ev["type"] == "DELETED":
                w.stop()

    watcher = threading.Thread(target=follow)
    watcher.start()
    time.sleep(0.5)

    labels = {"app": "web"}
    sts = client.V1StatefulSet(
        metadata=client.V1ObjectMeta(name="web"),
        spec=client.V1StatefulSetSpec(
            service_name="web",
            replicas=1,
            selector=client.V1LabelSelector(match_labels=labels),
            template=client.V1PodTemplateSpec(
                metadata=client.V1ObjectMeta(labels=labels),
                spec=client.V1PodSpec(containers=[client.V1Container(name="nginx", image="nginx:1.27")]),
            ),
        ),
    )
    created = apps.create_namespaced_stateful_set(name, sts)
    patched = apps.patch_namespaced_stateful_set(name=created.metadata.name, namespace=name, body={"spec": {"replicas": 3}})
    got = apps.read_namespaced_stateful_set("web", name)
    apps.delete_namespaced_stateful_set("web", name)
    watcher.join(30)

    out["created"] = {"rv": created.metadata.resource_version, "generation": created.metadata.generation, "replicas": created.spec.replicas}
    out["patched"] = {"rv": patched.metadata.resource_version, "generation": patched.metadata.generation, "replicas": patched.spec.replicas}
    out["got"] = {"rv": got.metadata.resource_version, "replicas": got.spec.replicas, "image": got.spec.template.spec.containers[0].image}
    out["events"] = events

    try:
        apps.read_namespaced_stateful_set("web", name)
        out["afterDelete"] = 200
    except client.exceptions.ApiException as e:
        out["afterDelete"] = e.status
        out["afterDeleteReason"] = json.loads(e.body).get("reason")

    core.delete_namespace(name)
    # The namespace controller may finish with the empty namespace before the read.
    try:
        out["namespaceAfterDelete"] = core.read_namespace(name).status.phase
    except client.exceptions.ApiException as e:
        out["namespaceAfterDelete"] = e.status
    print(json.dumps(out))


if __name__ == "__main__":
    main()
