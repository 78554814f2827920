"""As run for heldout19 (REPORTS: check's JSON per repository at fe3106d; judges/: each judge's folder; EXCLUDED.txt
without the judges' kept-out lines at its end, which came after the draw).
Draw heldout19's blind sample from the frozen reports in now-h19 (PROTOCOL in draw19/): per
repository at most 6 change-asking verdicts and 6 warning/error claims (Random(20261223) over sorted
keys); 14 status-quo verdicts per judge. Prints counts only."""
import json, random, os
CHANGE = ("decorate", "undecorate", "fix-first", "reconfigure")
J = json.load(open("judges.json"))["verdict"]
EXCL = tuple(l.split("\t")[0] + ":" for l in open("EXCLUDED.txt") if not l.startswith("#") and l.strip())
rng = random.Random(20261223)
qrng = random.Random(20261226)
sample = {}
for judge, repos in sorted(J.items()):
    change, quo, claims = [], [], []
    for repo in sorted(repos):
        data = json.load(open(f"REPORTS/{repo}.json"))
        ch = []
        for fn in data["functions"]:
            key = f"{repo}:{fn['id']}"
            if key.startswith(EXCL): continue
            (ch if fn["verdict"] in CHANGE else quo).append(key)
        ch = sorted(ch)
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
    quo_pick = qrng.sample(sorted(quo), min(len(quo), 14))
    items = change + quo_pick
    qrng.shuffle(items)
    os.makedirs(f"judges/{judge}", exist_ok=True)
    with open(f"judges/{judge}/functions.txt", "w") as h:
        h.write("".join(k + "\n" for k in items))
    with open(f"judges/{judge}/claims.jsonl", "w") as h:
        h.write("".join(json.dumps(c) + "\n" for c in claims))
    sample[judge] = {"change": change, "sq": quo_pick, "claims": len(claims)}
    print(judge, "functions", len(items), "(change", len(change), "+ quo", len(quo_pick), "of", len(quo), ") claims", len(claims))
json.dump(sample, open("h19-sample.json", "w"))
