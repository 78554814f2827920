"""Files of heldout23 left out as copies: content equal to a file of an earlier heldout23 repository
(walking order) or of any other extracted corpus repository on this machine; empty files too.
Writes /work/triage/judges/EXCLUDED23.txt (repo:path<TAB>why)."""
import hashlib, os, re
root = '/tmp/tfadvisor-realworld'
order = []
for line in open('/work/triage/draw23/elig.tsv'):
    f = line.rstrip('\n').split('\t')
    if f[1] == 'eligible':
        order.append('h23-' + re.sub(r'[^a-z0-9]+', '-', f[0].lower()).strip('-'))
def files(repo):
    for d, _, fs in os.walk(os.path.join(root, repo)):
        for f in fs:
            p = os.path.join(d, f)
            yield os.path.relpath(p, os.path.join(root, repo)), open(p, 'rb').read()
other = {}
for repo in os.listdir(root):
    if repo.startswith('h23-'): continue
    for rel, data in files(repo):
        if data.strip(): other.setdefault(hashlib.sha1(data).hexdigest(), repo)
seen, out = {}, []
for repo in order:
    for rel, data in sorted(files(repo)):
        h = hashlib.sha1(data).hexdigest()
        if not data.strip(): out.append(f'{repo}:{rel}\tempty'); continue
        if h in seen: out.append(f'{repo}:{rel}\tsame as {seen[h]}'); continue
        if h in other: out.append(f'{repo}:{rel}\tsame as a file of {other[h]} (earlier split)'); continue
        seen[h] = repo
open('/work/triage/judges/EXCLUDED23.txt', 'w').write('# heldout23 files left out as copies (excl.py)\n' + ''.join(l + '\n' for l in out))
print(len(out), 'excluded;', sum('earlier split' in l for l in out), 'copies of earlier splits')
