"""heldout20's walking order: heldout19's listing from line 85 on (never fetched), then the
tf-keras listing minus everything used before, shuffled with random.Random(20261230)."""
import glob, random, sys
sys.path.insert(0, '/work/main/benchmarks/realworld')
from extract import load_repos
kept = """tensorflow/docs tensorflow/examples tensorflow/agents google/uncertainty-baselines google/edward2 google/automl keiohta/tf2rl LynnHo/CycleGAN-Tensorflow-2 google-research/simclr tensorflow/graphics pythonlessons/TensorFlow-2.x-YOLOv3 tensorflow/probability tensorflow/quantum""".split()
used = {l.strip().lower() for l in open('/work/triage/used_repos15.txt') if l.strip()}
for f in ['/work/triage/draw15/log.tsv', *glob.glob('/work/triage/draw18/log0*.tsv'), '/work/triage/draw19/log.tsv',
          *glob.glob('/work/triage/draw19/log0*.tsv')]:
    used |= {l.split('\t')[0].lower() for l in open(f) if l.strip()}
used |= {r['github'].split('github.com/')[-1].strip('/').lower() for r in load_repos() if r.get('github')}
used |= {l.strip().lower() for l in open('/work/triage/draw19/order.txt').readlines()[:84]}
excl = used | {k.lower() for k in kept}
part1 = [l.strip() for l in open('part1.txt') if l.strip()]
assert not any(r.lower() in excl for r in part1), [r for r in part1 if r.lower() in excl]
rest = sorted({l.strip() for l in open('listing_tfkeras.txt') if l.strip() and l.strip().lower() not in excl
               and l.strip().lower() not in {p.lower() for p in part1}}, key=str.lower)
random.Random(20261230).shuffle(rest)
print(len(part1), 'from heldout19 order; tf-keras listing', len(rest), 'after removals')
open('order.txt', 'w').write('\n'.join(part1 + rest) + '\n')
