#pragma once
// Per-task results persisted between runs, so a stopped search resumes where
// it left off.  A task is either recorded whole or not at all; the file is
// keyed by a signature (problem, split depth, shard) so it can never be
// resumed against a different task list.
#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "magic/digest.hpp"

namespace magic {

struct TaskRecord {
  std::uint64_t unique = 0;
  std::uint64_t total = 0;
  std::uint64_t nodes = 0;
  double cpu_seconds = 0;
  Digest digest;
  std::map<std::int64_t, std::uint64_t> by_key;

  void merge(const TaskRecord& o) {
    unique += o.unique;
    total += o.total;
    nodes += o.nodes;
    cpu_seconds += o.cpu_seconds;
    digest.merge(o.digest);
    for (const auto& [k, v] : o.by_key) by_key[k] += v;
  }
};

class Checkpoint {
 public:
  Checkpoint(std::string path, nlohmann::json signature, double save_interval_seconds = 5.0);

  // Loads an existing file; returns false if there is none.  Throws
  // std::runtime_error if it belongs to another run or is corrupt.
  bool load();
  bool has(std::uint64_t task) const { return done_.count(task) != 0; }
  const std::map<std::uint64_t, TaskRecord>& done() const { return done_; }
  // Records a finished task; saves when the interval has passed.
  void record(std::uint64_t task, const TaskRecord& rec);
  void save();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  nlohmann::json signature_;
  double interval_;
  std::chrono::steady_clock::time_point last_save_;
  std::map<std::uint64_t, TaskRecord> done_;
};

}  // namespace magic
