#pragma once
// Where a search runs: in this process (magic-enum), or across the ranks of
// an MPI job (magic-enum-mpi, built with -DMAGIC_WITH_MPI=ON).  Both
// binaries are built from the same CLI sources; this header is the one
// place they differ.
#include <exception>
#include <memory>
#include <thread>

#include <CLI/CLI.hpp>

#include "magic/runner.hpp"
#ifdef MAGIC_MPI
#include "magic/cluster.hpp"
#endif

namespace cli::cluster {

#ifdef MAGIC_MPI
inline constexpr bool kAcrossRanks = true;

// MPI for the life of main(): MPI_Init_thread (funneled) and MPI_Finalize.
class Job {
 public:
  Job(int& argc, char**& argv);
  ~Job();
  Job(const Job&) = delete;
  Job& operator=(const Job&) = delete;
};
int rank();
int ranks();
inline bool primary() { return rank() == 0; }

// Rank 0's wire: ranks 1.. over MPI, worker 0 through `local`.
std::unique_ptr<magic::CoordinatorWire> coordinator_wire(magic::LoopbackWire& local);
std::unique_ptr<magic::WorkerWire> worker_wire();
// Rank 0 failed before its coordinator ran (a bad output path, say): tells
// the waiting workers to stop, so the job ends instead of hanging.
void release_workers();
void coordinator_started();

// Rank 0: the coordinator here, and worker 0 on a thread beside it.
template <class P>
magic::RunResult run(const P& p, const magic::RunOptions& ro) {
  coordinator_started();
  magic::LoopbackWire local(1);
  std::exception_ptr worker_failure;
  std::thread worker0([&] {
    try {
      magic::run_worker(p, ro, local.worker(0));
    } catch (...) {
      worker_failure = std::current_exception();
    }
  });
  magic::RunResult r;
  try {
    auto wire = coordinator_wire(local);
    r = magic::run_coordinator(p, ro, *wire);
  } catch (...) {
    worker0.join();
    throw;
  }
  worker0.join();
  if (worker_failure) std::rethrow_exception(worker_failure);
  return r;
}

// Ranks 1..: a worker until the coordinator says there is no more.
template <class P>
void serve(const P& p, const magic::RunOptions& ro) {
  auto wire = worker_wire();
  magic::run_worker(p, ro, *wire);
}
#else
inline constexpr bool kAcrossRanks = false;
struct Job {
  Job(int&, char**&) {}
};
inline int rank() { return 0; }
inline bool primary() { return true; }
inline void release_workers() {}
template <class P>
magic::RunResult run(const P& p, const magic::RunOptions& ro) {
  return magic::run(p, ro);
}
template <class P>
void serve(const P&, const magic::RunOptions&) {}
#endif

// The subcommands that search, and so run on every rank; the others
// (reproduce, merge, verify) run on rank 0 alone.
inline bool distributed(CLI::App& app) {
  for (const char* name : {"square", "star", "circle", "complete"})
    if (app.got_subcommand(name)) return true;
  return false;
}

}  // namespace cli::cluster
