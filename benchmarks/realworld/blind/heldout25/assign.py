"""Balance heldout25's eligible repositories over eight judges by function count (excluded files
left out), largest first to the least-loaded judge. Writes /work/triage/h25judges.json; prints counts."""
import json, os, re
EXCL = tuple(l.split("\t")[0] + ":" for l in open("/work/triage/judges/EXCLUDED25.txt") if not l.startswith("#") and l.strip())
sizes = {}
for line in open('/work/triage/draw25/elig.tsv'):
    f = line.rstrip('\n').split('\t')
    if f[1] != 'eligible': continue
    repo = 'h25-' + re.sub(r'[^a-z0-9]+', '-', f[0].lower()).strip('-')
    data = json.load(open(f'/work/triage/h25snap/{repo}.json'))
    sizes[repo] = sum(1 for fn in data['functions'] if not f"{repo}:{fn['id']}".startswith(EXCL))
judges = {f'h25{c}': [] for c in 'abcdefgh'}
load = {j: 0 for j in judges}
for repo in sorted(sizes, key=lambda r: (-sizes[r], r)):
    j = min(load, key=lambda j: (load[j], j))
    judges[j].append(repo); load[j] += sizes[repo]
json.dump(judges, open('/work/triage/h25judges.json', 'w'), indent=1)
print('repos', len(sizes), 'functions', sum(sizes.values()), 'with functions', sum(1 for v in sizes.values() if v))
print({j: (len(judges[j]), load[j]) for j in judges})
