// magicount-mpi's wire: the coordinator protocol of magic/cluster.hpp on
// MPI point-to-point messages.  Only the main thread of a rank calls MPI
// (MPI_THREAD_FUNNELED): on rank 0 that is the coordinator, and worker 0
// talks to it through an in-process LoopbackWire instead.
//
// Sends are non-blocking (MPI_Isend), so two ranks sending to each other at
// once cannot deadlock; receives are polled (MPI_Iprobe), in short sleeps.
#include <mpi.h>

#include <chrono>
#include <climits>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <string>
#include <thread>

#include "../cluster.hpp"
#include "magic/cluster_spec.hpp"
#include "magic/loopback_wire.hpp"

namespace cli::cluster {
namespace {

constexpr int kTag = 7;
constexpr double kSlice = 0.001;  // seconds between polls while waiting

int g_rank = 0, g_ranks = 1;      // MPI's own state is process-wide too
bool g_coordinator_ran = false;
bool g_served = false;
bool g_primary_failed = false;    // rank 0 could not read the input: it reports

[[noreturn]] void mpi_failed(const char* what, int code) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(code, text, &len);
  throw magic::ClusterError(std::string("MPI: ") + what + ": " + std::string(text, static_cast<std::size_t>(len)));
}
void check(int code, const char* what) {
  if (code != MPI_SUCCESS) mpi_failed(what, code);
}

// Messages in flight, kept until MPI is done with their bytes.
class Outbox {
 public:
  ~Outbox() { drain(5.0); }
  void send(int to, std::string m) {
    if (m.size() > static_cast<std::size_t>(INT_MAX)) throw magic::ClusterError("a message over 2 GiB");
    sent_.push_back({std::move(m), MPI_REQUEST_NULL});
    auto& s = sent_.back();
    check(MPI_Isend(s.bytes.data(), static_cast<int>(s.bytes.size()), MPI_BYTE, to, kTag, MPI_COMM_WORLD, &s.req),
          "send");
    tidy();
  }
  void tidy() {
    while (!sent_.empty()) {
      int done = 0;
      check(MPI_Test(&sent_.front().req, &done, MPI_STATUS_IGNORE), "send");
      if (!done) return;
      sent_.pop_front();
    }
  }
  // A peer that is gone never takes its last messages: give up after a while.
  void drain(double seconds) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (!sent_.empty() && std::chrono::steady_clock::now() < end) {
      tidy();
      if (!sent_.empty()) std::this_thread::sleep_for(std::chrono::duration<double>(kSlice));
    }
  }

 private:
  struct Sent {
    std::string bytes;
    MPI_Request req;
  };
  std::deque<Sent> sent_;  // a deque: a Sent never moves while MPI reads it
};

// A message waiting from `source` (or any rank), taken if there is one.
bool poll(int source, int& from, std::string& m) {
  int flag = 0;
  MPI_Status st;
  check(MPI_Iprobe(source, kTag, MPI_COMM_WORLD, &flag, &st), "probe");
  if (!flag) return false;
  int n = 0;
  check(MPI_Get_count(&st, MPI_BYTE, &n), "count");
  m.resize(static_cast<std::size_t>(n));
  check(MPI_Recv(m.data(), n, MPI_BYTE, st.MPI_SOURCE, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "receive");
  from = st.MPI_SOURCE;
  return true;
}

class CoordinatorEnd : public magic::CoordinatorWire {
 public:
  // local: the in-process wire to worker 0.
  explicit CoordinatorEnd(magic::CoordinatorWire& local) : local_(local) {}
  int workers() const override { return g_ranks; }
  void send(int w, std::string m) override {
    if (w == 0) local_.send(0, std::move(m));
    else out_.send(w, std::move(m));
  }
  bool receive(int& w, std::string& m, double seconds) override {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    for (;;) {
      out_.tidy();
      if (poll(MPI_ANY_SOURCE, w, m)) return true;
      const double left = std::chrono::duration<double>(end - std::chrono::steady_clock::now()).count();
      if (left <= 0) return false;
      // Worker 0 wakes this wait at once; the other ranks are seen when it
      // ends (the coordinator waits at most a few ms: see cluster.hpp).
      if (local_.receive(w, m, left)) return true;
    }
  }

 private:
  magic::CoordinatorWire& local_;
  Outbox out_;
};

class WorkerEnd : public magic::WorkerWire {
 public:
  void send(std::string m) override { out_.send(0, std::move(m)); }
  bool receive(std::string& m, double seconds) override {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    for (;;) {
      out_.tidy();
      int from = 0;
      if (poll(0, from, m)) return true;
      if (std::chrono::steady_clock::now() >= end) return false;
      std::this_thread::sleep_for(std::chrono::duration<double>(kSlice));
    }
  }

 private:
  Outbox out_;
};

}  // namespace

MpiSession::MpiSession(int& argc, char**& argv) {
  int provided = 0;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
    throw magic::ClusterError("MPI could not start");
  // Errors come back as codes (and become a ClusterError), not an abort
  // without a word about what failed.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_ranks);
}

MpiSession::~MpiSession() { MPI_Finalize(); }

int rank() { return g_rank; }
int ranks() { return g_ranks; }

magic::RunResult run(const magic::Job& job, const magic::RunOptions& ro) {
  g_coordinator_ran = true;
  // Rank 0 is worker 0 too, on a thread, with the coordinator on this one.
  const magic::ClusterJob cluster(job);
  return magic::run_on_loopback(
      1, [&](magic::WorkerWire& w0) { cluster.serve(ro, w0); },
      [&](magic::CoordinatorWire& local) {
        CoordinatorEnd wire(local);
        return cluster.coordinate(ro, wire);
      });
}

void serve(const magic::Job& job, const magic::RunOptions& ro) {
  g_served = true;
  WorkerEnd wire;
  magic::ClusterJob(job).serve(ro, wire);
}

void leave_unserved(const std::string& why) {
  if (g_rank == 0 || g_served || g_primary_failed) return;
  try {
    Outbox out;  // its destructor waits (a while) until MPI has sent them
    for (std::string& m : magic::unserved_messages("ended without serving: " + why)) out.send(0, std::move(m));
  } catch (const std::exception&) {
    // MPI itself is failing: mpirun ends the job when this rank exits.
  }
}

std::string shared_input(const std::function<std::string()>& read) {
  std::string text;
  std::exception_ptr failure;
  std::uint64_t head[2] = {0, 0};  // {failed, size}
  if (g_rank == 0) {
    try {
      text = read();
    } catch (...) {
      failure = std::current_exception();
    }
    head[0] = failure ? 1 : 0;
    head[1] = failure ? 0 : text.size();
  }
  check(MPI_Bcast(head, 2, MPI_UINT64_T, 0, MPI_COMM_WORLD), "broadcast the input");
  if (head[0]) {
    g_primary_failed = true;
    if (failure) std::rethrow_exception(failure);
    throw magic::SpecError("rank 0 could not read the input");
  }
  if (head[1] > static_cast<std::uint64_t>(INT_MAX)) throw magic::SpecError("an input over 2 GiB");
  text.resize(static_cast<std::size_t>(head[1]));
  check(MPI_Bcast(text.data(), static_cast<int>(head[1]), MPI_BYTE, 0, MPI_COMM_WORLD), "broadcast the input");
  return text;
}

void release_workers() {
  if (g_rank != 0 || g_coordinator_ran || g_ranks < 2) return;
  // The workers are asking for their first batch: tell them to stop, and
  // take their goodbyes so none is left talking to a finished rank 0.
  Outbox out;
  for (int w = 1; w < g_ranks; ++w) out.send(w, magic::stop_message());
  int byes = 0;
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (byes < g_ranks - 1 && std::chrono::steady_clock::now() < end) {
    int from = 0;
    std::string m;
    if (!poll(MPI_ANY_SOURCE, from, m)) {
      std::this_thread::sleep_for(std::chrono::duration<double>(kSlice));
      continue;
    }
    if (magic::is_goodbye(m)) ++byes;
  }
}

}  // namespace cli::cluster
