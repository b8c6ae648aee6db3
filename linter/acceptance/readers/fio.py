"""`fio --output-format=json`: each job's read and write bandwidth (bw_bytes, or bw in KiB/s before fio 3)."""

from __future__ import annotations

from clusterlint.acceptance.base import KIB, Fact, Reader, json_keys, json_lines, lines_of, listing, load_json, mapping, number, take_line

MAX_BYTES_PER_S = 1e15


def parse(evidence, host: str, file: str, text: str) -> None:
    data, offset = load_json(text)
    lines = lines_of(text)
    names = json_lines(lines, "jobname")
    for job in listing(data.get("jobs"), offset + 1, "jobs"):
        job = mapping(job, offset + 1, "a fio job")
        line = take_line(names, job.get("jobname"))
        for rw in ("read", "write"):
            part = mapping(job.get(rw) or {}, line, f"the {rw} part of a fio job")
            if part.get("bw_bytes") is not None:
                bw = number(part["bw_bytes"], line, f"{rw} bw_bytes", 0, MAX_BYTES_PER_S)
            elif part.get("bw") is not None:
                bw = number(part["bw"], line, f"{rw} bw", 0, MAX_BYTES_PER_S / KIB) * KIB  # older fio: KiB/s only
            else:
                continue
            if bw:
                evidence.node(host).fio.append(Fact({"rw": rw, "bytes_per_s": bw, "job": job.get("jobname")}, file, line, lines[line - 1] if line <= len(lines) else ""))


def _detect(head, text):
    keys = json_keys(head)
    return "fio version" in keys or ("jobs" in keys and "jobname" in keys)


READER = Reader("fio-json", _detect, parse, ("storage read and write bandwidth",))
