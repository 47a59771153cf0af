#include "magic/result_file.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "magic/core/shard.hpp"
#include "magic/core/error.hpp"
#include "magic/io.hpp"
#include "magic/spec.hpp"
#include "magic/task_record.hpp"

namespace magic {
namespace {

// Result files may list every solution; 1 GiB bounds what is read into memory.
constexpr JsonLimits kResultLimits{64, std::size_t{1} << 30};

class Fields {
 public:
  Fields(const nlohmann::json& j, std::string where) : j_(j), where_(std::move(where)) {}

  const nlohmann::json& at(const char* key) const {
    if (!j_.is_object() || !j_.contains(key)) fail(std::string("no \"") + key + "\"");
    return j_.at(key);
  }
  std::uint64_t count(const char* key) const {
    const auto& v = at(key);
    if (!v.is_number_unsigned()) fail(std::string("\"") + key + "\" must be a non-negative integer");
    return v.get<std::uint64_t>();
  }
  double seconds(const char* key) const {
    const auto& v = at(key);
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0)
      fail(std::string("\"") + key + "\" must be a non-negative number");
    return v.get<double>();
  }
  std::string text(const char* key) const {
    const auto& v = at(key);
    if (!v.is_string()) fail(std::string("\"") + key + "\" must be a string");
    return v.get<std::string>();
  }
  [[noreturn]] void fail(const std::string& why) const { throw InputError(where_ + ": " + why); }

 private:
  const nlohmann::json& j_;
  std::string where_;
};

void parse_shard(const std::string& text, ShardResult& r, const Fields& f) {
  const std::optional<Shard> s = magic::parse_shard(text);
  if (!s) f.fail("\"shard\" must be i/m with 0 <= i < m, got \"" + text + "\"");
  r.shard_index = s->index;
  r.shard_count = s->count;
}

void parse_by_key(const nlohmann::json& counts, ShardResult& r, const Fields& f) {
  if (r.by_key_name.empty()) return;
  const auto& m = Fields(counts, "counts").at(r.by_key_name.c_str());
  if (!m.is_object()) f.fail("counts." + r.by_key_name + " must be an object");
  for (auto it = m.begin(); it != m.end(); ++it) {
    std::int64_t k = 0;
    std::size_t pos = 0;
    try {
      k = std::stoll(it.key(), &pos);
    } catch (...) {
      pos = 0;
    }
    if (pos == 0 || pos != it.key().size()) f.fail("counts." + r.by_key_name + " has a key that is not a number");
    if (!it->is_number_unsigned()) f.fail("counts." + r.by_key_name + " values must be non-negative integers");
    r.by_key[k] = it->get<std::uint64_t>();
  }
}

// What a merge recomputes; every other top-level field (a problem's extras,
// such as a star's line list) is carried over from the first shard.
const std::set<std::string> kOwnFields{"problem", "solutions", "counts", "exhaustive", "interrupted", "digest", "digest_kind", "additive_digest", "run"};

std::string shard_text(std::uint32_t i, std::uint32_t m) { return to_string(Shard{i, m}); }

}  // namespace

ShardResult parse_result(const std::string& text, const std::string& path) {
  const nlohmann::json j = parse_json(text, path, kResultLimits);
  ShardResult r;
  r.path = path;
  const Fields top(j, path);
  r.problem = top.at("problem");
  if (!r.problem.is_object() || !r.problem.contains("name") || !r.problem.at("name").is_string())
    top.fail("\"problem\" must be an object with a \"name\"");
  r.by_key_name = by_key_name(r.problem);
  r.counts = top.at("counts");
  const Fields counts(r.counts, path + ": counts");
  r.unique = counts.count("unique");
  r.has_total = r.counts.is_object() && r.counts.contains("total");
  if (r.has_total) r.total = counts.count("total");
  parse_by_key(r.counts, r, top);
  if (!top.at("exhaustive").is_boolean()) top.fail("\"exhaustive\" must be true or false");
  r.exhaustive = top.at("exhaustive").get<bool>();
  if (!Digest::parse(top.text("digest"), r.digest)) top.fail("\"digest\" must be 32 hex digits");
  // Files written before counting runs name no kind: theirs is "solutions".
  r.digest_kind = j.contains("digest_kind") ? top.text("digest_kind") : "solutions";
  if (r.digest_kind != "solutions" && r.digest_kind != "additive")
    top.fail("\"digest_kind\" must be \"solutions\" or \"additive\"");
  r.has_additive = j.contains("additive_digest");
  if (r.has_additive && !Digest::parse(top.text("additive_digest"), r.additive))
    top.fail("\"additive_digest\" must be 32 hex digits");
  r.run = top.at("run");
  r.extra = nlohmann::json::object();
  for (auto it = j.begin(); it != j.end(); ++it)
    if (!kOwnFields.count(it.key())) r.extra[it.key()] = *it;
  const Fields run(r.run, path + ": run");
  if (r.run.is_object() && r.run.contains("shards_merged"))
    run.fail("this file is already a merge of shards; merge the shard files themselves");
  parse_shard(run.text("shard"), r, run);
  r.tasks = run.count("tasks");
  r.tasks_run = run.count("tasks_run");
  r.tasks_resumed = run.count("tasks_resumed");
  const auto& depth = run.at("split_depth");
  if (!depth.is_number_unsigned() || depth.get<std::uint64_t>() > 64) run.fail("\"split_depth\" must be 0..64");
  r.split_depth = depth.get<int>();
  r.version = run.text("version");
  r.dedup = run.text("dedup");
  r.nodes = run.count("nodes");
  r.cpu_seconds = run.seconds("cpu_seconds");
  r.wall_seconds = run.seconds("wall_seconds");
  if (r.run.contains("tables")) {
    try {
      r.tables = table_stats_from_json(r.run.at("tables"));
    } catch (const nlohmann::json::exception&) {
      run.fail("\"tables\" must be an object of five non-negative integers");
    }
  }
  return r;
}

ShardResult read_result(const std::string& path) { return parse_result(read_file(path, kResultLimits.max_bytes), path); }

namespace {

// A string of a shard's run block, `none` when it has none.
std::string run_string(const ShardResult& s, const char* key, const char* none) {
  const auto it = s.run.find(key);
  return it != s.run.end() && it->is_string() ? it->get<std::string>() : none;
}

// Every shard belongs to the first one's run: same problem, split, tasks, version.
void check_same_run(const std::vector<ShardResult>& shards) {
  const ShardResult& a = shards.front();
  for (const ShardResult& b : shards) {
    auto differ = [&](const std::string& what, const std::string& x, const std::string& y) {
      throw SpecError(b.path + " is of another run than " + a.path + ": " + what + " " + y + " vs " + x);
    };
    if (b.problem != a.problem) differ("problem", a.problem.dump(), b.problem.dump());
    if (b.split_depth != a.split_depth)
      differ("split depth", std::to_string(a.split_depth), std::to_string(b.split_depth));
    if (b.shard_count != a.shard_count)
      differ("shard count", std::to_string(a.shard_count), std::to_string(b.shard_count));
    if (b.tasks != a.tasks) differ("task count", std::to_string(a.tasks), std::to_string(b.tasks));
    if (b.version != a.version) differ("engine version", a.version, b.version);
    // Another revision of the search cuts other tasks: shard i/m would
    // cover other parts of the tree.
    if (run_string(b, "search", "none") != run_string(a, "search", "none"))
      differ("search", run_string(a, "search", "none"), run_string(b, "search", "none"));
    if (b.dedup != a.dedup) differ("dedup", a.dedup, b.dedup);
    if (b.has_total != a.has_total) differ("counts", "with total", "without total");
    // The two digests do not add: a counting run's shards and an
    // enumeration's cover the same labellings under different fingerprints.
    if (b.digest_kind != a.digest_kind)
      differ("digest kind (a counting run's additive digest and an enumeration's digest of solutions do not add)",
             a.digest_kind, b.digest_kind);
    if (b.has_additive != a.has_additive) differ("digests", "with additive_digest", "without additive_digest");
  }
}

// True when every shard 0..m-1 is present and complete.
bool check_coverage(const std::vector<ShardResult>& shards, bool partial) {
  const std::uint32_t m = shards.front().shard_count;
  std::map<std::uint32_t, const ShardResult*> seen;
  for (const ShardResult& s : shards) {
    auto [it, fresh] = seen.emplace(s.shard_index, &s);
    if (!fresh)
      throw SpecError(s.path + " and " + it->second->path + " both cover shard " + shard_text(s.shard_index, m));
    if (s.tasks_run + s.tasks_resumed > s.tasks)
      throw SpecError(s.path + ": more tasks run than the run has");
  }
  bool complete = seen.size() == m;
  if (!complete && !partial) {
    std::uint32_t missing = 0;
    while (seen.count(missing)) ++missing;
    throw SpecError("shard " + shard_text(missing, m) + " is missing (" + std::to_string(seen.size()) + " of " +
                    std::to_string(m) + " given; --partial merges them anyway)");
  }
  for (const ShardResult& s : shards) {
    if (s.exhaustive) continue;
    if (!partial) throw SpecError(s.path + " stopped early (exhaustive: false); --partial merges it anyway");
    complete = false;
  }
  return complete;
}

// The commit a shard's binary was built from (kNoSource when it names none).
constexpr const char* kNoSource = "unknown";
std::string source_of(const ShardResult& s) { return run_string(s, "source", kNoSource); }

// Shards of other builds (or other copies of the search code) merge, since
// the digest is the contract, but then no one of them made the result: the
// run block names each, under `each`, instead of `key`.
void name_each(nlohmann::json& run, const std::vector<ShardResult>& shards, const char* key, const char* each,
               const char* none) {
  std::set<std::string> seen;
  for (const ShardResult& s : shards) seen.insert(run_string(s, key, none));
  if (seen.size() < 2) return;
  run.erase(key);
  run[each] = seen;
}

// The shards' task_sources summed, when any shard has them; a shard
// without counts all its tasks under its run's source.
std::optional<std::map<std::string, std::uint64_t>> merged_task_sources(const std::vector<ShardResult>& shards) {
  std::map<std::string, std::uint64_t> by;
  bool any = false;
  for (const ShardResult& s : shards) {
    const auto it = s.run.find("task_sources");
    if (it == s.run.end()) {
      std::uint64_t tasks = s.tasks_run;
      add_count(tasks, s.tasks_resumed, "run.tasks_run and run.tasks_resumed");
      if (tasks) add_count(by[source_of(s)], tasks, "run.task_sources");
      continue;
    }
    if (!it->is_object()) throw SpecError(s.path + ": run.task_sources must map builds to task counts");
    for (const auto& [source, count] : it->items()) {
      if (!count.is_number_unsigned()) throw SpecError(s.path + ": run.task_sources must map builds to task counts");
      add_count(by[source], count.get<std::uint64_t>(), "run.task_sources");
    }
    any = true;
  }
  if (!any) return std::nullopt;
  return by;
}

}  // namespace

nlohmann::json merge_results(const std::vector<ShardResult>& shards, bool partial) {
  if (shards.empty()) throw SpecError("nothing to merge");
  check_same_run(shards);
  const bool complete = check_coverage(shards, partial);

  const ShardResult& a = shards.front();
  std::uint64_t unique = 0, total = 0, nodes = 0, tasks_run = 0, tasks_resumed = 0;
  double cpu = 0, wall = 0;
  TableStats tables;
  Digest digest, additive;
  std::map<std::int64_t, std::uint64_t> by_key;
  std::vector<std::string> merged;
  for (const ShardResult& s : shards) {
    add_count(unique, s.unique, "counts.unique");
    add_count(total, s.total, "counts.total");
    add_count(nodes, s.nodes, "run.nodes");
    add_seconds(cpu, s.cpu_seconds, "run.cpu_seconds");
    wall = std::max(wall, s.wall_seconds);
    tables.merge(s.tables);
    add_count(tasks_run, s.tasks_run, "run.tasks_run");
    add_count(tasks_resumed, s.tasks_resumed, "run.tasks_resumed");
    digest.merge(s.digest);
    additive.merge(s.additive);
    for (const auto& [k, v] : s.by_key) add_count(by_key[k], v, "counts by key");
    merged.push_back(shard_text(s.shard_index, s.shard_count));
  }
  std::sort(merged.begin(), merged.end());

  nlohmann::json counts{{"unique", unique}};
  if (a.has_total) counts["total"] = total;
  if (!a.by_key_name.empty()) {
    nlohmann::json m = nlohmann::json::object();
    for (const auto& [k, v] : by_key) m[std::to_string(k)] = v;
    counts[a.by_key_name] = m;
  }
  nlohmann::json run = a.run;
  if (complete) run["shard"] = "0/1";
  else run.erase("shard");  // covers no shard i/m of its own
  run["shards_merged"] = merged;
  run["tasks_run"] = tasks_run;
  run["tasks_resumed"] = tasks_resumed;
  run["nodes"] = nodes;
  run["cpu_seconds"] = cpu;
  run["wall_seconds"] = wall;  // the longest shard: they may have run side by side
  if (!tables.empty()) run["tables"] = to_json(tables);
  run.erase("threads");        // per shard, not of the merge
  name_each(run, shards, "source", "sources_merged", kNoSource);
  name_each(run, shards, "kernel", "kernels_merged", "none");
  run.erase("task_sources");
  if (const auto by = merged_task_sources(shards)) run["task_sources"] = *by;
  nlohmann::json out = a.extra;
  out.update({{"problem", a.problem}, {"counts", counts}, {"exhaustive", complete}, {"digest", digest.hex()},
              {"digest_kind", a.digest_kind}, {"run", run}});
  if (a.has_additive) out["additive_digest"] = additive.hex();
  return out;
}

}  // namespace magic
