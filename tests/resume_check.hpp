#pragma once
// A run stopped once a third of its tasks are journalled, then resumed from
// the journal on two threads: the test that a counter's checkpoint resumes
// into the whole result (tests of one counter; the contract suite has its own).
#include <atomic>
#include <string>
#include <utility>

#include "magic/run_options.hpp"
#include "temp_path.hpp"

template <class Run>
std::pair<magic::RunResult, magic::RunResult> stop_and_resume(Run&& run, int split_depth, const std::string& stem) {
  const ScratchPath journal(stem);
  std::atomic<bool> stop{false};
  magic::RunOptions first{.threads = 1, .split_depth = split_depth};
  first.checkpoint = journal.str();
  first.checkpoint_interval = 0;
  first.interrupt = &stop;
  first.progress_interval = 0;
  first.on_progress = [&stop](const magic::Progress& p) {
    if (p.tasks_done * 3 > p.tasks_total) stop = true;
  };
  magic::RunResult part = run(first);
  magic::RunOptions again{.threads = 2, .split_depth = split_depth};
  again.checkpoint = journal.str();
  return {std::move(part), run(again)};
}
