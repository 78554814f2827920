"""Draw heldout25's blind sample from the frozen reports in h25snap (PROTOCOL in blind/heldout25/):
per repository at most 6 change-asking verdicts and 6 warning/error claims (Random("20261241-<judge>")
over sorted keys); if the whole split holds more than 80 of a kind, 80 drawn (Random(20261207) over
sorted keys); round-A repositories: at most 5 per judge with functions (Random("20261243-<judge>"));
12 status-quo verdicts per judge from those (Random("20261236-<judge>")). Prints counts only.
Usage: python sample.py"""
import json, random, os
CHANGE = ("decorate", "undecorate", "fix-first", "reconfigure")
J = json.load(open("/work/triage/h25judges.json"))
EXCL = tuple(l.split("\t")[0] + ":" for l in open("/work/triage/judges/EXCLUDED25.txt") if not l.startswith("#") and l.strip())
def report(repo): return json.load(open(f"/work/triage/h25snap/{repo}.json"))
per = {}
for judge, repos in sorted(J.items()):
    rng = random.Random(f"20261241-{judge}")
    change, claims, sized = [], [], []
    for repo in sorted(repos):
        data = report(repo)
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
    rrng = random.Random(f"20261243-{judge}")
    recall_repos = sorted(sized) if len(sized) <= 5 else sorted(rrng.sample(sorted(sized), 5))
    per[judge] = (change, claims, recall_repos)
all_change = sorted(k for c, _, _ in per.values() for k in c)
all_claims = sorted(c["key"] for _, cl, _ in per.values() for c in cl)
g = random.Random(20261207)
keep_change = set(all_change if len(all_change) <= 80 else g.sample(all_change, 80))
keep_claims = set(all_claims if len(all_claims) <= 80 else g.sample(all_claims, 80))
print("split: capped change-asking", len(all_change), "claims", len(all_claims), "-> judged", len(keep_change), len(keep_claims))
sample = {}
for judge, (change, claims, recall_repos) in sorted(per.items()):
    change = [k for k in change if k in keep_change]
    claims = [c for c in claims if c["key"] in keep_claims]
    qrng = random.Random(f"20261236-{judge}")
    quo = sorted(f"{repo}:{fn['id']}" for repo in recall_repos for fn in report(repo)["functions"]
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
os.makedirs("/work/triage/private", exist_ok=True)
json.dump(sample, open("/work/triage/private/h25-sample.json", "w"))
