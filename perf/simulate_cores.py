#!/usr/bin/env python3
"""Replays a checkpoint journal's per-task CPU times on P simulated cores.

What a many-core run of the same count would look like, from the tasks as
they were measured here:

  whole     every task runs whole; an idle core takes the next task in
            index order (what the oneTBB scheduler does, up to order).
  adaptive  as above, and once no task is waiting, an idle core takes part
            of the largest remaining work of a running task (adaptive
            splitting, engine/include/magic/core/split.hpp).  The donor
            hands out a share f of what it has left; it hands out again only
            after searching `budget` more nodes, never a remainder below two
            budgets, and each piece costs `overhead` seconds.

Efficiency is CPU seconds / (P x wall seconds).  A shard's journal (e.g.
--shard 0/101) is a systematic sample: --replicate M repeats the sample M
times, interleaved, to stand for the whole list.

  perf/simulate_cores.py JOURNAL [--replicate M] [--cores 2,8,64]
"""
import argparse
import json
import sys


def read_tasks(path):
    tasks = []
    with open(path) as f:
        header = json.loads(f.readline())
        for line in f:
            line = line.strip()
            if not line:
                continue
            rec = json.loads(line)
            tasks.append((rec["task"], rec["cpu"], rec["nodes"]))
    tasks.sort()
    return header, [(cpu, nodes) for _, cpu, nodes in tasks]


def simulate(tasks, cores, share, budget_nodes, overhead):
    """Returns the wall time of the run on `cores` simulated cores.
    share None: whole tasks only."""
    free_at = [0.0] * cores          # when each core's current work ends
    rate = [1e9] * cores             # nodes per second of that work
    last_split = [0.0] * cores       # when that core last handed out work
    nxt = 0
    now = 0.0
    idle = []
    while True:
        # The next core to become free.
        i = min(range(cores), key=lambda c: free_at[c] if c not in idle else float("inf"))
        if i in idle:
            break
        now = max(now, free_at[i])
        if nxt < len(tasks):
            cpu, nodes = tasks[nxt]
            nxt += 1
            free_at[i] = now + cpu
            rate[i] = nodes / cpu if cpu > 0 else 1e9
            last_split[i] = now
            continue
        if share is None:
            idle.append(i)
            continue
        # Take part of the largest running remainder that may still split.
        donor, best = -1, 0.0
        for c in range(cores):
            if c == i or c in idle:
                continue
            rem = free_at[c] - now
            g = budget_nodes / rate[c]
            if rem > 2 * g and now - last_split[c] >= g and rem > best:
                donor, best = c, rem
        if donor < 0:
            idle.append(i)
            continue
        given = share * best
        free_at[donor] = now + best - given
        last_split[donor] = now
        free_at[i] = now + given + overhead
        rate[i] = rate[donor]
        last_split[i] = now
    return max(free_at)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("journal")
    ap.add_argument("--replicate", type=int, default=1)
    ap.add_argument("--cores", default="2,8,64")
    ap.add_argument("--budget", type=float, default=float(1 << 20), help="nodes between hand-outs (--split-nodes)")
    ap.add_argument("--overhead", type=float, default=2e-6, help="seconds per piece")
    a = ap.parse_args()
    header, sample = read_tasks(a.journal)
    tasks = [t for _ in range(a.replicate) for t in sample]
    total = sum(cpu for cpu, _ in tasks)
    print(f"# {json.dumps(header['problem'])} split_depth={header['split_depth']} shard={header['shard']}: "
          f"{len(sample)} of {header['tasks']} tasks journalled, x{a.replicate} = {len(tasks)} tasks, "
          f"{total:.0f} CPU s")
    big = max(cpu for cpu, _ in tasks)
    print(f"# largest task {big:.1f} s = {100 * big / total:.2f}% of the work")
    print("| cores | whole tasks: wall s | efficiency | adaptive f=1/2 | efficiency | adaptive f=1/8 | efficiency |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for p in (int(x) for x in a.cores.split(",")):
        row = [str(p)]
        for share in (None, 0.5, 0.125):
            wall = simulate(tasks, p, share, a.budget, a.overhead)
            row += [f"{wall:.1f}", f"{total / (p * wall):.3f}"]
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    sys.exit(main())
