"""The local cluster through the Kubernetes Python client (Debian's python3-kubernetes), run by PythonClientTest.

The Python client decodes every answer into its typed models, and a model refuses an object that lacks a field the
API's schema requires ("Invalid value for `boot_id`, must not be `None`"), so a read that passes here is an answer
a strict client accepts. Each check prints "ok NAME" or "FAIL NAME: why"; the test expects every name, each ok.

Usage: check.py KUBECONFIG NAMESPACE
"""
import datetime
import sys
import traceback

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException

config.load_kube_config(sys.argv[1])
NS = sys.argv[2]
core = client.CoreV1Api()


def check(name):
    def run(body):
        try:
            body()
            print("ok", name, flush=True)
        except Exception as e:  # every failure, the model's ValueError included, is this check's
            here = [frame for frame in traceback.extract_tb(e.__traceback__) if frame.filename == __file__][-1]
            detail = " ".join(str(e).split())[:600]
            print("FAIL %s: %s %s (check.py line %d)" % (name, type(e).__name__, detail, here.lineno), flush=True)
        return body
    return run


def refused(call, status, text):
    """The call fails with this HTTP status and a message that says text."""
    try:
        call()
    except ApiException as e:
        assert e.status == status, "expected %d, got %d: %s" % (status, e.status, e.body)
        assert text in e.body, "expected %r in %s" % (text, e.body)
        return
    raise AssertionError("expected %d (%s), the call succeeded" % (status, text))


def pod(name, **extra):
    """A pod as Python users write one: no apiVersion, no kind (the client sends none unless given)."""
    return client.V1Pod(metadata=client.V1ObjectMeta(name=name, labels={"app": "python"}),
                        spec=client.V1PodSpec(containers=[client.V1Container(name="main", image="busybox")]), **extra)


@check("discovery")
def discovery():
    assert client.VersionApi().get_code().git_version
    versions = client.CoreApi().get_api_versions()
    assert versions.versions == ["v1"], versions.versions
    assert versions.server_address_by_client_cid_rs[0].client_cidr == "0.0.0.0/0"
    groups = {g.name for g in client.ApisApi().get_api_versions().groups}
    for group in ["coordination.k8s.io", "batch.muster.dev", "scheduling.muster.dev", "storage.k8s.io"]:
        assert group in groups, "%s not in %s" % (group, sorted(groups))
    resources = {r.name for r in core.get_api_resources().resources}
    assert {"pods", "pods/binding", "nodes", "events", "namespaces"} <= resources, sorted(resources)


@check("create a pod without apiVersion or kind")
def create_pod():
    created = core.create_namespaced_pod(NS, pod("typed"))
    assert (created.api_version, created.kind) == ("v1", "Pod"), (created.api_version, created.kind)
    read = core.read_namespaced_pod("typed", NS)
    assert read.metadata.uid == created.metadata.uid
    assert read.spec.containers[0].name == "main"


@check("refuse a body of another version or kind")
def refuse_mismatch():
    refused(lambda: core.create_namespaced_pod(NS, pod("wrong-version", api_version="apps/v1", kind="Pod")), 400,
            "the API version in the data (apps/v1) does not match the expected API version (v1)")
    refused(lambda: core.create_namespaced_pod(NS, pod("wrong-kind", api_version="v1", kind="Service")), 400,
            'Service in version \\"v1\\" cannot be handled as a Pod')
    refused(lambda: core.read_namespaced_pod("wrong-kind", NS), 404, "not found")


@check("typed lists of built-in kinds")
def typed_lists():
    lists = {
        "namespaces": core.list_namespace,
        "nodes": core.list_node,
        "pods": core.list_pod_for_all_namespaces,
        "events": core.list_event_for_all_namespaces,
        "services": core.list_service_for_all_namespaces,
        "configmaps": core.list_config_map_for_all_namespaces,
        "persistentvolumes": core.list_persistent_volume,
        "persistentvolumeclaims": core.list_persistent_volume_claim_for_all_namespaces,
        "resourcequotas": core.list_resource_quota_for_all_namespaces,
        "leases": client.CoordinationV1Api().list_lease_for_all_namespaces,
        "priorityclasses": client.SchedulingV1Api().list_priority_class,
        "storageclasses": client.StorageV1Api().list_storage_class,
        "poddisruptionbudgets": client.PolicyV1Api().list_pod_disruption_budget_for_all_namespaces,
        "networkpolicies": client.NetworkingV1Api().list_network_policy_for_all_namespaces,
        "customresourcedefinitions": client.ApiextensionsV1Api().list_custom_resource_definition,
    }
    for name, list_call in lists.items():
        answer = list_call()
        assert answer.items is not None, name
    assert len(core.list_namespace().items) >= 2
    assert any(p.metadata.name == "typed" for p in core.list_namespaced_pod(NS).items)
    crds = {c.metadata.name for c in client.ApiextensionsV1Api().list_custom_resource_definition().items}
    assert "jobs.batch.muster.dev" in crds, crds


@check("nodes as a kubelet reports them")
def nodes():
    nodes = core.list_node().items
    assert nodes, "no node"
    for node in nodes:
        info = node.status.node_info
        assert info.boot_id and info.machine_id and info.system_uuid and info.kubelet_version, info
        assert node.status.allocatable["cpu"], node.status.allocatable


@check("bind a pod")
def bind():
    core.create_namespaced_pod(NS, pod("bound"))
    node = core.list_node().items[0].metadata.name
    binding = client.V1Binding(metadata=client.V1ObjectMeta(name="bound"),
                               target=client.V1ObjectReference(api_version="v1", kind="Node", name=node))
    # kube-apiserver answers a binding with a Status, which this client cannot decode as the V1Binding it
    # expects (its own known issue), so the answer is read raw, as Python schedulers do.
    answer = core.create_namespaced_pod_binding("bound", NS, binding, _preload_content=False)
    assert answer.status == 201, answer.status
    assert core.read_namespaced_pod("bound", NS).spec.node_name == node


@check("leader election on a Lease")
def lease():
    leases = client.CoordinationV1Api()
    acquired = datetime.datetime.now(datetime.timezone.utc)
    created = leases.create_namespaced_lease(NS, client.V1Lease(
        metadata=client.V1ObjectMeta(name="python-leader"),
        spec=client.V1LeaseSpec(holder_identity="a", lease_duration_seconds=15, acquire_time=acquired,
                                renew_time=acquired)))
    created.spec.holder_identity = "b"
    taken = leases.replace_namespaced_lease("python-leader", NS, created)
    assert taken.spec.holder_identity == "b"
    assert taken.spec.renew_time is not None
    created.spec.holder_identity = "c"  # still at the version before "b" took it
    refused(lambda: leases.replace_namespaced_lease("python-leader", NS, created), 409, "Conflict")
    assert leases.read_namespaced_lease("python-leader", NS).spec.holder_identity == "b"


@check("watch from a list's resourceVersion")
def watch_pods():
    listed = core.list_namespaced_pod(NS)
    core.create_namespaced_pod(NS, pod("watched"))
    seen = None
    for event in watch.Watch().stream(core.list_namespaced_pod, NS, resource_version=listed.metadata.resource_version,
                                      timeout_seconds=20):
        if event["object"].metadata.name == "watched":
            seen = event
            break
    assert seen is not None, "no event for the pod created after the list"
    assert seen["type"] == "ADDED" and isinstance(seen["object"], client.V1Pod), seen["type"]


@check("events by field selector")
def events():
    target = core.read_namespaced_pod("typed", NS)
    core.create_namespaced_event(NS, client.CoreV1Event(
        metadata=client.V1ObjectMeta(name="typed.python"),
        involved_object=client.V1ObjectReference(kind="Pod", name="typed", namespace=NS, uid=target.metadata.uid),
        reason="Checked", message="read by the Python client", type="Normal", count=1))
    mine = core.list_namespaced_event(NS, field_selector="involvedObject.kind=Pod,involvedObject.name=typed").items
    assert [e.reason for e in mine] == ["Checked"], [e.reason for e in mine]
    assert core.list_namespaced_event(NS, field_selector="involvedObject.name=nobody").items == []


@check("events.k8s.io/v1 Events are core Events")
def events_v1():
    written = client.EventsV1Api().create_namespaced_event(NS, client.EventsV1Event(
        metadata=client.V1ObjectMeta(name="typed.scheduled"),
        event_time=datetime.datetime(2026, 11, 28, 10, 0, 0, 123456, tzinfo=datetime.timezone.utc),
        regarding=client.V1ObjectReference(kind="Pod", name="typed", namespace=NS),
        reason="Scheduled", note="placed by a Python scheduler", type="Normal", action="Binding",
        reporting_controller="python-scheduler", reporting_instance="python-scheduler-0"))
    assert written.note == "placed by a Python scheduler", written
    core_events = core.list_namespaced_event(NS, field_selector="involvedObject.name=typed,reason=Scheduled").items
    assert [(e.message, e.reporting_component) for e in core_events] == [
        ("placed by a Python scheduler", "python-scheduler")], core_events
    viewed = client.EventsV1Api().list_namespaced_event(NS, field_selector="regarding.name=typed,reason=Scheduled")
    assert [e.metadata.name for e in viewed.items] == ["typed.scheduled"], viewed.items


@check("custom objects")
def custom_objects():
    objects = client.CustomObjectsApi()
    job = {"metadata": {"name": "python-job"}, "spec": {"minAvailable": 1, "tasks": [{
        "name": "main", "replicas": 1,
        "template": {"spec": {"containers": [{"name": "main", "image": "busybox"}]}}}]}}
    # A custom resource is decoded from its body alone, so it must name its type, as on kube-apiserver.
    refused(lambda: objects.create_namespaced_custom_object("batch.muster.dev", "v1alpha1", NS, "jobs", job), 400,
            "Object 'Kind' is missing in")
    job.update(apiVersion="batch.muster.dev/v1alpha1", kind="Job")
    created = objects.create_namespaced_custom_object("batch.muster.dev", "v1alpha1", NS, "jobs", job)
    assert (created["apiVersion"], created["kind"]) == ("batch.muster.dev/v1alpha1", "Job"), created
    listed = objects.list_namespaced_custom_object("batch.muster.dev", "v1alpha1", NS, "jobs")
    assert listed["kind"] == "JobList", listed["kind"]
    assert [j["metadata"]["name"] for j in listed["items"]] == ["python-job"]


@check("access review")
def access_review():
    review = client.AuthorizationV1Api().create_self_subject_access_review(client.V1SelfSubjectAccessReview(
        spec=client.V1SelfSubjectAccessReviewSpec(resource_attributes=client.V1ResourceAttributes(
            verb="create", resource="pods", namespace=NS))))
    assert review.status.allowed is True, review.status
