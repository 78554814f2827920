#!/bin/bash
# Copies the round-B files into a judge's folder; run only once recall.jsonl and negatives.jsonl are written.
set -e
j=$1; d=/work/triage/judges/$j
[ -s $d/recall.jsonl ] || [ -f $d/recall.jsonl ] || { echo "write recall.jsonl first"; exit 1; }
[ -f $d/negatives.jsonl ] || { echo "write negatives.jsonl first"; exit 1; }
cp /work/triage/private/h49roundB/$j/functions.txt /work/triage/private/h49roundB/$j/claims.jsonl $d/
echo "copied functions.txt ($(wc -l < $d/functions.txt) lines) and claims.jsonl ($(wc -l < $d/claims.jsonl) lines)"
