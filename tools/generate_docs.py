"""Write the docs site's rule pages from the rule data: docs/rules/<ID>.md and docs/rules/index.md.

    python tools/generate_docs.py          # rewrite them
    python tools/generate_docs.py --check  # exit 1, naming the stale pages, when they differ

The text is `clusterlint rule ID`'s (clusterlint.reporters.docs.rule_text); tests/test_docs.py
fails while a page is stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"

INTRO = """\
Every built-in rule, generated from the rule files in `rules/` by `python tools/generate_docs.py`
(do not edit these pages by hand). `clusterlint rule ID` prints the same text, and
`clusterlint rules` lists your own and your plugins' rules beside these.

A finding costs the rule's weight times 1 for an error, 0.5 for a warning and 0 for information; a
file's score is 100 minus its points, floored at 0, graded A (>= 90) to F (< 60), with the same per
area. Rules whose documents were not given, or whose figures the spec leaves out, are skipped, never
counted as passed.
"""


def rule_page(rule) -> str:
    from clusterlint.reporters.docs import rule_text

    return rule_text(rule).replace("\nNeeds: ", "\n\nNeeds: ", 1)  # its own paragraph


def index_page(rules) -> str:
    rows = [f"| [{r.id}]({r.id}.md) | {r.name} | {r.severity} | {r.area} | {r.summary} |" for r in rules.values()]
    return "\n".join(["# Rules", "", INTRO, "| id | name | severity | area | summary |", "|---|---|---|---|---|", *rows]) + "\n"


def pages() -> dict[Path, str]:
    from clusterlint.engine.registry import builtin_rules

    rules = builtin_rules()
    out = {RULES / f"{rule_id}.md": rule_page(rule) for rule_id, rule in rules.items()}
    out[RULES / "index.md"] = index_page(rules)
    return out


def stale() -> list[str]:
    """The pages that differ from what the rule data makes, and those no rule makes any more."""
    wanted = pages()
    found = {p for p in RULES.glob("*.md")} if RULES.is_dir() else set()
    differ = [p for p, text in wanted.items() if not p.is_file() or p.read_text(encoding="utf-8") != text]
    return sorted(str(p.relative_to(ROOT)) for p in [*differ, *(found - set(wanted))])


def main(argv: list[str]) -> int:
    if argv == ["--check"]:
        names = stale()
        for name in names:
            print(f"{name} is stale: run python tools/generate_docs.py", file=sys.stderr)
        return 1 if names else 0
    RULES.mkdir(parents=True, exist_ok=True)
    wanted = pages()
    for old in set(RULES.glob("*.md")) - set(wanted):
        old.unlink()
    for path, text in wanted.items():
        path.write_text(text, encoding="utf-8")
    print(f"wrote {len(wanted)} pages in {RULES.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
