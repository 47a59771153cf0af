#pragma once
// Where a search runs: in this process (magic-enum), or across the ranks of
// an MPI job (magic-enum-mpi, built with -DMAGIC_WITH_MPI=ON).  Both
// binaries are built from the same CLI sources; this header is the one
// place they differ.
#include <CLI/CLI.hpp>

#include "magic/job.hpp"

namespace cli::cluster {

#ifdef MAGIC_MPI
inline constexpr bool kAcrossRanks = true;

// MPI for the life of main(): MPI_Init_thread (funneled) and MPI_Finalize.
class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};
int rank();
int ranks();
inline bool primary() { return rank() == 0; }

// Rank 0 failed before its coordinator ran (a bad output path, say): tells
// the waiting workers to stop, so the job ends instead of hanging.
void release_workers();

// Rank 0: the coordinator here, and worker 0 on a thread beside it (its
// wire to the coordinator is a LoopbackWire, to ranks 1.. MPI).
magic::RunResult run(const magic::Job& job, const magic::RunOptions& ro);
// Ranks 1..: a worker until the coordinator says there is no more.
void serve(const magic::Job& job, const magic::RunOptions& ro);
#else
inline constexpr bool kAcrossRanks = false;
struct MpiSession {
  MpiSession(int&, char**&) {}
};
inline int rank() { return 0; }
inline bool primary() { return true; }
inline void release_workers() {}
inline magic::RunResult run(const magic::Job& job, const magic::RunOptions& ro) { return job.run(ro); }
inline void serve(const magic::Job&, const magic::RunOptions&) {}
#endif

// The subcommands that search, and so run on every rank; the others
// (reproduce, merge, verify) run on rank 0 alone.
inline bool distributed(CLI::App& app) {
  for (const char* name : {"square", "star", "circle", "complete"})
    if (app.got_subcommand(name)) return true;
  return false;
}

}  // namespace cli::cluster
