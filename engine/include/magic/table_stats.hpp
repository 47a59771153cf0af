#pragma once
// What a counting run's tables took: RunResult::tables, and each task's in
// TaskRecord::tables (task_record.hpp, with the JSON of both).
#include <cstdint>

namespace magic {

// Summed over the tasks, or the largest of one pass (--count,
// figure_join.hpp).  Zero for an enumeration.
struct TableStats {
  std::uint64_t passes = 0;       // tables filled: a task's anchors, times the passes its memory needed
  std::uint64_t max_entries = 0;  // the most keys one table held
  std::uint64_t max_bytes = 0;    // the most bytes one pass's table (or buckets) needed
  std::uint64_t lookups = 0;      // the ends that looked up their partner
  std::uint64_t hits = 0;         // the lookups that found it
  void merge(const TableStats& o);  // checked: add_count
  bool empty() const { return passes == 0; }
  bool operator==(const TableStats&) const = default;
};

}  // namespace magic
