#pragma once
// Per-task results persisted between runs, so a stopped search resumes where
// it left off.  A task is either recorded whole or not at all; the file is
// keyed by a signature (problem, split depth, shard) so it can never be
// resumed against a different task list.
#include <chrono>
#include <cstdint>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "magic/core/error.hpp"
#include "magic/task_record.hpp"

namespace magic {

class Checkpoint {
 public:
  Checkpoint(std::string path, nlohmann::json signature, double save_interval_seconds = 5.0);

  // Loads an existing file; returns false if there is none.  Throws
  // CheckpointError if it belongs to another run or is corrupt.
  bool load();
  bool has(std::uint64_t task) const { return done_.count(task) != 0; }
  const std::map<std::uint64_t, TaskRecord>& done() const { return done_; }
  // Records a finished task; saves when the interval has passed.
  void record(std::uint64_t task, const TaskRecord& rec);
  void save();

 private:
  std::string path_;
  nlohmann::json signature_;
  double interval_;
  std::chrono::steady_clock::time_point last_save_;
  std::map<std::uint64_t, TaskRecord> done_;
};

}  // namespace magic
