"""heldout21's walking order: the gan-tensorflow listing, then the tensorflow-keras listing, each
minus everything used before (earlier splits, listings, walked orders), minus the repositories kept
for the independent evaluation and every LynnHo repository or same-named fork (they share LynnHo's
tf2lib with the kept CycleGAN-Tensorflow-2), each shuffled with random.Random(20261205)."""
import glob, random, sys
sys.path.insert(0, '/work/main/benchmarks/realworld')
from extract import load_repos
kept = """tensorflow/docs tensorflow/examples tensorflow/agents google/uncertainty-baselines google/edward2 google/automl keiohta/tf2rl LynnHo/CycleGAN-Tensorflow-2 google-research/simclr tensorflow/graphics pythonlessons/TensorFlow-2.x-YOLOv3 tensorflow/probability tensorflow/quantum""".split()
lynnho = {'cyclegan-tensorflow-2', 'attgan-tensorflow', 'eigengan-tensorflow', 'dcgan-lsgan-wgan-gp-dragan-tensorflow-2'}
used = {l.strip().lower() for l in open('/work/triage/used_repos15.txt') if l.strip()}
for f in ['/work/triage/draw15/log.tsv', *glob.glob('/work/triage/draw18/log0*.tsv'), '/work/triage/draw19/log.tsv',
          *glob.glob('/work/triage/draw19/log0*.tsv'), *glob.glob('/work/triage/draw20/log0*.tsv')]:
    used |= {l.split('\t')[0].lower() for l in open(f) if l.strip()}
used |= {r['github'].split('github.com/')[-1].strip('/').lower() for r in load_repos() if r.get('github')}
used |= {l.strip().lower() for l in open('/work/triage/draw19/order.txt')}
used |= {l.strip().lower() for l in open('/work/triage/draw20/order.txt')}
excl = used | {k.lower() for k in kept}
def keep(r):
    owner, name = r.lower().split('/')
    return r.lower() not in excl and owner != 'lynnho' and name not in lynnho
order, seen = [], set()
for listing in ['listing_gan.txt', 'listing_tfk.txt']:
    names = sorted({l.strip() for l in open(listing) if l.strip() and keep(l.strip())} - seen, key=str.lower)
    random.Random(20261205).shuffle(names)
    print(listing, len(names), 'after removals')
    order += names; seen |= set(names)
open('order.txt', 'w').write('\n'.join(order) + '\n')
