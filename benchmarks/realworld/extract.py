"""Write the real-code corpus's pinned commits out of local git mirrors. Fetches nothing itself.

    python benchmarks/realworld/extract.py --mirrors DIR [--out DIR] [--only NAME ...]

``--mirrors`` holds one bare git directory per repository, found as ``DIR/<owner>+<name>/repo``
(with or without ``.git`` under it), ``DIR/<owner>+<name>`` or ``DIR/<name>``. Each repository of
``repos.toml`` is written to ``OUT/<name>/`` at its pinned commit: only ``.py`` and ``.ipynb`` files,
only under its ``include`` folders, and only blobs the mirror actually holds (mirrors may leave out
large files; those are listed, not fatal). The default ``--out`` is ``/tmp/tfadvisor-realworld``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = "/tmp/tfadvisor-realworld"
SUFFIXES = (".py", ".ipynb")


def load_repos() -> list[dict]:
    with open(os.path.join(HERE, "repos.toml"), "rb") as handle:
        return tomllib.load(handle)["repo"]


def find_mirror(mirrors: str, github: str) -> str | None:
    owner, name = github.split("/")
    for candidate in (f"{owner}+{name}/repo/.git", f"{owner}+{name}/repo", f"{owner}+{name}", name,
                      f"{name}.git"):
        path = os.path.join(mirrors, candidate)
        if os.path.isfile(os.path.join(path, "HEAD")):
            return path
    return None


def git(git_dir: str, *args: str, data: bool = False) -> bytes:
    return subprocess.run(["git", f"--git-dir={git_dir}", *args], check=True, capture_output=True).stdout


def extract(repo: dict, git_dir: str, out: str, suffixes: tuple[str, ...] = SUFFIXES) -> tuple[int, list[str]]:
    """Write the repo's files ending in ``suffixes``; (files written, paths the mirror does not hold)."""
    listing = git(git_dir, "ls-tree", "-r", "-z", repo["commit"]).split(b"\0")
    include = tuple(p.rstrip("/") + "/" for p in repo.get("include", []))
    wanted: list[tuple[str, str]] = []
    for entry in listing:
        if not entry:
            continue
        meta, path_bytes = entry.split(b"\t", 1)
        mode, kind, sha = meta.decode().split()
        path = path_bytes.decode("utf-8", "surrogateescape")
        if kind != "blob" or mode == "120000" or not path.endswith(suffixes):
            continue
        if include and not path.startswith(include):
            continue
        wanted.append((sha, path))
    # One cat-file process for every blob: tens of thousands of files in seconds.
    proc = subprocess.Popen(["git", f"--git-dir={git_dir}", "cat-file", "--batch"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    missing: list[str] = []
    written = 0
    root = os.path.join(out, repo["name"])
    for sha, path in wanted:
        proc.stdin.write(sha.encode() + b"\n")
        proc.stdin.flush()
        header = proc.stdout.readline().split()
        if len(header) < 3 or header[1] != b"blob":
            missing.append(path)
            continue
        body = proc.stdout.read(int(header[2]))
        proc.stdout.read(1)  # the newline after each object
        target = os.path.join(root, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as handle:
            handle.write(body)
        written += 1
    proc.stdin.close()
    proc.wait()
    return written, missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirrors", required=True, help="folder of bare git mirrors")
    parser.add_argument("--out", default=DEFAULT_OUT)
    parser.add_argument("--only", nargs="*", default=None, help="names from repos.toml")
    args = parser.parse_args(argv)
    status = 0
    for repo in load_repos():
        if args.only and repo["name"] not in args.only:
            continue
        git_dir = find_mirror(args.mirrors, repo["github"])
        if git_dir is None:
            print(f"{repo['name']}: no mirror of {repo['github']} under {args.mirrors}", file=sys.stderr)
            status = 1
            continue
        try:
            written, missing = extract(repo, git_dir, args.out)
        except subprocess.CalledProcessError as exc:
            print(f"{repo['name']}: git failed ({exc.stderr.decode(errors='replace').strip()}); "
                  f"is commit {repo['commit'][:12]} in the mirror?", file=sys.stderr)
            status = 1
            continue
        note = f", {len(missing)} not in the mirror ({', '.join(missing[:3])}...)" if missing else ""
        print(f"{repo['name']}: {written} files at {repo['commit'][:12]}{note}")
    return status


if __name__ == "__main__":
    sys.exit(main())
