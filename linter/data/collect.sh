#!/bin/sh
# clusterlint collect: gather read-only evidence on this node for `clusterlint accept`.
# It reads hardware state, configuration and logs; it runs no benchmark and changes nothing on the node.
# Usage: sh collect.sh [DIR]   (default: a new folder made by mktemp -d; files go to DIR/$(hostname)/)
# DIR must not exist: the script creates it (mode 700) and refuses an existing path or a symbolic link,
# so that it never writes through a link planted at its output names, even when run as root.
# Every tool runs under `timeout` (CLUSTERLINT_TIMEOUT seconds, default 60); what timed out is listed.
# Run nccl-tests and fio yourself (README, "After delivery") and put their output beside these files.
set -u
umask 077
limit=${CLUSTERLINT_TIMEOUT:-60}
if [ "$#" -gt 0 ]; then
    base=$1
    if [ -e "$base" ] || [ -L "$base" ]; then
        printf 'clusterlint collect: %s exists already: give a new folder name (it is created fresh)\n' "$base" >&2
        exit 2
    fi
    mkdir -m 700 -- "$base" || exit 2
else
    base=$(mktemp -d "${TMPDIR:-/tmp}/clusterlint-evidence.XXXXXX") || exit 2
fi
host=$(hostname 2>/dev/null || uname -n)
case $host in
    '' | . | .. | */*) host=node ;;
esac
out="$base/$host"
mkdir -m 700 -- "$out" || exit 2
skipped=""
timedout=""
failed=""
manifest=""
if command -v timeout >/dev/null 2>&1; then
    bounded="timeout -k 5 $limit"
else
    bounded=""
    printf 'clusterlint collect: timeout is not installed: a hung tool will stop the collection\n' >&2
fi

# save FILE: a fresh file in $out (set -C: never through an existing name or a link planted there)
save() {
    (set -C && : >"$out/$1") 2>/dev/null || {
        printf 'clusterlint collect: %s exists already: not written\n' "$out/$1" >&2
        return 1
    }
}

# record STATUS NAME FILE COMMAND...: one line of the manifest (docs/acceptance.md, "The collect manifest")
record() {
    line="$1 $2 $3"
    shift 3
    manifest="$manifest$line $*
"
}

# absent NAME TOOL [ARGS...]: true, with TOOL noted as skipped and NAME as not installed in the manifest, when TOOL is not installed
absent() {
    command -v "$2" >/dev/null 2>&1 && return 1
    note "$2"
    absent_name=$1
    shift
    record not-installed "$absent_name" - "$@"
}

# run FILE TOOL [ARGS...]: save TOOL's standard output in $out/FILE, or note that TOOL is absent
run() {
    file=$1
    shift
    absent "${1##*/}" "$@" && return
    save "$file" || return
    # shellcheck disable=SC2086 # $bounded is the timeout command and its options, split on purpose
    $bounded "$@" >>"$out/$file" 2>/dev/null
    status=$?
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
        timedout="$timedout $file"
        record timed-out "${1##*/}" "$file" "$@"
        printf 'clusterlint collect: %s timed out after %s s (kept what it printed in %s)\n' "$*" "$limit" "$out/$file" >&2
    elif [ "$status" -ne 0 ] || [ ! -s "$out/$file" ]; then
        failed="$failed $file"
        record failed "${1##*/}" "$file" "$@"
        printf 'clusterlint collect: %s failed or printed nothing (kept %s for the record)\n' "$*" "$out/$file" >&2
    else
        record found "${1##*/}" "$file" "$@"
        printf 'collected %s\n' "$out/$file"
    fi
}

# probe NAME TOOL [ARGS...]: run TOOL only to learn whether it is installed and answers; its output is not kept
probe() {
    name=$1
    shift
    absent "$name" "$@" && return
    # shellcheck disable=SC2086
    $bounded "$@" >/dev/null 2>&1
    status=$?
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
        timedout="$timedout $name"
        record timed-out "$name" - "$@"
    elif [ "$status" -ne 0 ]; then
        failed="$failed $name"
        record failed "$name" - "$@"
    else
        record found "$name" - "$@"
    fi
}

# copy FILE SOURCE WHAT: a readable configuration file behind a header naming it (clusterlint's own format)
copy() {
    if [ -f "$2" ] && [ -r "$2" ]; then
        save "$1" || return
        printf '# clusterlint collect: copy of %s (%s)\n' "$2" "$3" >>"$out/$1"
        # shellcheck disable=SC2086
        $bounded cat -- "$2" >>"$out/$1" && printf 'collected %s\n' "$out/$1"
        record found "$2" "$1" cat "$2"
    else
        note "$2"
        record not-readable "$2" - cat "$2"
    fi
}

# note NAME: remember a skipped tool or file once
note() {
    case " $skipped " in
        *" $1 "*) ;;
        *) skipped="$skipped $1" ;;
    esac
}

# read_file FILE SOURCE: copy a readable kernel or configuration file (a regular file only)
read_file() {
    if [ -f "$2" ] && [ -r "$2" ]; then
        save "$1" || return
        # shellcheck disable=SC2086
        $bounded cat -- "$2" >>"$out/$1" && printf 'collected %s\n' "$out/$1"
        record found "$2" "$1" cat "$2"
    else
        note "$2"
        record not-readable "$2" - cat "$2"
    fi
}

run nvidia-smi-q.xml nvidia-smi -q -x
run nvidia-smi-q.txt nvidia-smi -q
run nvidia-smi-topo.txt nvidia-smi topo -m
read_file nvidia-driver-version.txt /proc/driver/nvidia/version
run rocm-smi.json rocm-smi --showproductname --showmeminfo vram --json
run lscpu.json lscpu -J
run lscpu.txt lscpu
read_file meminfo.txt /proc/meminfo
run free.txt free -b
run ibstat.txt ibstat
run ibstatus.txt ibstatus
run ibv_devinfo.txt ibv_devinfo -v
run lspci-vvv.txt lspci -vvv
run findmnt.json findmnt -J -o TARGET,SOURCE,FSTYPE,SIZE
run df.txt df -T -B1
run dmesg.txt dmesg
run journalctl-k.txt journalctl -k --no-pager -b
run dcgmi-diag.json dcgmi diag -r 1 -j
run nvidia-container-cli.txt nvidia-container-cli -V
run nvidia-container-runtime.txt nvidia-container-runtime --version
run runc-version.txt runc --version
run docker-version.txt docker version
if command -v nvcc >/dev/null 2>&1; then
    run nvcc-version.txt nvcc --version
else
    run nvcc-version.txt /usr/local/cuda/bin/nvcc --version
fi
run dcgmi-version.txt dcgmi -v
run scontrol-show-config.txt scontrol show config
run kubectl-gpu-operator-pods.txt kubectl get pods --all-namespaces
read_file nccl.conf /etc/nccl.conf
run sysctl-profiling.txt sysctl kernel.perf_event_paranoid kernel.kptr_restrict
read_file nvidia-params.txt /proc/driver/nvidia/params
run srun-mpi-list.txt srun --mpi=list
# inventory (DLV022-DLV029): the linker's libraries (NCCL, GDRCopy), loaded modules (gdrdrv), CPU governor; the IOMMU line is in dmesg
if command -v ldconfig >/dev/null 2>&1; then
    run ldconfig-p.txt ldconfig -p
else
    run ldconfig-p.txt /sbin/ldconfig -p
fi
run lsmod.txt lsmod
run cpupower-frequency-info.txt cpupower frequency-info
# platform (DLV030-DLV037): Kubernetes storage classes (the pods are listed above, kubectl-gpu-operator-pods.txt)
run kubectl-storageclass.txt kubectl get storageclass
# stack (DLV025-DLV029): the container runtimes and tools a quote promises, recorded in the manifest (found, not installed,
# failed, timed out); their output is not kept. Pyxis: the options it adds to srun --help. Lmod: `module` is a shell
# function, so its command is found through $LMOD_CMD (set by Lmod's shell start-up) or Lmod's usual install paths.
probe docker docker --version
probe podman podman --version
probe apptainer apptainer --version
probe singularity singularity --version
probe enroot enroot version
if command -v ncu >/dev/null 2>&1; then
    probe ncu ncu --version
else
    probe ncu /usr/local/cuda/bin/ncu --version
fi
if ! command -v srun >/dev/null 2>&1; then
    record not-installed pyxis - srun --help
else
    help=$($bounded srun --help 2>/dev/null)
    status=$?
    if [ "$status" -ne 0 ]; then
        record failed pyxis - srun --help
    elif printf '%s\n' "$help" | grep -q -e '--container-image'; then
        record found pyxis - srun --help '|' grep -e --container-image
    else
        record not-installed pyxis - srun --help '|' grep -e --container-image
    fi
fi
lmod=""
for candidate in "${LMOD_CMD:-}" /usr/share/lmod/lmod/libexec/lmod /opt/apps/lmod/lmod/libexec/lmod /usr/local/lmod/lmod/libexec/lmod; do
    if [ -n "$candidate" ] && [ -f "$candidate" ] && [ -x "$candidate" ]; then
        lmod=$candidate
        break
    fi
done
record "$([ -n "$lmod" ] && echo found || echo not-installed)" lmod - test -x "${lmod:-\$LMOD_CMD}"
nvhpc=""
for candidate in /opt/nvidia/hpc_sdk/*/*/compilers/bin/nvc; do
    if [ -f "$candidate" ] && [ -x "$candidate" ]; then
        nvhpc=$candidate
    fi
done
record "$([ -n "$nvhpc" ] && echo found || echo not-installed)" hpc-sdk - test -x "${nvhpc:-/opt/nvidia/hpc_sdk/*/*/compilers/bin/nvc}"
# the HealthCheckProgram's script (and NHC's configuration), to see whether it runs DCGM; a header names what was copied
program=""
if [ -f "$out/scontrol-show-config.txt" ]; then
    program=$(awk '$1 == "HealthCheckProgram" {print $3; exit}' "$out/scontrol-show-config.txt")
fi
case $program in
    /*)
        copy healthcheck-program.txt "$program" HealthCheckProgram
        if [ "${program##*/}" = nhc ]; then
            copy healthcheck-nhc-conf.txt /etc/nhc/nhc.conf "HealthCheckProgram configuration"
        fi
        ;;
esac
save collect-manifest.txt && {
    printf '# clusterlint collect manifest 1\n# host %s\n# status name file command\n' "$host"
    printf '%s' "$manifest"
} >>"$out/collect-manifest.txt" && printf 'collected %s\n' "$out/collect-manifest.txt"

if [ -n "$skipped" ]; then
    printf 'clusterlint collect: skipped (not installed or not readable):%s\n' "$skipped" >&2
fi
if [ -n "$failed" ]; then
    printf 'clusterlint collect: failed or empty:%s\n' "$failed" >&2
fi
printf 'clusterlint collect: timed out:%s\n' "${timedout:- none}" >&2
printf 'evidence for %s is in %s; run: clusterlint accept QUOTE.yaml --evidence %s\n' "$host" "$out" "$base"
