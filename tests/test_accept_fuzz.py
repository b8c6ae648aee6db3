"""clusterlint accept with generated evidence folders (issue 38): whatever the files hold, the
command ends with 0, 1 or 2 and no internal error, and it never accepts a node it could not read."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import ROOT, run_cli

TWO = ROOT / "tests" / "evidence" / "two-nodes"
REAL = ROOT / "tests" / "evidence" / "real" / "vm"
SEEDS = [p.read_text() for p in sorted(REAL.iterdir())] + [p.read_text() for p in sorted((TWO / "evidence" / "gpu-a").iterdir())]
ODD = ["NaN", "Infinity", "-1", "1e999", "9" * 5000, "²", "\x00", "\ufeff", "{", "]", '"', "x" * 300, "", "\n"]


@st.composite
def evidence_file(draw):
    text = draw(st.sampled_from(SEEDS))
    lines = text.splitlines()
    for _ in range(draw(st.integers(0, 3))):
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        words = lines[i].split()
        if words:
            j = draw(st.integers(0, len(words) - 1))
            words[j] = draw(st.sampled_from(ODD) | st.text(max_size=8))
            lines[i] = " ".join(words)
    cut = draw(st.integers(0, len(lines)))
    return "\n".join(lines[:cut] if draw(st.booleans()) else lines)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files=st.lists(st.tuples(st.sampled_from(["gpu-a", "gpu-b", "gpu-a/deeper"]), evidence_file()), max_size=4))
def test_accept_never_crashes_and_never_accepts_what_it_could_not_read(files):
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for k, (node, text) in enumerate(files):
            (root / node).mkdir(parents=True, exist_ok=True)
            (root / node / f"f{k}.txt").write_text(text, encoding="utf-8", errors="surrogatepass")
        code, out, err = run_cli("accept", str(TWO / "quote.yaml"), "-e", str(root), "--format", "json")
        assert code in (0, 1, 2) and "internal error" not in err, err
        if code == 2:
            return
        report = json.loads(out)
        read = {f["evidence"][0].split(":")[0] for f in report["findings"] if f["rule"] == "DLV009"}
        if code == 0:  # accepted: both quoted nodes were read, with nothing unreadable
            assert not read and "accepted: no blocking finding" in err
