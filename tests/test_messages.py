"""Exact messages: each rule's bad fixture says precisely this (numbers checked by hand in review)."""

from __future__ import annotations

import pytest

from clusterlint.engine.registry import builtin_rules

from conftest import FIXTURES, fixture_json

MESSAGES = {
    "ACC001": 'training 700B parameters needs 15.75 TB of accelerator memory (700B x 18 bytes x 1.25) = 197 accelerators of 80 GB; the cluster has 32',
    "ACC002": 'serving 405B parameters in bf16 needs 1.012 TB (405B x 2 bytes x 1.25) = 13 accelerators of 80 GB; the cluster has 8',
    "ACC003": 'quoted 1,979 bf16 TFLOPS is 2x the dense 989.4 of H100-SXM: that is the 2:4-sparsity figure, which dense training never reaches',
    "ACC004": 'assumed MFU 0.75 is above 0.6: about 0.5 is already excellent for multi-node training, so time and cost estimates are too optimistic',
    "ACC005": "the workload asks for 64 accelerators (placement.accelerators); pool 'inference' has 8 (2 nodes x 4 L40S): the job cannot start as planned",
    "CON001": [
        "clause 4.2 is a vendor obligation (\"Provider\" + \"will\") that promises only 'commercially reasonable efforts': it has a date "
        "but no number with a unit and no remedy for the customer; an effort promise cannot be enforced",
        "clause 4.3 is a vendor obligation (\"Provider\" + \"will\") that promises only 'ENDEAVOUR': it has no date, no number "
        "with a unit and no remedy for the customer; an effort promise cannot be enforced",
    ],
    "CON002": 'the contract names no delivery date: without one the vendor can deliver late, or never, at no cost',
    "CON003": "performance commitment 'inter_node_bandwidth' is 'industry-leading': not a number with a unit, so it cannot be checked",
    "CON004": 'delivery date 2027-01-15 has no remedy if missed (late_remedy: a credit, fee suspension or termination)',
    "CON005": "clause 2.1 is a vendor obligation (\"Provider\" + \"will\") that makes capacity 'subject to availability': the vendor "
    "may never provide it; reserve the accelerators by count and date",
    "CON006": "clause 7.4 makes service credits the 'sole and exclusive remedy': a long outage earns a few percent of a month's fee and nothing more",
    "CON007": "clause 1.3 counts downtime only as loss of connectivity ('external connectivity'): a failed accelerator, a degraded link or a slow fabric is not downtime and earns no credit",
    "CON008": 'the contract commits to inter_node_bandwidth 1600Gbps, 50% of the 3.2 Tbps the cluster advertises (8 x 400 Gbps per node); below 80% the rest is a promise the contract does not make',
    "CPU001": "2 x 8 = 16 physical cores per node in pool 'gpu' cannot feed 8 accelerators: 8 x (3 dataloader workers + 1) = 32 cores needed (workload)",
    "CPU002": 'host memory 256 GB per node is less than the 640 GB of accelerator memory it hosts (8 x 80 GB): loading and checkpointing the model will swap or fail',
    "CST001": "estimated training time 3.412 days = 6 x 7B params x 100B tokens / (32 x 989.4 TFLOPS x 0.45 MFU) on 32 x H100-SXM on pool 'gpu' (the whole pool, 4 nodes x 8: no placement or data parallelism stated); effective time 3.448 days = 3.412 days x (1 + 0.53% network + 0.01% checkpoints) / 99.50% availability; cost owed 6,684 USD = 32 x 82.74 h x 2.50 USD/h + 1,294 GB x 0.05 USD/GB",
    "CST002": "estimated time 3.448 days exceeds the deadline of 1 day (training time 3.412 days = 6 x 7B params x 100B tokens / (32 x 989.4 TFLOPS x 0.45 MFU) on 32 x H100-SXM on pool 'gpu' (the whole pool, 4 nodes x 8: no placement or data parallelism stated); effective time 3.448 days = 3.412 days x (1 + 0.53% network + 0.01% checkpoints) / 99.50% availability)",
    "CST003": "estimated cost owed 6,684 USD = 32 x 82.74 h x 2.50 USD/h + 1,294 GB x 0.05 USD/GB exceeds the budget of 1,000 USD",
    "CST004": 'the price neither includes nor prices network, support and egress: these lines arrive on the first invoice',
    "DLV001": "node node-1 has 1 accelerator, quoted 2 per node in pool 'gpu'",
    "DLV002": ["node node-1 has 16 physical cores, quoted 32", "node node-1 has 135.1 GB of host memory, quoted 274.9 GB (below 0.95 of it)"],
    "DLV003": ["node node-1 adapter mlx4_0/1 is Down, not Active", "node node-1 has 1 infiniband adapter port, quoted 2"],
    "DLV004": "all_reduce_perf busbw 300.52 GB/s at 33.55 MB over 2 nodes is below 360 GB/s: 0.9 of 8 x 400 Gbps = 360 GB/s (DLV004 min_share)",
    "DLV005": "fio read bandwidth 12.41 GB/s summed over 1 job file is below the quoted 20 GB/s of 'scratch'",
    "DLV006": "node node-1 failed a health check: Xid 79 on PCI:0000:44:00",
    "DLV007": "node node-1 mounts no lustre filesystem for 'parallel-fs'; it mounts ext4",
    "DLV008": "node node-2 has 67.57 GB of host memory, the pool's largest has 135.1 GB",
    "DLV009": "evidence tests/fixtures/DLV009/bad-evidence/node-1/ibstat.txt was not read: empty file (the command printed nothing)",
    "DLV010": ["node node-1 evidence disagrees on its accelerator count: 1 in tests/fixtures/DLV010/bad-evidence/node-1/nvidia-smi-q.txt, "
               "8 in tests/fixtures/DLV010/bad-evidence/node-1/other-day.txt",
               "node node-1 evidence disagrees on its driver version: 580.159.04 in tests/fixtures/DLV010/bad-evidence/node-1/nvidia-smi-q.txt, "
               "510.73.08 in tests/fixtures/DLV010/bad-evidence/node-1/other-day.txt"],
    "DLV011": "node node-1 GPU 00000000:10:1C.0 has a row remap pending: it needs a GPU reset before its memory is whole",
    "DLV012": "node node-1 GPU 00000000:00:06.0 PCIe link runs at x8, the part's is x16",
    "DLV013": "node node-1 GPU 00000000:00:06.0 power limit is 450 W, the part's maximum is 700 W",
    "DLV014": "node node-1 bridge a device above the excerpt has PCIe ACS on (SrcValid+, ReqRedir+, CmpltRedir+, UpstreamFwd+): "
              "peer-to-peer GPU-NIC traffic goes through the root complex",
    "DLV015": [*(f"node node-1 adapter {hca} runs firmware 28.39.2048, below its train 39's security floor 39.8002 (NVIDIA Security Bulletin: "
                 "NVIDIA Networking BlueField and ConnectX - June 2026 (a_id 5699, 2026-06-30))" for hca in ("mlx5_0", "mlx5_1")),
               "node node-1 runs driver 510.73.08, a branch the ClusterMAX minimum-version table does not list (535, 570, 580, 590, 595): unsupported",
               "node node-1 runs runc 1.0.0-rc91+dev, below the 1.0 branch's security floor 1.0.3 (GHSA-v95c-p5hm-xq8f)"],
    "DLV016": "node node-1 runs Slurm without a HealthCheckProgram: a failing node keeps taking jobs",
    "DLV017": "GPU operator pod gpu-operator-node-feature-discovery-worker-x7jj5 is CrashLoopBackOff (0/1 ready)",
    "DLV018": "node node-1 forces NCCL_MIN_NCHANNELS=32 on every job: NCCL's own choice of algorithm, protocol and channels is overridden",
    "DLV019": "node node-1 sets RmProfilingAdminOnly = 1, above 0: only administrators can read GPU performance counters (Nsight Compute fails "
              "with ERR_NVGPUCTRPERM)",
    "DLV020": ["node node-1 runs Slurm with accounting_storage/none: sacct has no job accounting",
               "node node-1 srun offers no PMIx (cray_shasta, none, pmi2): MPI jobs cannot be launched with srun --mpi=pmix"],
    "DLV021": "node node-1 adapter mlx4_0 is not named mlx5_N: NCCL_IB_HCA has to name it",
    "DLV022": ["node node-1 has no GDRCopy: ldconfig -p lists no libgdrapi.so and no lsmod listing shows gdrdrv",
               "node node-1 has no NCCL: ldconfig -p lists 20 libraries, none libnccl.so: multi-GPU jobs outside a container cannot run collectives"],
    "DLV023": "node node-1 translates every device's DMA through the IOMMU (default domain Translated, expected Passthrough with iommu=pt): "
              "GPU and RDMA transfers pay for the translation",
    "DLV024": "node node-1 CPU 5 runs the powersave governor of acpi-cpufreq: its cores stay at their lowest frequency, expected performance",
    "DLV025": ["node node-1: the quoted enroot is not installed (collect tried enroot version)",
               "node node-1: the quoted nsight-compute is not installed (collect tried /usr/local/cuda/bin/ncu --version)"],
    "DLV026": "node node-1: the HealthCheckProgram /usr/sbin/nhc runs no DCGM check (/etc/nhc/nhc.conf names no dcgmi, dcgm or nv-hostengine): "
              "a GPU that fails DCGM's health watches is not drained",
    "DLV027": "node node-1 leaves NCCL_IB_QPS_PER_CONNECTION unset (NCCL's default 1), expected at least 2 on a 2-tier infiniband fabric: "
              "one queue pair per connection gives ECMP one flow to hash onto the spine uplinks (sweep 2 to 4)",
    "DLV030": "node-1: no StorageClass gives ReadWriteMany volumes (provisioners: kubernetes.io/gce-pd, pd.csi.storage.gke.io): pods on several "
              "nodes cannot share the quoted nfs storage 'home' through a PersistentVolumeClaim",
    "DLV031": [f"DCGM exporter pod dcgm-exporter-{pod} is CrashLoopBackOff (0/1 ready)" for pod in ("8k4s5", "fwcxb", "tksj6")],
    "LCK001": 'TPU-v5p can be rented only from Google Cloud: code tuned for it does not move to another provider',
    "LCK002": 'the cluster requires proprietary software: AcmeLauncher; your workflow would depend on it',
    "LCK003": 'efa needs the aws-ofi-nccl plugin (EFA) for NCCL: container images and tuning are specific to this provider',
    "LCK004": 'the contract has no termination for convenience and no data export terms: leaving this provider means paying out the term or losing the data',
    "NET001": "tensor parallel degree 16 exceeds the 8-accelerator scale-up domain of pool 'gpu': every layer's activations would cross the inter-node network",
    "NET002": "tensor parallel degree 8 runs over PCIe in pool 'gpu': PCIe moves a fraction of what NVLink does, so every layer waits on communication",
    "NET003": "4 x 400 Gbps / 8 accelerators = 200 Gbps per accelerator (160 Gbps effective at 80% of advertised) in pool 'gpu'; training on 989.4 dense bf16 TFLOPS wants >= 400 Gbps (400 Gbps per 989.4 reference TFLOPS)",
    "NET004": 'multi-node training over infiniband without RDMA (rdma: false): collectives go through the kernel TCP stack and host memory',
    "NET005": 'the inter-node fabric is shared with other tenants: their traffic makes your collectives slow and unpredictable',
    "NET006": 'the fabric is 2:1 oversubscribed for a job on 32 accelerators: all-reduce across them gets at most 1/2 of the NIC bandwidth',
    "NET007": "each step's gradient all-reduce (2.625 GB per accelerator at 10 Gbps effective) takes 2.1 s, longer than the step's compute 0.773 s (6 x 7B params x 262.1K tokens / (32 x 989.4 TFLOPS x 0.45 MFU))",
    "REL001": "pool 'gpu' has 0 spare nodes for 8 (a purchase); keep >= 1 (5%) so a failed node does not stop the job until it is repaired",
    "REL002": 'the contract states no replacement time for a failed node or accelerator: a dead GPU can idle the whole job while the vendor takes its time',
    "REL003": 'the contract has no acceptance or burn-in test before handover: you pay from day one for nodes that were never shown to work together',
    "SPEC001": "invalid YAML: while parsing a flow sequence: did not find expected ',' or ']'",
    "SPEC002": "spec.network.inter_node: unknown key 'nic_sped' (did you mean 'nic_speed'?)",
    "SPEC003": "key 'count' repeats the key on line 7; YAML keeps only one of them",
    "SPEC004": "accelerator 'H100-SMX' is not in the catalog (did you mean 'H100-SXM'?); rules that need its figures are skipped (see clusterlint catalog)",
    "SPEC005": 'spec.network.inter_node.nic_speed: 400 has no unit; expected a rate, e.g. 400Gbps (bits per second) or 50GB/s (bytes per second)',
    "STO001": "shared storage 'shared' is nfs, not a parallel filesystem, and holds datasets, checkpoints, code: 4 nodes reading and writing through it will stall training",
    "STO002": 'shared storage for datasets and checkpoints holds 1 TB but needs 1.25 x (1 TB dataset + 3 x 98 GB checkpoints) = 1.617 TB',
    "STO003": 'writing a 98 GB checkpoint at 1 GB/s takes 1.633 minutes every 2 hours: 1.4% of training time idle (limit 1%)',
    "STO004": '4 nodes and no shared filesystem: code, data and checkpoints must be copied to every node',
    "STO005": 'training consumes 339,222.9 tokens/s x 10 bytes/token = 3.392 MB/s, more than the 1 MB/s the dataset storage reads',
    "STO006": "pool 'gpu' has no local NVMe: no fast scratch for checkpoints staged before upload, or for dataset caches",
    "SPEC006": "the quote does not state the local drives (pool 'gpu'), the spare nodes (pool 'gpu'), the fabric's oversubscription, the storage or the scheduler: ask; the rules that judge them are skipped, not passed",
    "SW001": 'orchestrator none: without Slurm or Kubernetes, sharing nodes, queueing jobs and restarting after failures are manual',
    "SW002": "no root access: drivers, NCCL versions and kernel settings wait on the provider's support queue",
    "SUP001": "suppression of NET003 gives no reason; write it after the brackets: clusterlint: ignore[NET003] why it is accepted",
    "SUP002": [
        "unused suppression: no NET003 finding on line 20",
        "suppression names unknown rule 'NET04' (did you mean 'NET004'?)",
        "SPEC002 cannot be suppressed: fix the file (or the comment) instead",
    ],
    "SUP003": [
        "not a suppression: 'ignore NET003 accepted'; write clusterlint: ignore[ID, ...] reason, or ignore-file[ID, ...] reason",
        "not a suppression: 'disable[STO001] not a form clusterlint reads'; write clusterlint: ignore[ID, ...] reason, or ignore-file[ID, ...] reason",
    ],
    "UNI001": 'nic_speed 400GB/s = 3.2 Tbps per port, faster than any NIC (800 Gbps): NICs are sold in bits, did the quote mean 400Gbps?',
    "UNI002": 'intra-node bandwidth 900GB/s counts both directions: 450 GB/s each way, the figure a collective sees',
    'LCK005': "taking the workload's data out at the end costs 12,000 USD = 24 TB (20 TB dataset + 4 x 1 TB checkpoints) x 0.50 USD/GB: above 1,000 USD; ask for free export at exit",
    'NET008': "the infiniband fabric is shared with other tenants and the quote states no tenant isolation (tenant_isolation: []): other tenants' nodes can reach yours over the fabric",
    'REL004': "availability 90% allows 73.05 h of downtime a month (10% of 730.5 h), 115.2 h over the workload's 1,151.5 h run; ask for at least 99%",
    'REL005': "node replacement 14 days with no spare node in pool 'gpu': one failed node stalls the 64-node job or idles its other 63 nodes for 336 h (21,168 node-hours); ask for replacement within 72 h or spare nodes",
    'REL006': "support 'business hours' states no severity-1 response time: ask for a first response within 1 hour",
    'REL007': 'planned maintenance is announced 12 hours ahead, under 7 days: too short to checkpoint and reschedule a multi-day run',
    'REL008': "acceptance test 'nodes power on and are reachable over SSH' names no multi-node nccl-tests bandwidth figure, no dcgm diagnostic level and no burn-in length: a cluster that boots but cannot train passes it",
    'REL009': 'the vendor does not drain a node that fails them: a failing node keeps taking jobs and crashing them',
    'SEC001': 'neither the contract nor the quote names a security attestation (SOC 2 Type II, ISO 27001): nobody outside has audited how your data and fabric are guarded',
    'STO007': "checkpoints on 'shared' have durability single-copy, no snapshots and no backup: one failed server can take the run's checkpoints, and the weeks of training behind them, with it",
    'STO008': "the quote states no object store for the workload's 200 TB dataset (one is asked for from 100 TB): the dataset is kept on working storage and uploaded again to every new cluster; ask for managed S3-compatible object storage",
    'SW003': 'slurm needs a CPU login and controller node and the quote has service nodes with roles storage: users would log in to, and slurmctld would run on, a GPU node',
    'SW004': 'the monitoring offered lacks dcgm-exporter, xid-alerts: you learn of a failing GPU when the job crashes',
    "UNI003": 'intra-node bandwidth 7200GB/s is the node aggregate (8 x 900 GB/s), not the per-accelerator figure clusterlint expects',
}


def test_every_rule_has_an_exact_message():
    assert sorted(MESSAGES) == sorted(builtin_rules())


@pytest.mark.parametrize("rule_id", sorted(MESSAGES))
def test_exact_message(rule_id):
    report = fixture_json(FIXTURES / rule_id / "bad.yaml")
    expected = MESSAGES[rule_id] if isinstance(MESSAGES[rule_id], list) else [MESSAGES[rule_id]]
    assert [f["message"] for f in report["findings"] if f["rule"] == rule_id] == expected
