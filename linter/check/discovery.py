"""The files a check reads: the command line's paths, and directories walked for clusterlint YAML
less what the configuration excludes."""

from __future__ import annotations

import os
import re

from clusterlint.readers.file_kinds import YAML_SUFFIXES, is_prose
from clusterlint.readers.loader import read_file

# apiVersion: clusterlint/..., as YAML or JSON writes it: at a line's start (after a BOM), a `{` or a `,`;
# quoted or not; `apiVersion :`
_CLUSTERLINT_DOC = re.compile(rb"""(?:^(?:\xef\xbb\xbf)?|[{,])[ \t]*(["']?)apiVersion\1[ \t]*:[ \t]*["']?clusterlint/""", re.MULTILINE)


class UsageError(Exception):
    """The tool cannot do its job (missing file, nothing to lint): exit 2."""


def discover(paths, resolver=None, buffers=()) -> list[str]:
    """Expand the command line's paths: files as given (or an editor's buffer), directories into their
    clusterlint YAML, less hidden folders and what the configuration's `exclude` and `extend-exclude` name."""
    files: list[str] = []
    for path in paths:
        if path == "-" or path in buffers:
            files.append(path)
        elif os.path.isdir(path):
            found = []
            excluder = _Excluder(path, resolver)
            for root, dirs, names in os.walk(path):
                skip = excluder.within(root)
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not skip(d, True))
                for name in sorted(names):
                    full = os.path.join(root, name)
                    if name.endswith(YAML_SUFFIXES) and not skip(name, False) and _is_clusterlint(full):
                        found.append(full)
            if not found:
                raise UsageError(f"{path}: no clusterlint documents found (YAML files with apiVersion: clusterlint/v1)")
            files.extend(found)
        elif os.path.exists(path):
            if not path.endswith(YAML_SUFFIXES) and not is_prose(path):
                raise UsageError(f"{path}: not a spec (.yaml, .yml) or a contract (.txt, .md, .pdf)")
            files.append(path)
        else:
            raise UsageError(f"{path}: no such file or directory")
    return files


class _Excluder:
    """A test for the paths under `folder` that its configuration excludes (gitignore-style: a
    pattern without a slash matches a name at any depth, one with a slash matches from the
    configuration's folder, a trailing slash matches folders only, ** crosses folders). Each
    pattern is read once, and each folder's place once for all the names in it."""

    def __init__(self, folder: str, resolver):
        from clusterlint.config.globs import glob_pattern
        from clusterlint.config.settings import DEFAULTS

        settings = resolver.for_path(folder) if resolver else None
        values = settings.values if settings else DEFAULTS
        self.top, self.base = folder, settings.base if settings else os.getcwd()
        # (regex, matches folders only, anchored: as in .gitignore, a slash before the end anchors at the base)
        self.patterns = [(glob_pattern(p.strip("/")), p.endswith("/"), "/" in p.rstrip("/"))
                         for p in list(values["exclude"]) + list(values["extend-exclude"]) if p.strip("/")]

    def within(self, root: str):
        """The test for the names in folder `root`: skip(name, is_dir)."""
        from_base = os.path.relpath(os.path.abspath(root), self.base)
        from_top = os.path.relpath(root, self.top)

        def skip(name: str, is_dir: bool) -> bool:
            relative = name if from_base == "." else f"{from_base}{os.sep}{name}"
            if relative.startswith(".."):
                relative = name if from_top == "." else f"{from_top}{os.sep}{name}"
            relative = relative.replace(os.sep, "/")
            for pattern, folders_only, anchored in self.patterns:
                if folders_only and not is_dir:
                    continue
                if pattern.match(relative if anchored else name):
                    return True
            return False

        return skip


def _is_clusterlint(path: str) -> bool:
    try:
        head = read_file(path, 65535)
    except OSError:
        return False
    return bool(_CLUSTERLINT_DOC.search(head))
