#pragma once
// What one finished task contributes to a run.  Records are summed (merge)
// in task order by the merger, saved in checkpoints, and read back.
#include <cstdint>
#include <map>
#include <optional>

#include <nlohmann/json.hpp>

#include "magic/digest.hpp"
#include "magic/table_stats.hpp"

namespace magic {

// to += v, or InputError naming `what` if the sum passes 2^64 - 1: a count
// too big for the engine (a figure with more than 2^64 labellings), or
// forged records.  Every addition of counts goes through here.
[[noreturn, gnu::cold]] void count_overflow(const char* what);
inline void add_count(std::uint64_t& to, std::uint64_t v, const char* what) {
  if (__builtin_add_overflow(to, v, &to)) count_overflow(what);
}
// to += v, or InputError if the sum is not a finite number of seconds.
void add_seconds(double& to, double v, const char* what);

// {"passes", "max_entries", "max_bytes", "lookups", "hits"}
nlohmann::json to_json(const TableStats& s);
// Throws nlohmann::json::exception for a missing field or a wrong type.
TableStats table_stats_from_json(const nlohmann::json& j);

struct TaskRecord {
  std::uint64_t unique = 0;
  std::uint64_t total = 0;
  std::uint64_t nodes = 0;
  double cpu_seconds = 0;
  Digest digest;
  // The additive digest of the task's labellings (magic/digest.hpp), for a
  // problem that has one (AnyProblem::digests); else zero.
  Digest additive;
  std::map<std::int64_t, std::uint64_t> by_key;
  TableStats tables;

  void merge(const TaskRecord& o);  // checked: add_count, add_seconds
};

// {"unique", "total", "nodes", "cpu", "digest", "additive", "by_key": [[k, v], ...],
// "tables"}; "additive" may be missing (journals written before it: zero),
// "tables" is written for a counting task only.
nlohmann::json to_json(const TaskRecord& r);
// nullopt for a malformed digest; throws nlohmann::json::exception for a
// missing field or a wrong type.
std::optional<TaskRecord> task_record_from_json(const nlohmann::json& j);

}  // namespace magic
