"""Draw heldout23's blind sample from the frozen reports in h23snap (PROTOCOL in draw22/): per
repository at most 6 change-asking verdicts and 6 warning/error claims (Random(20261231) over sorted
keys); round-A repositories: all of a judge's (every one has GradientTape; h23judges.json "recall"); 14 status-quo verdicts per judge from
those (Random(20261226)). Prints counts only. Usage: python sample.py JUDGE [JUDGE ...]"""
import json, random, os, sys
CHANGE = ("decorate", "undecorate", "fix-first", "reconfigure")
JJ = json.load(open("/work/triage/h23judges.json")); J, A = JJ["verdict"], JJ["recall"]
EXCL = tuple(l.split("\t")[0] + ":" for l in open("/work/triage/judges/EXCLUDED23.txt") if not l.startswith("#") and l.strip())
only = set(sys.argv[1:])
sample = json.load(open("/work/triage/private/h23-sample.json")) if os.path.exists("/work/triage/private/h23-sample.json") else {}
for judge, repos in sorted(J.items()):
    if only and judge not in only: continue
    rng = random.Random(f"20261231-{judge}")
    qrng = random.Random(f"20261226-{judge}")
    rrng = random.Random(f"20261233-{judge}")
    change, claims, sized = [], [], []
    for repo in sorted(repos):
        data = json.load(open(f"/work/triage/h23snap/{repo}.json"))
        if data["functions"]: sized.append(repo)
        ch = sorted(f"{repo}:{fn['id']}" for fn in data["functions"] if fn["verdict"] in CHANGE
                    and not f"{repo}:{fn['id']}".startswith(EXCL))
        change += ch if len(ch) <= 6 else rng.sample(ch, 6)
        seen, cl = set(), []
        for f in data["findings"]:
            if f.get("suppressed") or f["severity"] == "info": continue
            if f"{repo}:{f['path']}:".startswith(EXCL): continue
            c = {"key": f"{repo}:{f['path']}:{f['line']}:{f['rule']}", "repo": repo, "path": f["path"], "line": f["line"],
                 "rule": f["rule"], "severity": f["severity"], "claim": f["message"], "function": f.get("function")}
            if c["key"] in seen: continue
            seen.add(c["key"]); cl.append(c)
        cl.sort(key=lambda c: c["key"])
        claims += cl if len(cl) <= 6 else rng.sample(cl, 6)
    recall_repos = sorted(A[judge])
    quo = sorted(f"{repo}:{fn['id']}" for repo in recall_repos
                 for fn in json.load(open(f"/work/triage/h23snap/{repo}.json"))["functions"]
                 if fn["verdict"] not in CHANGE and not f"{repo}:{fn['id']}".startswith(EXCL))
    quo_pick = qrng.sample(quo, min(len(quo), 12))
    items = change + quo_pick
    qrng.shuffle(items)
    os.makedirs(f"/work/triage/judges/{judge}", exist_ok=True)
    open(f"/work/triage/judges/{judge}/functions.txt", "w").write("".join(k + "\n" for k in items))
    open(f"/work/triage/judges/{judge}/claims.jsonl", "w").write("".join(json.dumps(c) + "\n" for c in claims))
    open(f"/work/triage/judges/{judge}/recall_repos.txt", "w").write("".join(r + "\n" for r in recall_repos))
    sample[judge] = {"change": change, "sq": quo_pick, "claims": len(claims), "recall_repos": recall_repos}
    print(judge, "functions", len(items), "(change", len(change), "+ quo", len(quo_pick), ") claims", len(claims), "recall repos", len(recall_repos))
json.dump(sample, open("/work/triage/private/h23-sample.json", "w"))
