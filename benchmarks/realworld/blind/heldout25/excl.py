"""Files of heldout25 left out as copies: content equal to a file of an earlier heldout25 repository
(walking order) or of any other extracted corpus repository on this machine; empty files too; and copies of TensorFlow's own source tree (heldout25's amendment).
Writes /work/triage/judges/EXCLUDED25.txt (repo:path<TAB>why)."""
import hashlib, os, re
root = '/tmp/tfadvisor-realworld'
order = []
for line in open('/work/triage/draw25/elig.tsv'):
    f = line.rstrip('\n').split('\t')
    if f[1] == 'eligible':
        order.append('h25-' + re.sub(r'[^a-z0-9]+', '-', f[0].lower()).strip('-'))
def files(repo):
    for d, _, fs in os.walk(os.path.join(root, repo)):
        for f in fs:
            p = os.path.join(d, f)
            yield os.path.relpath(p, os.path.join(root, repo)), open(p, 'rb').read()
other = {}
for repo in os.listdir(root):
    if repo.startswith('h25-'): continue
    for rel, data in files(repo):
        if data.strip(): other.setdefault(hashlib.sha1(data).hexdigest(), repo)
seen, out = {}, []
def tf_tree(repo):
    # the folder holding a copy of TensorFlow's own source tree (tensorflow/python/framework/ops.py)
    for rel, _ in files(repo):
        if rel.endswith('tensorflow/python/framework/ops.py'):
            return rel[:-len('python/framework/ops.py')]
    return None
for repo in order:
    tree = tf_tree(repo)
    for rel, data in sorted(files(repo)):
        if tree is not None and rel.startswith(tree): out.append(f'{repo}:{rel}\tcopy of TensorFlow sources'); continue
        h = hashlib.sha1(data).hexdigest()
        if not data.strip(): out.append(f'{repo}:{rel}\tempty'); continue
        if h in seen: out.append(f'{repo}:{rel}\tsame as {seen[h]}'); continue
        if h in other: out.append(f'{repo}:{rel}\tsame as a file of {other[h]} (earlier split)'); continue
        seen[h] = repo
open('/work/triage/judges/EXCLUDED25.txt', 'w').write('# heldout25 files left out as copies (excl.py)\n' + ''.join(l + '\n' for l in out))
print(len(out), 'excluded;', sum('earlier split' in l for l in out), 'copies of earlier splits')
