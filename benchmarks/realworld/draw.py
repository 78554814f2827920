"""Draw a blind split of public repositories, one step per subcommand, in the order a protocol runs them.

    python draw.py order --lists DIR --group a,b --group c --seed S --out ORDER     # names to walk
    python draw.py chunks WALK --into DIR               # the fetch helpers' chunks and prompts (blind/FETCH.txt)
    python draw.py walked WALK LOGS... --out WALKED     # the walk: names before the fetch limit's first refusal
    python draw.py elig --walk WALK > elig.tsv          # fetched? tensorflow import and tf.function/GradientTape text?
    python draw.py overlap PREFIX                       # renamed copies of earlier splits' repositories
    python draw.py excl PREFIX --elig elig.tsv --out EXCLUDED.txt     # empty files and copies
    python draw.py judged PREFIX > judged.tsv           # copies of earlier judged code, from the records kept here
    python draw.py add SPLIT PREFIX --elig elig.tsv >> repos.toml
    python draw.py assign PREFIX --elig elig.tsv --reports DIR --excluded EXCLUDED.txt --out judges.json
    python draw.py sample --judges judges.json --reports DIR --excluded EXCLUDED.txt --seed S --out DIR --private FILE
    python draw.py folders heldoutNN --judges judges.json --round-b DIR --excluded EXCLUDED.txt --prompts DIR
    python draw.py second blind/heldoutNN --reports DIR ... --seed S --judge rNNa --judge rNNb --into DIR   # after the figures

Every step is mechanical: it reads names, file contents' hashes, eligibility text searches and the
frozen tool's reports, never a judge's or a person's reading of the code, and every random choice
is seeded, so a protocol (blind/heldoutN/PROTOCOL.md) fixes the whole draw before any fetch. It
replaces the per-split copies of these steps that heldout19-25 kept (blind/heldout25/*.py).
"""

from __future__ import annotations

import argparse
import collections
import glob
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
from collections.abc import Iterator

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = "/tmp/tfadvisor-realworld"
MIRRORS = "/work/.mirror"
CHANGE = ("decorate", "undecorate", "fix-first", "reconfigure")
KEPT = ("tensorflow/docs", "tensorflow/examples", "tensorflow/agents", "google/uncertainty-baselines",
        "google/edward2", "google/automl", "keiohta/tf2rl", "lynnho/cyclegan-tensorflow-2",
        "google-research/simclr", "tensorflow/graphics", "pythonlessons/tensorflow-2.x-yolov3",
        "tensorflow/probability", "tensorflow/quantum")
# file names too common to say one repository copies another
COMMON = {"__init__.py", "setup.py", "conftest.py", "utils.py", "train.py", "main.py", "config.py", "model.py", "test.py"}
TF_IMPORT = re.compile(rb"^\s*(import tensorflow|from tensorflow)", re.M)
TF_IMPORT_NB = re.compile(rb"(import tensorflow|from tensorflow)")
# a file headed by TensorFlow's copyright line is TensorFlow's code (vendored sources, tutorial copies),
# which heldout26's judges found by hand; from heldout27 on it is left out mechanically
TF_AUTHORS = b"The TensorFlow Authors"
# tensorflow.org's notebooks carry a licence cell (``#@title Licensed under the Apache License``) that
# copies keep; heldout41-43 left them out by a search of each file's head, which missed cells after
# 70,000 characters of notebook metadata (heldout43's judges found 10). From heldout44 on, anywhere.
TUTORIAL_MARKERS = (b"#@title Licensed under the Apache", b"This notebook source copied from https://www.tensorflow.org")
# from heldout28 on, listings found by short genre words ("gan-tf", "rl-tf") also name projects of
# other technologies whose names share the letters; removed by name before the walk to spare the fetch
# from heldout44 on, also Terraform (cdktf), glTF, capture-the-flag and exchange-traded-fund projects, which
# short spellings such as ``tf-examples`` and ``tf-training`` list by the hundred
OTHER_TECHNOLOGY = re.compile(r"tfjs|tflite|tf-?idf|gang-?sheet|gang-bot|tf-gang\b|tftp|gandhi-sans"
                              r"|terraform|cdktf|gltf|(?<![a-z])ctf|(?<![a-z])etf(?![a-z])")


def corpus_name(prefix: str, github: str) -> str:
    """The name extract.py gives a repository: h26-owner-name."""
    return prefix + re.sub(r"[^a-z0-9]+", "-", github.lower()).strip("-")


def used_names(extra: list[str], split_dir: str | None = None) -> set[str]:
    """Every repository an earlier split holds or an earlier listing named (walked or not); the
    listings of the split being ordered (``split_dir``) are not earlier ones."""
    used = {m.group(1).lower() for m in re.finditer(r'github\s*=\s*"([^"]+)"', open(os.path.join(HERE, "repos.toml")).read())}
    own = os.path.abspath(split_dir) if split_dir else None
    earlier = [p for p in glob.glob(os.path.join(HERE, "blind", "*", "listing*.txt"))
               if own is None or os.path.dirname(os.path.abspath(p)) != own]
    for path in earlier + extra:
        for line in open(path):
            word = line.strip().split("\t")[0].split()[0] if line.strip() else ""
            if "/" in word and not word.startswith("#"):
                used.add(word.lower())
    return used


def kept_like(name: str) -> str | None:
    """Why a name is removed before the walk: kept for the independent evaluation, TensorFlow's own
    sources, or (from heldout28 on) a project of another technology whose name shares the letters."""
    owner, repo = name.split("/", 1)
    kept_repos = {k.split("/")[1] for k in KEPT}
    if name in KEPT or owner == "lynnho" or repo in kept_repos or repo.removeprefix("tensorflow-") in {
            "docs", "examples", "agents", "probability", "quantum", "graphics"}:
        return "kept-like"
    # a fork renamed with a suffix (heldout35: ``tensorflow-2.x-yolov3-visual-calculator``); only
    # for long kept names, which no other project starts with by chance
    if any(repo.startswith(k + "-") for k in kept_repos if len(k) > 12):
        return "kept-like"
    if "tensorflow_tensorflow" in name or name.endswith("/tensorflow-upstream"):
        return "tensorflow-mirror"
    if OTHER_TECHNOLOGY.search(repo):
        return "other-technology"
    return None


def cmd_order(args: argparse.Namespace) -> None:
    used = used_names(args.used, os.path.dirname(args.out))
    names: dict[str, str] = {}
    group: dict[str, int] = {}
    removed: list[tuple[str, str]] = []
    listed = 0
    groups = [g.split(",") for g in args.group]
    for index, listings in enumerate(groups):
        for listing in listings:
            for line in open(os.path.join(args.lists, listing + ".txt")):
                name = line.strip()
                if not name or name.startswith("#"):  # a listing's ``# find_repos("...")`` lines
                    continue
                listed += 1
                key = name.lower()
                why = "walked" if key in used else kept_like(key)
                if why:
                    removed.append((name, why))
                    continue
                names.setdefault(key, name)
                group.setdefault(key, index)
    order: list[str] = []
    for index in range(len(groups)):
        part = sorted((n for k, n in names.items() if group[k] == index), key=str.lower)
        random.Random(args.seed + index).shuffle(part)
        order += part
        print("group", index, len(part))
    with open(args.out, "w") as out:
        out.write("".join(n + "\n" for n in order))
    print("listed", listed, "distinct kept", len(order), dict(collections.Counter(why for _, why in removed)))
    for name, why in removed:
        if why != "walked":
            print(name, why)


def cmd_chunks(args: argparse.Namespace) -> None:
    """``walk.txt`` cut for the fetch helpers: name i to chunk i mod N, each chunk in walk order,
    with each helper's prompt (``blind/FETCH.txt``, its chunk and log filled in)."""
    names = [line.strip() for line in open(args.walk) if line.strip()]
    template = open(os.path.join(HERE, "blind", "FETCH.txt")).read()
    os.makedirs(args.into, exist_ok=True)
    for k in range(args.helpers):
        chunk = names[k::args.helpers]
        chunk_path = os.path.join(os.path.abspath(args.into), f"chunk{k}")
        with open(chunk_path, "w") as out:
            out.write("".join(name + "\n" for name in chunk))
        prompt = (template.replace("CHUNK", chunk_path).replace("COUNT", str(len(chunk)))
                  .replace("LOG", os.path.join(os.path.abspath(args.into), f"fetch{k}.log")))
        with open(os.path.join(args.into, f"prompt{k}.txt"), "w") as out:
            out.write(prompt)
    print(f"{len(names)} names in {args.helpers} chunks; prompts {args.into}/prompt0.txt ...")


def cmd_walked(args: argparse.Namespace) -> None:
    """The walk as a protocol defines it: every name of ``walk.txt`` before the first one the fetch
    tool's session limit refused, from the fetch helpers' logs (one ``name<TAB>OK|FAIL|LIMIT<TAB>why``
    line per name tried, each chunk in walk order). A name before that point that no log has means
    a helper stopped early: the walk is not complete, and the step says so and fails."""
    names = [line.strip() for line in open(args.walk) if line.strip()]
    status: dict[str, str] = {}
    for path in args.logs:
        for line in open(path):
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 2:
                status[parts[0].strip()] = parts[1].strip()
    end = next((i for i, name in enumerate(names) if status.get(name) == "LIMIT"), len(names))
    walked = names[:end]
    untried = [name for name in walked if name not in status]
    print(f"first refusal by the limit at walk line {end + 1 if end < len(names) else None}; walked {len(walked)}: "
          f"{sum(status.get(n) == 'OK' for n in walked)} fetched, {sum(status.get(n) == 'FAIL' for n in walked)} not; "
          f"{sum(status.get(n) == 'OK' for n in names[end:])} later names fetched (not walked)")
    if untried:
        raise SystemExit(f"{len(untried)} name(s) before the limit were never tried, first {untried[0]}: finish the fetch")
    with open(args.out, "w") as out:
        out.write("".join(name + "\n" for name in walked))


def _git(gitdir: str, *argv: str) -> bytes:
    return subprocess.run(["git", f"--git-dir={gitdir}", *argv], capture_output=True).stdout


def cmd_elig(args: argparse.Namespace) -> None:
    for repo in (line.strip() for line in open(args.walk) if line.strip()):
        gitdir = os.path.join(args.mirrors, repo.replace("/", "+"), "repo")
        gitdir = gitdir + "/.git" if os.path.isdir(gitdir + "/.git") else gitdir
        if not os.path.isdir(gitdir):
            print(f"{repo}\tnot-fetched", flush=True)
            continue
        commit = _git(gitdir, "rev-parse", "HEAD").decode().strip()
        listing = _git(gitdir, "ls-tree", "-r", "--name-only", "-z", commit).decode(errors="replace").split("\0")
        files = [p for p in listing if p.endswith((".py", ".ipynb"))]
        tf = traced = 0
        for path in files:
            blob = _git(gitdir, "show", f"{commit}:{path}")
            tf += bool((TF_IMPORT_NB if path.endswith(".ipynb") else TF_IMPORT).search(blob))
            traced += b"GradientTape" in blob or b"tf.function" in blob
        status = "eligible" if tf and traced else "ineligible"
        print(f"{repo}\t{status}\t{commit}\t{len(files)}\ttf files {tf}, tf.function-or-GradientTape files {traced}", flush=True)


def eligible(elig: str, prefix: str) -> list[tuple[str, str, str]]:
    """(corpus name, github name, commit) of the eligible repositories, in walking order."""
    rows = [line.rstrip("\n").split("\t") for line in open(elig)]
    return [(corpus_name(prefix, r[0]), r[0], r[2]) for r in rows if len(r) > 2 and r[1] == "eligible"]


def _files(root: str) -> Iterator[tuple[str, bytes]]:
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                yield os.path.relpath(path, root), f.read()


def cmd_overlap(args: argparse.Namespace) -> None:
    names = os.listdir(args.corpus)
    index = collections.defaultdict(set)
    for other in (n for n in names if not n.startswith(args.prefix)):
        for rel, _ in _files(os.path.join(args.corpus, other)):
            if os.path.basename(rel) not in COMMON:
                index[rel].add(other)
    for repo in sorted(n for n in names if n.startswith(args.prefix)):
        hits, total = collections.Counter(), 0
        for rel, _ in _files(os.path.join(args.corpus, repo)):
            if os.path.basename(rel) not in COMMON:
                total += 1
                hits.update(index.get(rel, ()))
        if hits:
            other, shared = hits.most_common(1)[0]
            if shared >= 5 or shared / total > 0.3:
                print(f"{repo}\t{total} files\t{other}\t{shared} shared paths")


def cmd_excl(args: argparse.Namespace) -> None:
    order = [name for name, _, _ in eligible(args.elig, args.prefix)]
    earlier: dict[str, str] = {}
    for repo in os.listdir(args.corpus):
        if not repo.startswith(args.prefix):
            for _, data in _files(os.path.join(args.corpus, repo)):
                if data.strip():
                    earlier.setdefault(hashlib.sha1(data).hexdigest(), repo)
    seen: dict[str, str] = {}
    out: list[str] = []
    whole = dict(w.split("=", 1) for w in args.whole)
    for repo in order:
        root = os.path.join(args.corpus, repo)
        if not os.path.isdir(root):
            continue
        entries = sorted(_files(root))
        if repo in whole:  # a renamed copy of an earlier split's repository (overlap), or kept-like
            out += [f"{repo}:{rel}\t{whole[repo]}" for rel, _ in entries]
            continue
        # a copy of TensorFlow's own source tree is TensorFlow's code, not the repository's
        tree = next((rel[: -len("python/framework/ops.py")] for rel, _ in entries
                     if rel.endswith("tensorflow/python/framework/ops.py")), None)
        for rel, data in entries:
            digest = hashlib.sha1(data).hexdigest()
            if tree is not None and rel.startswith(tree):
                out.append(f"{repo}:{rel}\tcopy of TensorFlow sources")
            elif not data.strip():
                out.append(f"{repo}:{rel}\tempty")
            elif TF_AUTHORS in data[:3000]:
                out.append(f"{repo}:{rel}\theaded The TensorFlow Authors (TensorFlow's own code or tutorials)")
            elif any(marker in data for marker in TUTORIAL_MARKERS):
                out.append(f"{repo}:{rel}\ta tensorflow.org tutorial or guide (its licence cell or source line says so)")
            elif digest in seen:
                out.append(f"{repo}:{rel}\tsame as {seen[digest]}")
            elif digest in earlier:
                out.append(f"{repo}:{rel}\tsame as a file of {earlier[digest]} (earlier split)")
            else:
                seen[digest] = repo
    with open(args.out, "w") as f:
        f.write(f"# {args.prefix} files left out as copies (draw.py excl)\n" + "".join(line + "\n" for line in out))
    print(len(out), "excluded;", sum("earlier split" in line for line in out), "copies of earlier splits")


def _judged_files(prefix: str) -> dict[str, dict[tuple[str, str], set[str]]]:
    """File name -> (earlier repository, path) -> the lines its judged records quote. The records
    kept in this repository are what is left of earlier splits on a machine that no longer holds
    their files (heldout31's protocol)."""
    out: dict[str, dict[tuple[str, str], set[str]]] = collections.defaultdict(lambda: collections.defaultdict(set))
    for path in glob.glob(os.path.join(HERE, "blind", "*", "h*-*.jsonl")):
        for line in open(path):
            try:
                record = json.loads(line)
            except ValueError:
                continue
            key, quote = record.get("key", ""), (record.get("quote") or "").strip()
            repo, _, rest = key.partition(":")
            if not quote or not rest or repo.startswith(prefix):
                continue
            file = rest.split("::", 1)[0] if "::" in rest else rest.rsplit(":", 2)[0]
            out[os.path.basename(file)][(repo, file)].add(quote)
    return out


def cmd_judged(args: argparse.Namespace) -> None:
    """Files of the split holding an earlier judged file's quoted lines (two, or its only one when
    the name is not a common one), and repositories with at least 5 such files or more than 30%."""
    index = _judged_files(args.prefix)
    for repo in sorted(n for n in os.listdir(args.corpus) if n.startswith(args.prefix)):
        copies, total = [], 0
        for rel, data in _files(os.path.join(args.corpus, repo)):
            total += 1
            candidates = index.get(os.path.basename(rel))
            if not candidates:
                continue
            lines = {line.strip() for line in data.decode(errors="replace").replace("\\n", "\n").splitlines()}
            lines |= {line.strip().strip('",') for line in lines}  # notebook sources are JSON strings
            for (other, path), quotes in sorted(candidates.items()):
                shared = quotes & lines
                if len(shared) >= 2 or (len(quotes) == 1 and shared and os.path.basename(rel) not in COMMON):
                    copies.append((rel, other, path))
                    break
        for rel, other, path in copies:
            print(f"{repo}:{rel}\tsame code as judged {other}:{path} (earlier split)")
        if copies and (len(copies) >= 5 or len(copies) / total > 0.3):
            print(f"# whole\t{repo}\t{len(copies)} of its {total} files\t{collections.Counter(o for _, o, _ in copies).most_common(1)[0][0]}")


def cmd_add(args: argparse.Namespace) -> None:
    have = open(os.path.join(HERE, "repos.toml")).read()
    for name, github, commit in eligible(args.elig, args.prefix):
        if f'"{name}"' not in have:
            print(f'\n[[repo]]\nname = "{name}"\ngithub = "{github}"\ncommit = "{commit}"\nkind = "application"\nsplit = "{args.split}"')


def excluded(path: str) -> tuple[str, ...]:
    """Prefixes (repo:path:) of the files a split leaves out."""
    return tuple(line.split("\t")[0] + ":" for line in open(path) if line.strip() and not line.startswith("#"))


def report(reports: str, repo: str) -> dict:
    with open(os.path.join(reports, repo + ".json")) as f:
        return json.load(f)


def cmd_assign(args: argparse.Namespace) -> None:
    """Balance repositories over judges by function count, largest first to the least-loaded judge."""
    skip = excluded(args.excluded)
    sizes = {}
    for name, _, _ in eligible(args.elig, args.prefix):
        if os.path.exists(os.path.join(args.reports, name + ".json")):
            functions = report(args.reports, name)["functions"]
            sizes[name] = sum(1 for fn in functions if not f"{name}:{fn['id']}".startswith(skip))
    judges = {f"{args.prefix.rstrip('-')}{chr(ord('a') + i)}": [] for i in range(args.judges)}
    load = dict.fromkeys(judges, 0)
    for repo in sorted(sizes, key=lambda r: (-sizes[r], r)):
        judge = min(load, key=lambda j: (load[j], j))
        judges[judge].append(repo)
        load[judge] += sizes[repo]
    with open(args.out, "w") as f:
        json.dump(judges, f, indent=1)
    print("repos", len(sizes), "functions", sum(sizes.values()), "with functions", sum(1 for v in sizes.values() if v))
    print({j: (len(judges[j]), load[j]) for j in judges})


def _claims(data: dict, repo: str, skip: tuple[str, ...]) -> list[dict]:
    seen, claims = set(), []
    for f in data["findings"]:
        if f.get("suppressed") or f["severity"] == "info" or f"{repo}:{f['path']}:".startswith(skip):
            continue
        key = f"{repo}:{f['path']}:{f['line']}:{f['rule']}"
        if key not in seen:
            seen.add(key)
            claims.append({"key": key, "repo": repo, "path": f["path"], "line": f["line"], "rule": f["rule"],
                           "severity": f["severity"], "claim": f["message"], "function": f.get("function")})
    return sorted(claims, key=lambda c: c["key"])


def capped_draws(judges: dict[str, list[str]], folders: list[str], skip: tuple[str, ...], seed: int, cap: int
                 ) -> tuple[dict[str, tuple[list[str], list[dict], list[str]]], list[set[str]]]:
    """Each judge's drawn change-asking verdicts, claims and repositories with functions, and each
    version's own draw of change-asking verdicts (at most ``cap`` per repository)."""
    per = {}
    own: list[set[str]] = [set() for _ in folders]
    for judge, repos in sorted(judges.items()):
        rng = random.Random(f"{seed}-cap-{judge}")
        change: list[str] = []
        claims: list[dict] = []
        sized: list[str] = []
        for repo in sorted(repos):
            data = report(folders[0], repo)
            if any(not f"{repo}:{fn['id']}".startswith(skip) for fn in data["functions"]):
                sized.append(repo)  # round A reads only repositories with functions not left out
            for version, folder in enumerate(folders):
                # a later version of the tool: its own capped draw, judged with the first's (one
                # judgment per function serves both; rng of version 0 as with one folder)
                vrng = rng if version == 0 else random.Random(f"{seed}-cap{version}-{judge}-{repo}")
                data = report(folder, repo)
                asked = sorted(f"{repo}:{fn['id']}" for fn in data["functions"]
                               if fn["verdict"] in CHANGE and not f"{repo}:{fn['id']}".startswith(skip))
                drawn = asked if len(asked) <= cap else vrng.sample(asked, cap)
                own[version].update(drawn)
                change += [k for k in drawn if k not in change]
                found = [c for c in _claims(data, repo, skip) if c["key"] not in {x["key"] for x in claims}]
                claims += found if len(found) <= cap else vrng.sample(found, cap)
        per[judge] = (change, claims, sized)
    return per, own


def cmd_sample(args: argparse.Namespace) -> None:
    """Per repository at most --cap change-asking verdicts and claims; at most --total of a kind in all;
    round-A repositories (at most --recall-repos per judge) and --status-quo verdicts per judge from them."""
    judges = json.load(open(args.judges))
    skip = excluded(args.excluded)
    per = {}
    drawn, _ = capped_draws(judges, [args.reports, *args.also_reports], skip, args.seed, args.cap)
    for judge, (change, claims, sized) in drawn.items():
        recall_rng = random.Random(f"{args.seed}-recall-{judge}")
        recall = sorted(sized) if len(sized) <= args.recall_repos else sorted(recall_rng.sample(sorted(sized), args.recall_repos))
        per[judge] = (change, claims, recall)
    everyone = random.Random(args.seed)
    all_change = sorted(k for c, _, _ in per.values() for k in c)
    all_claims = sorted(c["key"] for _, cl, _ in per.values() for c in cl)
    keep_change = set(all_change if len(all_change) <= args.total else everyone.sample(all_change, args.total))
    keep_claims = set(all_claims if len(all_claims) <= args.total else everyone.sample(all_claims, args.total))
    print("split: capped change-asking", len(all_change), "claims", len(all_claims), "-> judged", len(keep_change), len(keep_claims))
    sample = {}
    for judge, (change, claims, recall) in sorted(per.items()):
        change = [k for k in change if k in keep_change]
        claims = [c for c in claims if c["key"] in keep_claims]
        quo_rng = random.Random(f"{args.seed}-quo-{judge}")
        quo = sorted(f"{repo}:{fn['id']}" for repo in recall for fn in report(args.reports, repo)["functions"]
                     if fn["verdict"] not in CHANGE and not f"{repo}:{fn['id']}".startswith(skip))
        quo_pick = quo_rng.sample(quo, min(len(quo), args.status_quo))
        items = change + quo_pick
        quo_rng.shuffle(items)
        folder = os.path.join(args.out, judge)
        os.makedirs(folder, exist_ok=True)
        for name, lines in (("functions.txt", items), ("claims.jsonl", [json.dumps(c) for c in claims]), ("recall_repos.txt", recall)):
            with open(os.path.join(folder, name), "w", errors="surrogateescape") as f:  # file names as on disk
                f.write("".join(line + "\n" for line in lines))
        sample[judge] = {"change": change, "sq": quo_pick, "claims": len(claims), "recall_repos": recall}
        print(judge, "functions", len(items), "(change", len(change), "+ quo", len(quo_pick), ") claims", len(claims), "recall repos", len(recall))
    os.makedirs(os.path.dirname(os.path.abspath(args.private)), exist_ok=True)
    with open(args.private, "w") as f:
        json.dump(sample, f)


def cmd_own(args: argparse.Namespace) -> None:
    """Change-asking precision on each version's own draw of at most --cap per repository. With
    several versions the judged union holds up to cap times the versions of one repository, and
    ``blind.py --cap`` drops only unjudged verdicts: this reads each version as if drawn alone."""
    split = args.split.rstrip("/")
    judges = json.load(open(os.path.join(split, "judges.json")))
    skip = excluded(os.path.join(split, "EXCLUDED.txt"))
    judged: dict[str, list[str]] = {}
    for path in sorted(glob.glob(os.path.join(split, "*-judgments.jsonl")) + glob.glob(os.path.join(split, "*-recall.jsonl"))):
        for line in open(path):
            record = json.loads(line)
            judged.setdefault(record["key"], record["acceptable"])
    _, own = capped_draws(judges, args.reports, skip, args.seed, args.cap)
    for folder, keys in zip(args.reports, own):
        verdict = {}
        for repo in {k.split(":", 1)[0] for k in keys}:
            verdict.update({f"{repo}:{fn['id']}": fn["verdict"] for fn in report(folder, repo)["functions"]})
        scored = [k for k in sorted(keys) if k in judged]
        right = sum(verdict[k] in judged[k] for k in scored)
        repos = len({k.split(":", 1)[0] for k in scored})
        print(f"{folder}: change-asking right on its own draw: {right}/{len(scored)} ({repos} repositories)")


def cmd_folders(args: argparse.Namespace) -> None:
    """The judges' side of a draw: each judge's folder (``repos.txt``, round A's ``recall_repos.txt``,
    ``scratch/``), the split's instructions beside them, the round-B copy script in /tmp, and each
    judge's prompt (``instructions/PROMPTNN.txt`` with the judge's name) for the lead to hand over."""
    split = os.path.join(HERE, "blind", args.split)
    number = args.split.removeprefix("heldout")
    judges = json.load(open(args.judges))
    os.makedirs(args.into, exist_ok=True)
    os.makedirs(args.prompts, exist_ok=True)
    shutil.copy(os.path.join(HERE, "blind", "INSTRUCTIONS.md"), args.into)
    for name in (f"BOTH{number}.md", f"RECALL{number}.md", f"VERDICTS{number}.md"):
        shutil.copy(os.path.join(split, "instructions", name), args.into)
    shutil.copy(args.excluded, os.path.join(args.into, f"EXCLUDED{number}.txt"))
    script = os.path.join(args.scripts, f"roundB{number}.sh")
    shutil.copy(os.path.join(split, "instructions", f"roundB{number}.sh"), script)
    os.chmod(script, 0o755)
    prompt = open(os.path.join(split, "instructions", f"PROMPT{number}.txt")).read()
    for judge, repos in sorted(judges.items()):
        folder = os.path.join(args.into, judge)
        os.makedirs(os.path.join(folder, "scratch"), exist_ok=True)
        with open(os.path.join(folder, "repos.txt"), "w") as out:
            out.write("".join(r + "\n" for r in repos))
        shutil.copy(os.path.join(args.round_b, judge, "recall_repos.txt"), folder)
        with open(os.path.join(args.prompts, f"judge-{judge}.txt"), "w") as out:
            out.write(prompt.replace("JUDGE", judge))
    print(f"{len(judges)} judges' folders in {args.into}; prompts in {args.prompts}; {script}")


def cmd_second(args: argparse.Namespace) -> None:
    """A second opinion's functions (after a split's figures are read): every round-B function whose
    verdict asks for a change at any version, and --status-quo of the others at random, split between
    the second judges by repository (balanced by count); each judge's ``functions.txt``, ``repos.txt``
    and ``scratch/`` under --into, its prompt from the split's ``second-opinion/PROMPT.txt``."""
    split = args.split.rstrip("/")
    keys: set[str] = set()
    for path in sorted(glob.glob(os.path.join(split, "*-judgments.jsonl"))):
        for line in open(path):
            if line.strip():
                keys.add(json.loads(line)["key"])
    asks: set[str] = set()
    for folder in args.reports:
        for repo in {k.split(":", 1)[0] for k in keys}:
            asks.update(f"{repo}:{fn['id']}" for fn in report(folder, repo)["functions"]
                        if fn["verdict"] in CHANGE and f"{repo}:{fn['id']}" in keys)
    quo = sorted(keys - asks)
    picked = sorted(asks) + sorted(random.Random(args.seed).sample(quo, min(len(quo), args.status_quo)))
    by_repo: dict[str, list[str]] = collections.defaultdict(list)
    for key in picked:
        by_repo[key.split(":", 1)[0]].append(key)
    share: dict[str, list[str]] = {judge: [] for judge in args.judge}
    for repo in sorted(by_repo, key=lambda r: (-len(by_repo[r]), r)):  # largest first, to the lightest judge
        judge = min(share, key=lambda j: (len(share[j]), args.judge.index(j)))
        share[judge] += by_repo[repo]
    prompt = open(os.path.join(split, "second-opinion", "PROMPT.txt")).read()
    for judge, items in share.items():
        folder = os.path.join(args.into, judge)
        os.makedirs(os.path.join(folder, "scratch"), exist_ok=True)
        random.Random(f"{args.seed}-{judge}").shuffle(items)
        repos = sorted({k.split(":", 1)[0] for k in items})
        for name, lines in (("functions.txt", items), ("repos.txt", repos)):
            with open(os.path.join(folder, name), "w", errors="surrogateescape") as f:
                f.write("".join(line + "\n" for line in lines))
        with open(os.path.join(args.into, f"prompt-{judge}.txt"), "w") as f:
            f.write(prompt.replace("JUDGE", judge))
        print(judge, "functions", len(items), "repositories", len(repos))
    print("change-asking", len(asks), "status quo", len(picked) - len(asks), "of", len(quo))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="step", required=True)
    p = sub.add_parser("order", help="names to walk: listings minus used names, each group sorted and shuffled")
    p.add_argument("--lists", required=True, help="folder of find_repos listings, one LISTING.txt each")
    p.add_argument("--group", action="append", required=True, help="comma-separated listings walked together (repeat: walked in order)")
    p.add_argument("--seed", type=int, required=True, help="group i is shuffled with random.Random(seed + i)")
    p.add_argument("--used", action="append", default=[], help="more files of names already walked")
    p.add_argument("--out", required=True)
    p.set_defaults(run=cmd_order)
    p = sub.add_parser("chunks", help="the fetch helpers' chunks of walk.txt and their prompts")
    p.add_argument("walk")
    p.add_argument("--into", required=True)
    p.add_argument("--helpers", type=int, default=8)
    p.set_defaults(run=cmd_chunks)
    p = sub.add_parser("walked", help="the walk: walk.txt's names before the fetch limit's first refusal")
    p.add_argument("walk")
    p.add_argument("logs", nargs="+", help="the fetch helpers' logs")
    p.add_argument("--out", required=True)
    p.set_defaults(run=cmd_walked)
    p = sub.add_parser("elig", help="eligibility of fetched repositories (tsv on stdout)")
    p.add_argument("--walk", required=True)
    p.add_argument("--mirrors", default=MIRRORS)
    p.set_defaults(run=cmd_elig)
    p = sub.add_parser("overlap", help="repositories of the split that share many paths with another")
    p.add_argument("prefix")
    p.add_argument("--corpus", default=CORPUS)
    p.set_defaults(run=cmd_overlap)
    p = sub.add_parser("judged", help="files (and repositories) copying earlier judged code")
    p.add_argument("prefix")
    p.add_argument("--corpus", default=CORPUS)
    p.set_defaults(run=cmd_judged)
    p = sub.add_parser("excl", help="files left out: empty, copies, TensorFlow's own sources")
    p.add_argument("prefix")
    p.add_argument("--elig", required=True)
    p.add_argument("--corpus", default=CORPUS)
    p.add_argument("--whole", action="append", default=[], metavar="REPO=WHY", help="leave a repository out whole")
    p.add_argument("--out", required=True)
    p.set_defaults(run=cmd_excl)
    p = sub.add_parser("add", help="repos.toml entries for the eligible repositories not there yet")
    p.add_argument("split")
    p.add_argument("prefix")
    p.add_argument("--elig", required=True)
    p.set_defaults(run=cmd_add)
    p = sub.add_parser("assign", help="repositories to judges, balanced by function count")
    p.add_argument("prefix")
    p.add_argument("--elig", required=True)
    p.add_argument("--reports", required=True)
    p.add_argument("--excluded", required=True)
    p.add_argument("--judges", type=int, default=8)
    p.add_argument("--out", required=True)
    p.set_defaults(run=cmd_assign)
    p = sub.add_parser("sample", help="each judge's functions, claims and round-A repositories")
    p.add_argument("--judges", required=True)
    p.add_argument("--reports", required=True)
    p.add_argument("--also-reports", action="append", default=[], metavar="REPORTS",
                   help="another version's reports: its change-asking verdicts and claims are drawn too")
    p.add_argument("--excluded", required=True)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--cap", type=int, default=6)
    p.add_argument("--total", type=int, default=80)
    p.add_argument("--recall-repos", type=int, default=5)
    p.add_argument("--status-quo", type=int, default=12)
    p.add_argument("--out", required=True, help="folder of the judges' files")
    p.add_argument("--private", required=True, help="where the sample's labels go (never shown to a judge)")
    p.set_defaults(run=cmd_sample)
    p = sub.add_parser("own", help="change-asking precision on each version's own capped draw (after judging)")
    p.add_argument("split", help="the split's folder (judges.json, EXCLUDED.txt, the judged records)")
    p.add_argument("--reports", action="append", required=True, help="each version's reports, in sample's order")
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--cap", type=int, default=6)
    p.set_defaults(run=cmd_own)
    p = sub.add_parser("folders", help="the judges' folders, instructions, round-B script and prompts")
    p.add_argument("split", help="heldoutNN")
    p.add_argument("--judges", required=True)
    p.add_argument("--round-b", required=True, help="draw.py sample's --out")
    p.add_argument("--excluded", required=True)
    p.add_argument("--into", default="/work/triage/judges")
    p.add_argument("--scripts", default="/tmp", help="where the round-B copy script goes (the prompts name /tmp)")
    p.add_argument("--prompts", required=True, help="where each judge's prompt is written (the lead's folder)")
    p.set_defaults(run=cmd_folders)
    p = sub.add_parser("second", help="a second opinion's functions and folders (after the figures)")
    p.add_argument("split", help="the split's folder (its *-judgments.jsonl and second-opinion/PROMPT.txt)")
    p.add_argument("--reports", action="append", required=True, help="each version's reports")
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--status-quo", type=int, default=20)
    p.add_argument("--judge", action="append", required=True, help="the second judges' names (repeat)")
    p.add_argument("--into", required=True, help="the second judges' folders and prompts")
    p.set_defaults(run=cmd_second)
    args = parser.parse_args(argv)
    args.run(args)


if __name__ == "__main__":
    main()
