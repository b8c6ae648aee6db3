"""DLV: the delivered nodes against the quote and the contract (clusterlint accept).

Every hit points at the promise (a quote or contract line) and names the evidence (file:line) it
was measured in. A quoted figure or node with no readable evidence is reported as not evidenced
(a warning that blocks acceptance), never as a shortfall and never as a pass."""

from __future__ import annotations

from clusterlint.contracts.folded import Folded
from clusterlint.model import units
from clusterlint.engine.review import Skip, check

from clusterlint.rules.common import NO_PARAMS, memory

GBPS_BITS = 8e9  # GB/s (nccl-tests busbw, decimal) in bits per second, the unit of every Rate


def _nodes(review) -> list:
    return sorted(review.evidence.nodes.values(), key=lambda n: n.host)


def nodes_with(review, has, what: str) -> list:
    """The nodes whose evidence `has` (a test of a node), by host; Skip naming `what` when none has it."""
    nodes = [n for n in _nodes(review) if has(n)]
    if not nodes:
        raise Skip(f"no {what} among the evidence files")
    return nodes


def pool_name(review) -> tuple:
    """The path of the checked pool's name: where a finding about a node's evidence points."""
    i, _ = _pool(review)
    return ("spec", "node_pools", i, "name")


def _pool(review):
    """The pool the evidence is checked against: the only one, or the first whose accelerator the nodes report."""
    pools = review.cluster.spec.node_pools
    if len(pools) > 1:
        raise Skip("the quote has several node pools; give each pool's evidence to its own accept run")
    return 0, pools[0]


def _not_evidenced(review, path, what: str, files: str, kind: str = "Cluster"):
    return review.hit(kind, path, f"{what} is not evidenced: no {files} among the evidence files", severity="warning")


@check("clusterlint.rules.params:Ratio")
def accelerators(review, params):
    i, pool = _pool(review)
    base = ("spec", "node_pools", i)
    nodes = [n for n in _nodes(review) if n.gpu_count is not None]
    if not nodes:
        yield _not_evidenced(review, base + ("accelerator",), f"{pool.accelerator.count} x {pool.accelerator.model} per node", "nvidia-smi or rocm-smi output")
        return
    if len(nodes) < pool.count:
        bare = sorted(set(review.evidence.folders) - {n.host for n in nodes})
        named = f" ({', '.join(bare[:5])}{', ...' if len(bare) > 5 else ''} without)" if bare else ""
        yield review.hit("Cluster", base + ("count",), f"{pool.count - len(nodes)} of {pool.count} quoted nodes in pool {pool.name!r} are not evidenced: "
                         f"accelerator output for {len(nodes)} node{'s' if len(nodes) != 1 else ''} only{named}", severity="warning")
    from clusterlint.model.part_names import same_model

    quoted_memory, source = memory(review, pool)
    for node in nodes:
        if node.gpu_count.value < pool.accelerator.count:
            yield review.hit("Cluster", base + ("accelerator", "count"),
                             f"node {node.host} has {node.gpu_count.value} accelerator{'s' if node.gpu_count.value != 1 else ''}, quoted {pool.accelerator.count} per node in pool {pool.name!r}",
                             evidence=(node.gpu_count.cite(),))
        for gpu in node.gpus.values():
            model = gpu.get("model")
            if model is not None and not same_model(pool.accelerator.model, model.value):
                yield review.hit("Cluster", base + ("accelerator", "model"),
                                 f"node {node.host} GPU {gpu['id'].value} is {model.value!r}, quoted {pool.accelerator.model}", evidence=(model.cite(),))
            size = gpu.get("memory")
            if size is not None and size.value < quoted_memory * params.min_ratio:
                yield review.hit("Cluster", base + ("accelerator", "memory" if pool.accelerator.memory else "model"),
                                 f"node {node.host} GPU {gpu['id'].value} has {units.human(size.value, 'size')} of memory, quoted "
                                 f"{units.human(quoted_memory, 'size')} (below {params.min_ratio:g} of it)", evidence=(size.cite(), f"quoted memory: {source}"))


@check("clusterlint.rules.params:Ratio")
def host(review, params):
    i, pool = _pool(review)
    base = ("spec", "node_pools", i)
    nodes = _nodes(review)
    if pool.cpu is not None:
        measured = [n for n in nodes if n.cores is not None]
        if not measured:
            yield _not_evidenced(review, base + ("cpu",), "the quoted CPU", "lscpu output")
        for node in measured:
            if node.cores.value < pool.cpu.physical_cores:
                yield review.hit("Cluster", base + ("cpu",), f"node {node.host} has {node.cores.value} physical cores, quoted {pool.cpu.physical_cores:g}",
                                 evidence=(node.cores.cite(),))
    if pool.memory is not None:
        measured = [n for n in nodes if n.memory is not None]
        if not measured:
            yield _not_evidenced(review, base + ("memory",), f"host memory of {units.human(pool.memory.value, 'size')}", "/proc/meminfo or free -b output")
        for node in measured:
            if node.memory.value < pool.memory.value * params.min_ratio:
                yield review.hit("Cluster", base + ("memory",), f"node {node.host} has {units.human(node.memory.value, 'size')} of host memory, "
                                 f"quoted {units.human(pool.memory.value, 'size')} (below {params.min_ratio:g} of it)", evidence=(node.memory.cite(),))


LINK_LAYER = {"infiniband": "infiniband", "roce": "ethernet", "ethernet": "ethernet", "efa": None}


@check(NO_PARAMS)
def nics(review, params):
    inter = review.cluster.spec.network.inter_node
    if inter is None or not inter.nics_per_node or inter.fabric not in LINK_LAYER or LINK_LAYER[inter.fabric] is None:
        raise Skip("the quote states no InfiniBand or RoCE adapters between nodes")
    path = ("spec", "network", "inter_node")
    layer = LINK_LAYER[inter.fabric]
    nodes = [n for n in _nodes(review) if n.nics]
    if not nodes:
        yield _not_evidenced(review, path + ("nics_per_node",), f"{inter.nics_per_node} x {inter.fabric} adapters per node", "ibstat, ibstatus or ibv_devinfo output")
        return
    for node in nodes:
        ports = [f for f in node.nics if str(f.value["link_layer"]).lower() == layer]
        active = [f for f in ports if str(f.value["state"]).lower() == "active"]
        others = [f for f in node.nics if f not in ports]
        for port in ports:
            if port not in active:
                yield review.hit("Cluster", path + ("nics_per_node",), f"node {node.host} adapter {port.value['name']} is {port.value['state']}, not Active",
                                 evidence=(port.cite(),))
        if len(ports) < inter.nics_per_node:
            cite = tuple(f.cite() for f in ports) or tuple(f.cite() for f in others[:inter.nics_per_node])
            yield review.hit("Cluster", path + ("nics_per_node",),
                             f"node {node.host} has {len(ports)} {inter.fabric} adapter port{'s' if len(ports) != 1 else ''}, "
                             f"quoted {inter.nics_per_node}{_other_layers(others)}", evidence=cite)
        if inter.nic_speed is not None:
            for port in active:
                rate = port.value["rate_gbps"]
                if rate is not None and rate * 1e9 < inter.nic_speed.value:
                    yield review.hit("Cluster", path + ("nic_speed",), f"node {node.host} adapter {port.value['name']} runs at {rate:g} Gb/s, "
                                     f"quoted {units.human(inter.nic_speed.value, 'rate')}", evidence=(port.cite(),))


def _other_layers(ports) -> str:
    """What the ports of another link layer are: `; it has 8 Ethernet ports, 8 Active at 400 Gb/s`."""
    if not ports:
        return ""
    layers = sorted({str(p.value["link_layer"]) for p in ports})
    active = [p for p in ports if str(p.value["state"]).lower() == "active"]
    rates = sorted({p.value["rate_gbps"] for p in active if p.value["rate_gbps"] is not None})
    at = f" at {' or '.join(f'{r:g}' for r in rates)} Gb/s" if rates else ""
    return f"; it has {len(ports)} {' and '.join(layers)} link layer port{'s' if len(ports) != 1 else ''}, {len(active)} Active{at}"


_COLLECTIVE = Folded(r"bus|nccl|all.?reduce|all.?gather|collective|inter.?node")


@check("clusterlint.rules.params:Collective")
def collective(review, params):
    runs = review.evidence.collectives
    commitment = None
    if review.contract is not None:
        for j, item in enumerate(review.contract.spec.performance):
            if _COLLECTIVE.search(item.metric) or _COLLECTIVE.search(item.method or ""):
                try:
                    quantity = units.parse(item.value, "rate")
                except ValueError:
                    continue
                commitment = ("Contract", ("spec", "performance", j, "value"), quantity.value, f"the contract commits {item.value} ({item.metric})")
                break
    inter = review.cluster.spec.network.inter_node
    if commitment is None and inter is not None and inter.nics_per_node and inter.nic_speed is not None:
        line_rate = inter.nics_per_node * inter.nic_speed.value
        commitment = ("Cluster", ("spec", "network", "inter_node", "nic_speed"), line_rate * params.min_share,
                      f"{params.min_share:g} of {inter.nics_per_node} x {units.human(inter.nic_speed.value, 'rate')} = "
                      f"{units.human(line_rate * params.min_share, 'byte_rate')} (DLV004 min_share)")
    if commitment is None:
        raise Skip("neither a contract bandwidth commitment nor a quoted inter-node adapter speed to compare with")
    kind, path, expected, origin = commitment
    multi = [run for run in runs if len(run.hosts) > 1 or kind == "Contract"]
    if not multi:
        yield _not_evidenced(review, path, f"collective bandwidth ({origin})", "nccl-tests output across nodes", kind)
        return
    for run in multi:
        largest = max(run.rows, key=lambda f: f.value[0])
        size, busbw = largest.value
        if busbw * GBPS_BITS < expected:
            yield review.hit(kind, path, f"{run.test} busbw {busbw:g} GB/s at {units.human(size, 'size')} over {len(run.hosts) or 'unnamed'} node"
                             f"{'s' if len(run.hosts) != 1 else ''} is below {units.human(expected, 'byte_rate')}: {origin}", evidence=(largest.cite(),))


@check("clusterlint.rules.params:Ratio")
def storage(review, params):
    systems = [(j, s) for j, s in enumerate(review.cluster.spec.storage or ()) if s.read_bandwidth or s.write_bandwidth]
    if not systems:
        raise Skip("the quote states no storage read or write bandwidth")
    j, system = systems[0]
    nodes = [n for n in _nodes(review) if n.fio]
    for rw in ("read", "write"):
        quoted = getattr(system, f"{rw}_bandwidth")
        if quoted is None:
            continue
        path = ("spec", "storage", j, f"{rw}_bandwidth")
        facts = [f for n in nodes for f in n.fio if f.value["rw"] == rw]
        if not facts:
            yield _not_evidenced(review, path, f"{rw} bandwidth of {system.name!r}", f"fio --output-format=json {rw} job")
            continue
        total = sum(f.value["bytes_per_s"] for f in facts) * 8
        if total < quoted.value * params.min_ratio:
            yield review.hit("Cluster", path, f"fio {rw} bandwidth {units.human(total, 'byte_rate')} summed over {len({f.file for f in facts})} job file"
                             f"{'s' if len({f.file for f in facts}) != 1 else ''} is below the quoted {units.human(quoted.value, 'byte_rate')} of {system.name!r}",
                             evidence=tuple(f.cite() for f in facts))


@check(NO_PARAMS)
def health(review, params):
    i, pool = _pool(review)
    for node in _nodes(review):
        seen = set()
        for failure in node.failures:
            if failure.value in seen:
                continue
            seen.add(failure.value)
            yield review.hit("Cluster", ("spec", "node_pools", i, "name"), f"node {node.host} failed a health check: {failure.value}", evidence=(failure.cite(),))


FSTYPES = {"lustre": ("lustre",), "gpfs": ("gpfs",), "weka": ("wekafs",), "vast": ("nfs", "nfs4"), "ddn": ("lustre",), "beegfs": ("beegfs",),
           "daos": ("fuse.dfuse", "dfuse"), "nfs": ("nfs", "nfs4"), "cephfs": ("ceph", "fuse.ceph-fuse"), "smb": ("cifs", "smb3"), "efs": ("nfs4", "efs"),
           "filestore": ("nfs", "nfs4")}


PSEUDO = {"tmpfs", "proc", "sysfs", "devtmpfs", "cgroup", "cgroup2", "overlay", "devpts", "mqueue", "securityfs", "debugfs", "tracefs", "bpf",
          "pstore", "configfs", "fusectl", "hugetlbfs", "autofs", "binfmt_misc", "nsfs", "efivarfs", "rpc_pipefs", "squashfs"}


@check("clusterlint.rules.params:Ratio")
def filesystems(review, params):
    systems = [(j, s) for j, s in enumerate(review.cluster.spec.storage or ()) if s.shared and s.type in FSTYPES]
    if not systems:
        raise Skip("the quote states no shared filesystem")
    nodes = [n for n in _nodes(review) if n.mounts]
    for j, system in systems:
        path = ("spec", "storage", j)
        if not nodes:
            yield _not_evidenced(review, path + ("type",), f"filesystem {system.name!r} ({system.type})", "findmnt -J, df -T or df -h output")
            continue
        for node in nodes:
            yield from _mounts(review, params, path, system, node)


def _mounts(review, params, path, system, node):
    """The quoted filesystem on one node: its type (findmnt, df -T) and its size (df, findmnt -o SIZE)
    joined by mount point; df -h alone shows sizes but no type."""
    sizes: dict = {}
    for m in node.mounts:
        if m.value["size"] and m.value["size"] > sizes.get(m.value["target"], (0, None))[0]:
            sizes[m.value["target"]] = (m.value["size"], m)
    if any(m.value["fstype"] for m in node.mounts):
        mounts = [m for m in node.mounts if m.value["fstype"] in FSTYPES[system.type]]
        if not mounts:
            types = sorted({m.value["fstype"] for m in node.mounts if m.value["fstype"]} - PSEUDO)
            named = "" if FSTYPES[system.type] == (system.type,) else f" (type {' or '.join(FSTYPES[system.type])})"
            root = next((m for m in node.mounts if m.value["target"] == "/"), node.mounts[0])
            yield review.hit("Cluster", path + ("type",), f"node {node.host} mounts no {system.type} filesystem{named} for {system.name!r}; "
                             f"it mounts {', '.join(types) or 'none'}", evidence=(root.cite(),))
            return
        candidates = {m.value["target"]: f"{m.value['target']} ({m.value['fstype']})" for m in mounts}
    else:
        yield review.hit("Cluster", path + ("type",), f"the type of {system.name!r} ({system.type}) on node {node.host} is not evidenced: "
                         f"df without -T shows no type (collect findmnt -J or df -T)", severity="warning", evidence=(node.mounts[0].cite(),))
        candidates = {target: target for target in sizes}
    sized = [sizes[t] for t in candidates if t in sizes]
    if not sized and system.capacity is not None and candidates:  # a size of 0 or none at all: nothing shows the capacity
        yield _not_evidenced(review, path + ("capacity",), f"the capacity of {system.name!r} on node {node.host}",
                             "df or findmnt -o SIZE output with its size")
    if sized and max(v for v, _ in sized) < system.capacity.value * params.min_ratio:
        value, biggest = max(sized, key=lambda item: item[0])
        largest = "" if len(candidates) == 1 else "its largest mount, "
        yield review.hit("Cluster", path + ("capacity",), f"node {node.host} mounts {largest}{candidates[biggest.value['target']]} of "
                         f"{units.human(value, 'size')}, quoted {units.human(system.capacity.value, 'size')} for {system.name!r}",
                         evidence=(biggest.cite(),))


@check("clusterlint.rules.params:Pool")
def uniform(review, params):
    i, pool = _pool(review)
    path = ("spec", "node_pools", i, "name")
    nodes = _nodes(review)
    with_memory = [n for n in nodes if n.memory is not None]
    if len(with_memory) > 1:
        top = max(n.memory.value for n in with_memory)
        for node in with_memory:
            if node.memory.value < top * (1 - params.memory_tolerance):
                yield review.hit("Cluster", path, f"node {node.host} has {units.human(node.memory.value, 'size')} of host memory, the pool's largest has "
                                 f"{units.human(top, 'size')}", evidence=(node.memory.cite(),))
    drivers = [n for n in nodes if n.driver is not None]
    if len({n.driver.value for n in drivers}) > 1:
        counts: dict = {}
        for node in drivers:
            counts[node.driver.value] = counts.get(node.driver.value, 0) + 1
        common = max(counts, key=lambda v: (counts[v], v))
        for node in drivers:
            if node.driver.value != common:
                n = counts[common]
                yield review.hit("Cluster", path, f"node {node.host} runs driver {node.driver.value}, while {n} node{'s' if n != 1 else ''} of the pool "
                                 f"run{'s' if n == 1 else ''} {common}", evidence=(node.driver.cite(),))
    for key, label in (("pcie_gen", "PCIe Gen"), ("pcie_width", "PCIe x")):
        links = [(n, g[key]) for n in nodes for g in n.gpus.values() if key in g]
        if len(links) > 1:
            best = max(f.value for _, f in links)
            for node, fact in links:
                if fact.value < best:
                    yield review.hit("Cluster", path, f"node {node.host} runs a GPU link at {label}{fact.value}, others at {label}{best}", evidence=(fact.cite(),))


@check(NO_PARAMS)
def unreadable(review, params):
    for fact in review.evidence.unreadable:
        yield review.hit("Cluster", ("metadata", "name"), f"evidence {fact.file} was not read: {fact.value}", evidence=(fact.where,))
