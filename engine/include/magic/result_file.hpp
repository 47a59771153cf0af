#pragma once
// Result files read back: the fields `merge` needs from a run's --json
// output, checked for shape, and the merge of shard results into one.
//
// A shard i/m of a run covers the tasks i, i+m, i+2m, ... of one task list
// (same problem, split depth and engine version).  Shards 0/m .. m-1/m
// cover every task exactly once, so their counts add up, and their digests
// add lane-wise to the digest of the whole run.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "magic/digest.hpp"
#include "magic/task_record.hpp"

namespace magic {

struct ShardResult {
  std::string path;
  nlohmann::json problem;
  nlohmann::json counts;  // as written, for by_key
  std::uint64_t unique = 0;
  std::uint64_t total = 0;
  bool has_total = false;
  std::string by_key_name;  // "" if the problem has none
  std::map<std::int64_t, std::uint64_t> by_key;
  Digest digest;
  std::string digest_kind = "solutions";  // or "additive" (a counting run)
  bool has_additive = false;              // an enumeration's additive_digest too
  Digest additive;
  bool exhaustive = false;
  std::uint32_t shard_index = 0;
  std::uint32_t shard_count = 1;
  std::uint64_t tasks = 0;
  std::uint64_t tasks_run = 0;
  std::uint64_t tasks_resumed = 0;
  int split_depth = 0;
  std::string version;
  std::string dedup;
  nlohmann::json run;    // the whole run block
  nlohmann::json extra;  // the problem's own top-level fields
  std::uint64_t nodes = 0;
  double cpu_seconds = 0;
  double wall_seconds = 0;
  TableStats tables;  // run.tables, when the run counted
};

// Parses one result (the text of a --json file).  InputError, naming `path`,
// for anything that is not a well-formed single-shard result.
ShardResult parse_result(const std::string& text, const std::string& path);
ShardResult read_result(const std::string& path);

// Merges shards of one run into a result document.  SpecError when they are
// of different runs, overlap, or (unless `partial`) do not cover every shard
// or one of them stopped early; with `partial` the result says
// "exhaustive": false.
nlohmann::json merge_results(const std::vector<ShardResult>& shards, bool partial);

}  // namespace magic
