"""Append repos.toml entries (split heldout25) for eligible repositories of elig.tsv, in walking order,
that are not there yet. Usage: python mk_add.py >> /work/main/benchmarks/realworld/repos.toml"""
import re, sys
have = open('/work/main/benchmarks/realworld/repos.toml').read()
for line in open('/work/triage/draw25/elig.tsv'):
    f = line.rstrip('\n').split('\t')
    if f[1] != 'eligible': continue
    name = 'h25-' + re.sub(r'[^a-z0-9]+', '-', f[0].lower()).strip('-')
    if f'"{name}"' in have: continue
    print(f'\n[[repo]]\nname = "{name}"\ngithub = "{f[0]}"\ncommit = "{f[2]}"\nkind = "application"\nsplit = "heldout25"')
