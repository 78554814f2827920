"""Check's JSON report for each repository of a split, from a frozen copy of the tool.

    git archive FREEZE src | tar -x -C /tmp/freezeNN --strip-components=1
    python benchmarks/realworld/reports.py --src /tmp/freezeNN --out DIR NAME ...   # or --names FILE

Each repository under ``--corpus`` (extract.py's output) is checked from its own folder, so the
ids (``path::qualname``) are relative to its root as blind.py and draw.py read them; two at a
time, one worker each; a report already in ``--out`` is kept. ``PYTHONPATH`` puts the frozen
``src`` ahead of the installed tool.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

DEFAULT_CORPUS = "/tmp/tfadvisor-realworld"


def report(name: str, src: str, out: str, corpus: str) -> tuple[str, int, str]:
    dest = os.path.join(out, name + ".json")
    if os.path.exists(dest):
        return name, 0, ""
    done = subprocess.run(
        [sys.executable, "-m", "tfadvisor", "check", ".", "-f", "json", "-q", "-j", "1", "--fail-on", "never", "-o", dest],
        cwd=os.path.join(corpus, name), env=dict(os.environ, PYTHONPATH=os.path.abspath(src)),
        capture_output=True, text=True, timeout=1800)
    return name, done.returncode, done.stderr[-300:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", required=True, help="the frozen tool's src folder (git archive FREEZE src)")
    parser.add_argument("--out", required=True)
    parser.add_argument("--corpus", default=DEFAULT_CORPUS)
    parser.add_argument("--names", help="file of repository names, one per line")
    parser.add_argument("name", nargs="*")
    args = parser.parse_args()
    names = list(args.name) + ([n.strip() for n in open(args.names) if n.strip()] if args.names else [])
    os.makedirs(args.out, exist_ok=True)
    with ThreadPoolExecutor(2) as pool:
        for name, code, err in pool.map(lambda n: report(n, args.src, args.out, args.corpus), names):
            if code:
                print(f"{name}: exit {code}: {err}", file=sys.stderr)
    print("reports:", len(names))


if __name__ == "__main__":
    main()
