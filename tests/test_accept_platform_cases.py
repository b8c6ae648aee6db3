"""DLV030-DLV031 case by case on real outputs (tests/evidence/public/, sources in SOURCE.md; edits named
in each case): the rule, the quote line and column it points at, the severity, the exact message and the
evidence file and line it cites, for each gate, band and boundary."""

from __future__ import annotations

import pytest

from test_accept_cases import PUBLIC, SOFTWARE, _edit, _hits, _run

GCE = (PUBLIC / "kubectl-storageclass-gce-default.txt").read_text()
NFS = (PUBLIC / "kubectl-storageclass-nfs-csi.txt").read_text()
GKE = PUBLIC / "kubectl-storageclass-gke-rwo.txt"
NETWORK = (PUBLIC / "kubectl-get-all-network-operator.txt").read_text()
DCGM = PUBLIC / "kubectl-dcgm-exporter-crashloop.txt"
ALL = PUBLIC / "kubectl-gpu-operator-pods-bad.txt"  # --all-namespaces: GPU operator pods only

K8S = SOFTWARE % "kubernetes"  # the orchestrator's value: line 10, column 28
NFS_HOME = "  storage:\n    - {name: home, type: nfs, capacity: 100TB}\n"  # type: line 12, column 26
OBJECT = "  storage:\n    - {name: bucket, type: object, capacity: 100TB}\n"
IB = "  network:\n    inter_node: {fabric: infiniband, nics_per_node: 1, nic_speed: 400Gbps, rdma: %s}\n"  # fabric: line 12, column 26
MONITORED = "  software: {orchestrator: kubernetes, monitoring: [prometheus, dcgm-exporter]}\n"  # dcgm-exporter: line 10, column 65
ROWS = "NAME                     PROVISIONER             RECLAIMPOLICY   VOLUMEBINDINGMODE      ALLOWVOLUMEEXPANSION   AGE"


@pytest.mark.parametrize("files, extra, expected", [
    # csi-rwx: GKE's real default classes are all Persistent Disk (block): no ReadWriteMany class for the quoted NFS home
    ({"sc.txt": GKE}, K8S + NFS_HOME,
     [(12, 26, "warning", "node-1: no StorageClass gives ReadWriteMany volumes (provisioners: kubernetes.io/gce-pd, pd.csi.storage.gke.io): "
       "pods on several nodes cannot share the quoted nfs storage 'home' through a PersistentVolumeClaim", ["sc.txt:3"])]),
    # the real csi-driver-nfs class is ReadWriteMany and the default; Rook's namespaced CephFS driver counts too (edited provisioner)
    ({"sc.txt": NFS}, K8S + NFS_HOME, []),
    ({"sc.txt": NFS.replace("nfs.csi.k8s.io  ", "rook-ceph.cephfs.csi.ceph.com")}, K8S + NFS_HOME, []),
    # no shared filesystem quoted (none, or only an object store): ReadWriteMany is not promised, so not checked
    ({"sc.txt": GKE}, K8S, []),
    ({"sc.txt": GKE}, K8S + OBJECT, []),
    # default-storage-class: the Kubernetes docs' listing (old three-column layout) has one; without "(default)" (edited) it fires
    ({"sc.txt": GCE}, K8S, []),
    ({"sc.txt": _edit(GCE, 4, "standard (default)", "standard          ")}, K8S,
     [(10, 28, "warning", "node-1: kubectl lists no default StorageClass (standard, gold): a PersistentVolumeClaim without storageClassName "
       "stays Pending", ["sc.txt:3"])]),
])
def test_dlv030(tmp_path, files, extra, expected):
    assert _hits(_run(tmp_path, files, extra=extra), "DLV030") == expected


def test_dlv030_runs_only_under_kubernetes(tmp_path):
    report = _run(tmp_path, {"sc.txt": GKE}, extra=SOFTWARE % "slurm" + NFS_HOME)
    assert [s["reason"] for s in report["skipped"] if s["rule"] == "DLV030"] == ["the quote does not run Kubernetes (software.orchestrator)"]
    report = _run(tmp_path / "none", {}, extra=K8S + NFS_HOME)
    assert [s["reason"] for s in report["skipped"] if s["rule"] == "DLV030"] == ["no kubectl get storageclass among the evidence files"]


@pytest.mark.parametrize("files, extra, expected", [
    # monitoring-stack: three real dcgm-exporter pods in CrashLoopBackOff
    ({"pods.txt": DCGM}, K8S,
     [(10, 28, "error", f"DCGM exporter pod dcgm-exporter-{pod} is CrashLoopBackOff (0/1 ready)", [f"pods.txt:{line}"])
      for pod, line in (("8k4s5", 5), ("fwcxb", 6), ("tksj6", 7))]),
    # network-operator: the real listing (kubectl get all, pod/ names) all Running on a quoted RDMA fabric; one MOFED pod failing (edited)
    ({"pods.txt": NETWORK}, K8S + IB % "true", []),
    ({"pods.txt": _edit(NETWORK, 13, "1/1     Running", "0/1     CrashLoopBackOff")}, K8S + IB % "true",
     [(10, 28, "error", "network operator pod mofed-rhel8.8-ds-4rxvb is CrashLoopBackOff (0/1 ready)", ["pods.txt:13"])]),
    # a listing of every namespace without a network operator pod on a quoted RDMA fabric, without the quoted DCGM exporter
    ({"pods.txt": ALL}, MONITORED + IB % "true",
     [(10, 65, "warning", "node-1: kubectl lists no DCGM exporter pod in any namespace: the quoted dcgm-exporter GPU metrics have no source",
       ["pods.txt:4"]),
      (12, 26, "warning", "node-1: kubectl lists no NVIDIA network operator pod in any namespace: nothing evidences the RDMA driver and "
       "device plugin that give pods the quoted infiniband fabric", ["pods.txt:4"])]),
    # no RDMA quoted (NET004's matter), nothing monitored quoted: absence is not checked
    ({"pods.txt": ALL}, K8S + IB % "false", []),
    # one namespace listed: a pod missing from it may be in another, so absence is not checked
    ({"pods.txt": NETWORK}, MONITORED, []),
])
def test_dlv031(tmp_path, files, extra, expected):
    assert _hits(_run(tmp_path, files, extra=extra), "DLV031") == expected


def test_dlv031_leaves_the_gpu_operators_pods_to_dlv017(tmp_path):
    listing = _edit(ALL.read_text(), 5, "gpu-operator-56c9cf6799-8qbdv", "nvidia-dcgm-exporter-8qbdv   ")
    listing = _edit(listing, 5, "1/1     Running", "0/1     Running")
    report = _run(tmp_path, {"pods.txt": listing}, extra=K8S)
    assert _hits(report, "DLV031") == []
    assert "GPU operator pod nvidia-dcgm-exporter-8qbdv is Running (0/1 ready)" in [h[3] for h in _hits(report, "DLV017")]
