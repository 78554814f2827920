"""heldout25 walking order: eighteen find_repos listings, minus walked/kept/mirrors, sorted, shuffled (seed 20261206)."""
import re, glob, random, collections
used = set()
toml = open('/work/main/benchmarks/realworld/repos.toml').read()
for m in re.finditer(r'github\s*=\s*"([^"]+)"', toml): used.add(m.group(1).lower())
files = glob.glob('/work/main/benchmarks/realworld/blind/*/listing*.txt') + [f for f in glob.glob('/work/triage/draw2*/*.txt') + glob.glob('/work/triage/draw2*/lists/*.txt') if 'draw25' not in f]
for f in files:
    for l in open(f):
        l = l.strip().split('\t')[0].split()[0] if l.strip() else ''
        if '/' in l and not l.startswith('#'): used.add(l.lower())
kept = ['tensorflow/docs', 'tensorflow/examples', 'tensorflow/agents', 'google/uncertainty-baselines', 'google/edward2', 'google/automl', 'keiohta/tf2rl', 'lynnho/cyclegan-tensorflow-2', 'google-research/simclr', 'tensorflow/graphics', 'pythonlessons/tensorflow-2.x-yolov3', 'tensorflow/probability', 'tensorflow/quantum']
keptnames = {k.split('/')[1] for k in kept}
groups = [['us-tf2', 'tensorflow-us', 'tensorflow2', 'keras-us', 'us-keras', 'tf2-dot', 'tf-keras', 'tensorflow-2', 'tfkeras', 'tensorflow-dot'],
          ['tf-us-2', 'tf-minus-2', 'us-tf-us', 'minus-tf-minus', 'tf20', 'minus-tf', 'tf-us', 'eager']]
lists = [o for g in groups for o in g]
names, group, removed, total = {}, {}, [], 0
for o in lists:
    for l in open(f'/work/triage/draw25/lists/{o}.txt'):
        n = l.strip()
        if not n: continue
        total += 1
        k = n.lower()
        if k in used: removed.append((n, 'walked')); continue
        if k.split('/')[0] == 'lynnho' or k.split('/')[1] in keptnames or k.split('/')[1].removeprefix('tensorflow-') in {'docs','examples','agents','probability','quantum','graphics'} or k in kept: removed.append((n, 'kept-like')); continue
        if 'tensorflow_tensorflow' in k or k.endswith('/tensorflow-upstream'): removed.append((n, 'tensorflow-mirror')); continue
        names.setdefault(k, n); group.setdefault(k, next(i for i, g in enumerate(groups) if o in g))
# names saying TensorFlow/Keras first (group 0), then the broader tf-substring names (group 1), each shuffled
order = []
for i in range(len(groups)):
    part = sorted((n for k, n in names.items() if group[k] == i), key=str.lower)
    random.Random(20261206 + i).shuffle(part)
    order += part
    print('group', i, len(part))
open('/work/triage/draw25/order.txt', 'w').write('\n'.join(order) + '\n')
print('used', len(used), 'listed', total, 'distinct kept', len(order), collections.Counter(r[1] for r in removed))
for r in removed:
    if r[1] != 'walked': print(*r)
