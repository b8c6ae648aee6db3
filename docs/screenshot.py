"""Render the example comparison's HTML report to docs/compare.png with headless Chromium.

    python docs/screenshot.py

Needs Debian's chromium package (apt-get install chromium). Not a test: it makes the README's image.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUOTES = ["specs/aws-p5-48xlarge.yaml", "specs/gcp-a3-highgpu-8g.yaml", "specs/forge-h100-quote.yaml"]


def main() -> int:
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if browser is None:
        print("no chromium found: apt-get install chromium", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "compare.html"
        subprocess.run([sys.executable, "-m", "clusterlint", "compare", *QUOTES, "--workload", "specs/llama70b-pretrain.yaml",
                        "--format", "html", "--output", str(report)], cwd=ROOT, check=True)
        target = ROOT / "docs" / "compare.png"
        subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1280,1500",
                        f"--screenshot={target}", report.as_uri()], check=True, capture_output=True, timeout=120)
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
