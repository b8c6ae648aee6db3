#!/bin/sh
# clusterlint collect: gather read-only evidence on this node for `clusterlint accept`.
# It reads hardware state and logs; it runs no benchmark and changes nothing on the node.
# Usage: sh collect.sh [DIR]   (default DIR: evidence; files go to DIR/$(hostname)/)
# Run nccl-tests and fio yourself (README, "After delivery") and put their output beside these files.
set -u
base=${1:-evidence}
host=$(hostname 2>/dev/null || uname -n)
out="$base/$host"
mkdir -p "$out" || exit 2
skipped=""

# run FILE TOOL [ARGS...]: save TOOL's standard output in $out/FILE, or note that TOOL is absent
run() {
    file=$1
    shift
    if command -v "$1" >/dev/null 2>&1; then
        if "$@" >"$out/$file" 2>/dev/null && [ -s "$out/$file" ]; then
            printf 'collected %s\n' "$out/$file"
        else
            printf 'clusterlint collect: %s failed or printed nothing (kept %s for the record)\n' "$*" "$out/$file" >&2
        fi
    else
        note "$1"
    fi
}

# note NAME: remember a skipped tool or file once
note() {
    case " $skipped " in
        *" $1 "*) ;;
        *) skipped="$skipped $1" ;;
    esac
}

# read FILE SOURCE: copy a readable kernel file
read_file() {
    if [ -r "$2" ]; then
        cat "$2" >"$out/$1" && printf 'collected %s\n' "$out/$1"
    else
        note "$2"
    fi
}

run nvidia-smi-q.xml nvidia-smi -q -x
run nvidia-smi-q.txt nvidia-smi -q
run nvidia-smi-topo.txt nvidia-smi topo -m
run rocm-smi.json rocm-smi --showproductname --showmeminfo vram --json
run lscpu.json lscpu -J
run lscpu.txt lscpu
read_file meminfo.txt /proc/meminfo
run free.txt free -b
run ibstat.txt ibstat
run ibstatus.txt ibstatus
run ibv_devinfo.txt ibv_devinfo -v
run findmnt.json findmnt -J -o TARGET,SOURCE,FSTYPE,SIZE
run df.txt df -T -B1
run dmesg.txt dmesg
run journalctl-k.txt journalctl -k --no-pager -b
run dcgmi-diag.json dcgmi diag -r 1 -j

if [ -n "$skipped" ]; then
    printf 'clusterlint collect: skipped (not installed or not readable):%s\n' "$skipped" >&2
fi
printf 'evidence for %s is in %s; run: clusterlint accept QUOTE.yaml --evidence %s\n' "$host" "$out" "$base"
