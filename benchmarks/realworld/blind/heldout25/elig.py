"""Eligibility of heldout25's fetched repositories (mechanical): tensorflow import and tf.function or GradientTape text
in kept .py/.ipynb files. Prints name<TAB>status<TAB>commit<TAB>files<TAB>why, in walking order."""
import os, re, subprocess, sys
order = [l.strip() for l in open('/work/triage/draw25/walk.txt') if l.strip()]
TF = re.compile(rb'^\s*(import tensorflow|from tensorflow)', re.M)
TF_NB = re.compile(rb'(import tensorflow|from tensorflow)')
def git(d, *a):
    return subprocess.run(['git', f'--git-dir={d}', *a], capture_output=True).stdout
for repo in order:
    d = f"/work/.mirror/{repo.replace('/', '+')}/repo"
    d = d + "/.git" if os.path.isdir(d + "/.git") else d
    if not os.path.isdir(d):
        print(f"{repo}\tnot-fetched"); continue
    commit = git(d, 'rev-parse', 'HEAD').decode().strip()
    files = [p for p in git(d, 'ls-tree', '-r', '--name-only', '-z', commit).decode(errors='replace').split('\0') if p.endswith(('.py', '.ipynb'))]
    tf = tape = 0
    for p in files:
        blob = git(d, 'show', f'{commit}:{p}')
        if (TF_NB if p.endswith('.ipynb') else TF).search(blob): tf += 1
        if b'GradientTape' in blob or b'tf.function' in blob: tape += 1
    status = 'eligible' if tf and tape else 'ineligible'
    print(f"{repo}\t{status}\t{commit}\t{len(files)}\ttf files {tf}, tf.function-or-GradientTape files {tape}")
