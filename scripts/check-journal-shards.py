#!/usr/bin/env python3
"""Checks a record's journal against shards rerun independently.

A shard i/m of the same problem and split depth runs tasks i, i+m, ...; its
counts and digest must equal the sum of those tasks' records in the journal
(digests add lane-wise mod 2^64).  A rerun on another thread count, with
adaptive splitting on, is a second computation of those tasks.

  build/bin/magicount star --n 16 -t 1 --split-depth 4 --shard 0/500 --json s0.json -q
  scripts/check-journal-shards.py data/records/star-16/journal.jsonl s0.json ...

Both must come from one search (the journal header's "search" and the
result's run.search): another search cuts other tasks, and the script
refuses to compare them rather than print DIFFER.  The record's COMMAND
names the commit to build.

Exit 0 when every shard agrees, 1 when one differs, 2 on bad input.
"""
import json
import sys

MASK = (1 << 64) - 1


def other_search(header, run):
    """Why a result's tasks are not the journal's, or None.  Another search
    (a new task tree: core/problem.hpp's kSearch) numbers its tasks
    otherwise, so shard i/m covers other parts of the tree: its counts
    would differ without anything being wrong."""
    journal_search = header.get("search", "none (the journal predates search revisions)")
    result_search = run.get("search", "none (the result predates search revisions)")
    if ("search" in header or "search" in run) and journal_search != result_search:
        return (f"the journal was written by search {journal_search}, the result by search {result_search}; "
                f"the task trees may differ (the journal has {header['tasks']} tasks, the result's run "
                f"{run.get('tasks')}): rerun the shards with the build named in the record's COMMAND")
    if header["tasks"] != run.get("tasks"):  # both from before search revisions, and yet other trees
        return (f"the journal has {header['tasks']} tasks and the result's run {run.get('tasks')}: "
                f"other task trees; rerun the shards with the build named in the record's COMMAND")
    return None


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        header = json.loads(f.readline())
        records = {}
        for line in f:
            if line.strip():
                rec = json.loads(line)
                records[rec["task"]] = rec
    if len(records) != header["tasks"]:
        print(f"error: the journal holds {len(records)} of {header['tasks']} tasks", file=sys.stderr)
        return 2
    bad = 0
    for path in argv[2:]:
        with open(path) as f:
            res = json.load(f)
        if res["problem"] != header["problem"] or res["run"]["split_depth"] != header["split_depth"]:
            print(f"error: {path} is not a run of the journal's problem and split depth", file=sys.stderr)
            return 2
        why = other_search(header, res["run"])
        if why:
            print(f"error: {path} cannot be compared with the journal: {why}", file=sys.stderr)
            return 2
        index, count = (int(x) for x in res["run"]["shard"].split("/"))
        hi = lo = unique = total = 0
        for task, rec in records.items():
            if task % count == index:
                hi = (hi + int(rec["digest"][:16], 16)) & MASK
                lo = (lo + int(rec["digest"][16:], 16)) & MASK
                unique += rec["unique"]
                total += rec["total"]
        digest = f"{hi:016x}{lo:016x}"
        counts = res["counts"]
        same = digest == res["digest"] and unique == counts["unique"] and total == counts.get("total", total)
        bad += not same
        print(f"{'agree' if same else 'DIFFER'}: shard {index}/{count}: journal unique {unique} digest {digest}; "
              f"{path}: unique {counts['unique']} digest {res['digest']} "
              f"({res['run']['threads']} threads, {res['run']['wall_seconds']:.1f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
