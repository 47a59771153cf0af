#pragma once
// A run stopped once a third of its tasks are journalled, then resumed from
// the journal on two threads: the test that a checkpoint resumes into the
// whole result (the contract suite, and tests of one counter).
#include <atomic>
#include <string>
#include <utility>

#include "magic/run_options.hpp"
#include "temp_path.hpp"

// A checkpointed run (one thread, at split depth 3 unless told: at the
// default depth a small problem is one task, with nothing to stop between)
// that `stop` ends once a third of its tasks are folded.  One thread folds
// each task as it finishes, so the stop lands early whatever the load.
inline magic::RunOptions stopped_after_a_third(const ScratchPath& journal, std::atomic<bool>& stop,
                                               int split_depth = 3) {
  magic::RunOptions ro{.threads = 1, .split_depth = split_depth};
  ro.checkpoint = journal.str();
  ro.checkpoint_interval = 0;
  ro.interrupt = &stop;
  ro.progress_interval = 0;
  ro.on_progress = [&stop](const magic::Progress& p) {
    if (p.tasks_done * 3 > p.tasks_total) stop = true;
  };
  return ro;
}

// That run, then the same resumed from its journal on two threads.
template <class Run>
std::pair<magic::RunResult, magic::RunResult> stop_and_resume(Run&& run, int split_depth, const std::string& stem) {
  const ScratchPath journal(stem);
  std::atomic<bool> stop{false};
  magic::RunResult part = run(stopped_after_a_third(journal, stop, split_depth));
  magic::RunOptions again{.threads = 2, .split_depth = split_depth};
  again.checkpoint = journal.str();
  return {std::move(part), run(again)};
}
