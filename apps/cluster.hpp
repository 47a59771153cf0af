#pragma once
// Where a search runs: in this process (magicount), or across the ranks of
// an MPI job (magicount-mpi, built with -DMAGIC_WITH_MPI=ON).  Both
// binaries are built from the same CLI sources; this header is the one
// place they differ.
#include <functional>
#include <string>

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

// A rank 1.. that was to serve a search and ends without having served
// (it failed before its worker ran): tells the coordinator why, so the job
// fails with that reason instead of waiting for it forever.
void leave_unserved(const std::string& why);
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
inline void leave_unserved(const std::string&) {}
#endif

// An input file (or stdin, which mpirun gives rank 0 alone) read on rank 0
// and sent to every rank, so that all of them build the same problem.
// Every rank calls it at the same point; a failure on rank 0 is thrown
// there, and on the others as SpecError (rank 0 reports it).  Out of line
// in both builds (cli_run.cpp, mpi/cluster_mpi.cpp): the subcommands that
// call it are compiled once for both binaries.
std::string shared_input(const std::function<std::string()>& read);

}  // namespace cli::cluster
