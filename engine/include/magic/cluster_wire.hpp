#pragma once
// The wire a run across ranks talks over (magic/cluster_spec.hpp runs it):
// the coordinator's end and a worker's, as messages of bytes.  It knows
// nothing of MPI: apps/mpi puts it on MPI, and LoopbackWire
// (magic/loopback_wire.hpp) on threads in one process (worker 0 of an MPI
// job, and the tests).
#include <string>
#include <vector>

#include "magic/core/error.hpp"

namespace magic {

// A worker that failed, vanished or sent what no worker sends.
struct ClusterError : Error {
  using Error::Error;
};

// The coordinator's end: worker w is rank w; worker 0 runs beside it.
class CoordinatorWire {
 public:
  virtual ~CoordinatorWire() = default;
  virtual int workers() const = 0;
  virtual void send(int worker, std::string message) = 0;
  // The next message from any worker, waiting at most `seconds`.
  virtual bool receive(int& worker, std::string& message, double seconds) = 0;
};

// A worker's end.
class WorkerWire {
 public:
  virtual ~WorkerWire() = default;
  virtual void send(std::string message) = 0;
  virtual bool receive(std::string& message, double seconds) = 0;
};

// What a coordinator that will not run sends its waiting workers (they
// stop), and whether a worker's message is its last; compiled in
// magic_cluster with the messages themselves (magic/cluster.hpp).
std::string stop_message();
bool is_goodbye(const std::string& message);
// What a worker rank that never served sends: its goodbye, then a Fail
// with `why`; the coordinator fails the run with it.
std::vector<std::string> unserved_messages(const std::string& why);

}  // namespace magic
