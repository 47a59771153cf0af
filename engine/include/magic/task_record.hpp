#pragma once
// What one finished task contributes to a run.  Records are summed (merge)
// in task order by the merger, saved in checkpoints, and read back.
#include <cstdint>
#include <map>
#include <optional>

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

  void merge(const TaskRecord& o);
};

// {"unique", "total", "nodes", "cpu", "digest", "by_key": [[k, v], ...]}
nlohmann::json to_json(const TaskRecord& r);
// nullopt for a malformed digest; throws nlohmann::json::exception for a
// missing field or a wrong type.
std::optional<TaskRecord> task_record_from_json(const nlohmann::json& j);

}  // namespace magic
