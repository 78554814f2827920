"""Renamed copies of earlier splits' repositories: for each repository of a split, the other
extracted repository sharing the most file paths (common names like train.py left out). Run it
before a split's snapshot; heldout24 ran it after, and left two repositories out (PROTOCOL.md).

    python overlap.py PREFIX [CORPUS]      # PREFIX: the split's name prefix, e.g. h24-
"""
import collections
import os
import sys

COMMON = {"__init__.py", "setup.py", "conftest.py", "utils.py", "train.py", "main.py", "config.py", "model.py", "test.py"}


def paths(root: str):
    for d, _, files in os.walk(root):
        for f in files:
            rel = os.path.relpath(os.path.join(d, f), root)
            if os.path.basename(rel) not in COMMON:
                yield rel


def main() -> None:
    prefix = sys.argv[1]
    corpus = sys.argv[2] if len(sys.argv) > 2 else "/tmp/tfadvisor-realworld"
    names = os.listdir(corpus)
    index = collections.defaultdict(set)
    for other in (n for n in names if not n.startswith(prefix)):
        for rel in paths(os.path.join(corpus, other)):
            index[rel].add(other)
    for repo in sorted(n for n in names if n.startswith(prefix)):
        hits, total = collections.Counter(), 0
        for rel in paths(os.path.join(corpus, repo)):
            total += 1
            hits.update(index.get(rel, ()))
        if hits:
            other, shared = hits.most_common(1)[0]
            if shared >= 5 or shared / total > 0.3:
                print(f"{repo}\t{total} files\t{other}\t{shared} shared paths")


if __name__ == "__main__":
    main()
