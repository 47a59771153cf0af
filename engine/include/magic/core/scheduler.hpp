#pragma once
// The scheduler: runs body(k) for k = 0..n-1 on `threads` oneTBB workers.
// One task per chunk (simple_partitioner), so load balances by stealing
// however uneven the tasks are.  Everything else in the runner is
// independent of how tasks are scheduled; an MPI coordinator replaces this.
#include <cstddef>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

namespace magic {

template <class Body>
void schedule(unsigned threads, std::size_t n, Body&& body) {
  tbb::task_arena arena(static_cast<int>(threads));
  arena.execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, n, 1),
        [&](const tbb::blocked_range<std::size_t>& range) {
          for (std::size_t k = range.begin(); k != range.end(); ++k) body(k);
        },
        tbb::simple_partitioner());
  });
}

}  // namespace magic
