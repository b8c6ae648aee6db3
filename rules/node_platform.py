"""DLV030-DLV031: the Kubernetes platform a delivered cluster runs, as SemiAnalysis' ClusterMAX audit
(cmax) checks it: a default StorageClass and one that gives ReadWriteMany volumes for the quoted
shared storage (default-storage-class, csi-rwx), and the NVIDIA network operator and DCGM exporter
pods (network-operator, monitoring-stack). The GPU operator's own pods are DLV017's.

Each hit points at the quote line the promise is written on and cites the evidence file and line."""

from __future__ import annotations

import re

from clusterlint.engine.review import Skip, check

from clusterlint.rules.common import NO_PARAMS
from clusterlint.rules.delivery import _nodes
from clusterlint.rules.node_config import _orchestrator
from clusterlint.rules.node_software import _OPERATOR

KUBERNETES = ("kubernetes", "slurm-on-kubernetes")
# Provisioners whose volumes can be mounted read-write by pods on many nodes (ReadWriteMany). CSI drivers:
# "Read/Write Multiple Pods" in the Kubernetes CSI driver list (kubernetes-csi/docs book/src/drivers.md, commit
# 00055c097df7742fddc11ed1392f6dcdba03c3b5). In-tree plugins and NFS: the ReadWriteMany column of the access-modes
# table (https://kubernetes.io/docs/concepts/storage/persistent-volumes/#access-modes: AzureFile, CephFS, NFS).
RWX = frozenset((
    "efs.csi.aws.com", "fsx.csi.aws.com", "file.csi.azure.com", "beegfs.csi.netapp.com", "cephfs.csi.ceph.com", "exa.csi.ddn.com",
    "com.google.csi.filestore", "org.gluster.glusterfs", "spectrumscale.csi.ibm.com", "csi.trident.netapp.io", "manila.csi.openstack.org",
    "csi.vastdata.com", "csi.weka.io", "csi.juicefs.com", "nasplugin.csi.alibabacloud.com", "csi-isilon.dellemc.com",
    "kubernetes.io/azure-file", "kubernetes.io/cephfs", "nfs.csi.k8s.io",
))
# Rook names its CephFS driver after its namespace (rook-ceph.cephfs.csi.ceph.com, rook/rook issue 3617)
_RWX_SUFFIX = ".cephfs.csi.ceph.com"
_NOT_FILESYSTEMS = ("object", "local-nvme")


def _kubernetes(review) -> bool:
    return review.cluster.spec.software.orchestrator in KUBERNETES


def _listings(review, key: str, what: str):
    if not _kubernetes(review):
        raise Skip("the quote does not run Kubernetes (software.orchestrator)")
    found = [(n, n.software[key]) for n in _nodes(review) if key in n.software]
    if not found:
        raise Skip(f"no {what} among the evidence files")
    return found


def _shared(review):
    """(index, storage) of the first shared filesystem the quote lists, or None."""
    return next(((i, s) for i, s in enumerate(review.cluster.spec.storage or ()) if s.shared and s.type not in _NOT_FILESYSTEMS), None)


@check(NO_PARAMS)
def storage_classes(review, params):
    shared = _shared(review)
    for node, listing in _listings(review, "kubernetes storage classes", "kubectl get storageclass"):
        classes = [c.value for c in listing.value]
        if not any(c["default"] for c in classes):
            yield review.hit("Cluster", _orchestrator(review), f"{node.host}: kubectl lists no default StorageClass "
                             f"({', '.join(c['name'] for c in classes) or 'no class at all'}): a PersistentVolumeClaim without "
                             "storageClassName stays Pending", evidence=(listing.cite(),))
        rwx = [c for c in classes if c["provisioner"] in RWX or c["provisioner"].endswith(_RWX_SUFFIX)]
        if shared is not None and not rwx:
            i, storage = shared
            provisioners = sorted({c["provisioner"] for c in classes})
            yield review.hit("Cluster", ("spec", "storage", i, "type"), f"{node.host}: no StorageClass gives ReadWriteMany volumes (provisioners: "
                             f"{', '.join(provisioners) or 'none'}): pods on several nodes cannot share the quoted {storage.type} storage "
                             f"{storage.name!r} through a PersistentVolumeClaim", evidence=(listing.cite(),))


# NVIDIA network operator: the operator and the pods its NicClusterPolicy deploys (Mellanox/network-operator)
_NETWORK = re.compile(r"^(nvidia-network-operator|network-operator|mofed-|doca-driver|nic-feature-discovery|rdma-shared-dp|nv-ipam)")
_RDMA_FABRICS = ("infiniband", "roce")


def _ready(pod) -> bool:
    ready, _, want = pod["ready"].partition("/")
    return pod["status"] == "Completed" or (pod["status"] == "Running" and ready == want)


@check(NO_PARAMS)
def platform_pods(review, params):
    inter = review.cluster.spec.network.inter_node
    rdma = inter is not None and inter.fabric in _RDMA_FABRICS and inter.rdma is not False
    monitoring = review.cluster.spec.software.monitoring or []
    for node, listing in _listings(review, "kubernetes pods", "kubectl get pods"):
        pods = listing.value
        every = listing.text.startswith("NAMESPACE")  # --all-namespaces: a pod missing here is missing everywhere
        network = [p for p in pods if _NETWORK.match(p.value["name"]) or "network-operator" in (p.value["namespace"] or "")]
        exporters = [p for p in pods if "dcgm-exporter" in p.value["name"]]
        for kind, found in (("network operator", network), ("DCGM exporter", exporters)):
            for pod in found:
                if not _ready(pod.value) and not _OPERATOR.match(pod.value["name"]):  # the GPU operator's own pods are DLV017's
                    yield review.hit("Cluster", _orchestrator(review), f"{kind} pod {pod.value['name']} is {pod.value['status']} "
                                     f"({pod.value['ready']} ready)", evidence=(pod.cite(),))
        if every and rdma and not network:
            yield review.hit("Cluster", ("spec", "network", "inter_node", "fabric"), f"{node.host}: kubectl lists no NVIDIA network operator pod "
                             f"in any namespace: nothing evidences the RDMA driver and device plugin that give pods the quoted {inter.fabric} fabric",
                             evidence=(listing.cite(),), severity="warning")
        if every and "dcgm-exporter" in monitoring and not exporters:
            yield review.hit("Cluster", ("spec", "software", "monitoring", monitoring.index("dcgm-exporter")),
                             f"{node.host}: kubectl lists no DCGM exporter pod in any namespace: the quoted dcgm-exporter GPU metrics have no source",
                             evidence=(listing.cite(),), severity="warning")
