#include "magic/result.hpp"

#include "magic/build_info.hpp"
#include "magic/core/shard.hpp"
#include "magic/source_revision.hpp"
#include "magic/task_record.hpp"

namespace magic {

const char* BuildInfo::version() { return MAGIC_VERSION; }
const char* BuildInfo::compiler() { return MAGIC_COMPILER; }
const char* BuildInfo::flags() { return MAGIC_FLAGS; }
const char* BuildInfo::source() { return MAGIC_SOURCE; }

nlohmann::json counts_json(const RunResult& r, const std::string& by_key_name) {
  nlohmann::json c{{"unique", r.unique}};
  if (r.has_total) c["total"] = r.total;
  if (!by_key_name.empty()) {
    nlohmann::json m = nlohmann::json::object();
    for (const auto& [k, v] : r.by_key) m[std::to_string(k)] = v;
    c[by_key_name] = m;
  }
  return c;
}

// A run across ranks adds what each rank did and what the coordination cost.
nlohmann::json cluster_json(const ClusterStats& c) {
  nlohmann::json ranks = nlohmann::json::array();
  for (const auto& s : c.ranks) {
    nlohmann::json rank = {{"source", s.source},       {"threads", s.threads},
                           {"tasks", s.tasks},         {"nodes", s.nodes},
                           {"cpu_seconds", s.cpu_seconds}, {"pieces", s.pieces}};
    if (!s.kernel.empty()) rank["kernel"] = s.kernel;
    ranks.push_back(rank);
  }
  return {{"ranks", c.ranks.size()},
          {"per_rank", ranks},
          {"messages", c.messages},
          {"bytes", c.bytes},
          {"pieces_shared", c.pieces_shared},
          {"coordinator_cpu_seconds", c.coordinator_cpu_seconds}};
}

nlohmann::json run_json(const RunResult& r) {
  nlohmann::json j = {{"threads", r.threads},
          {"split_depth", r.split_depth},
          {"split_level", r.split_level},
          {"tasks", r.tasks},
          {"tasks_run", r.tasks_run},
          {"tasks_resumed", r.tasks_resumed},
          {"shard", to_string(Shard{r.shard_index, r.shard_count})},
          {"dedup", r.dedup},
          {"adaptive", r.adaptive},
          {"pieces", r.pieces},
          {"nodes", r.nodes},
          {"wall_seconds", r.wall_seconds},
          {"cpu_seconds", r.cpu_seconds},
          {"version", BuildInfo::version()},
          {"source", BuildInfo::source()},
          {"compiler", BuildInfo::compiler()},
          {"flags", BuildInfo::flags()}};
  if (!r.kernel.empty()) j["kernel"] = r.kernel;
  if (!r.search.empty()) j["search"] = r.search;
  if (!r.tables.empty()) j["tables"] = to_json(r.tables);
  if (!r.task_sources.empty()) j["task_sources"] = r.task_sources;
  if (r.cluster) j.update(cluster_json(*r.cluster));
  return j;
}

ResultWriter::ResultWriter(const std::string& json_path, const std::string& jsonl_path,
                           bool solutions_in_json)
    : in_json_(solutions_in_json) {
  if (!json_path.empty()) json_ = std::make_unique<AtomicFile>(json_path);
  if (!jsonl_path.empty()) jsonl_ = std::make_unique<AtomicFile>(jsonl_path);
}

void ResultWriter::begin(const nlohmann::json& problem) {
  if (!json_) return;
  json_->write("{\"problem\":" + problem.dump());
  if (in_json_) json_->write(",\"solutions\":[");
}

void ResultWriter::solution(const nlohmann::json& s) {
  const std::string text = s.dump();
  if (json_ && in_json_) {
    json_->write(n_ ? ",\n" : "\n");
    json_->write(text);
  }
  if (jsonl_) jsonl_->write(text + "\n");
  ++n_;
}

void ResultWriter::finish(const nlohmann::json& rest) {
  if (json_) {
    if (in_json_) json_->write("\n]");
    std::string body = rest.dump(2);  // "{ ... }": splice its members in
    if (body.size() > 2) {
      json_->write(",");
      json_->write(body.substr(1));
    } else {
      json_->write("}");
    }
    json_->write("\n");
    json_->commit();
  }
  if (jsonl_) jsonl_->commit();
}

}  // namespace magic
