#include "magic/task_record.hpp"

#include <string>

namespace magic {

void TaskRecord::merge(const TaskRecord& o) {
  unique += o.unique;
  total += o.total;
  nodes += o.nodes;
  cpu_seconds += o.cpu_seconds;
  digest.merge(o.digest);
  for (const auto& [k, v] : o.by_key) by_key[k] += v;
}

nlohmann::json to_json(const TaskRecord& r) {
  nlohmann::json kv = nlohmann::json::array();
  for (const auto& [k, v] : r.by_key) kv.push_back({k, v});
  return {{"unique", r.unique}, {"total", r.total},        {"nodes", r.nodes},
          {"cpu", r.cpu_seconds}, {"digest", r.digest.hex()}, {"by_key", kv}};
}

std::optional<TaskRecord> task_record_from_json(const nlohmann::json& j) {
  TaskRecord r;
  r.unique = j.at("unique").get<std::uint64_t>();
  r.total = j.at("total").get<std::uint64_t>();
  r.nodes = j.at("nodes").get<std::uint64_t>();
  r.cpu_seconds = j.at("cpu").get<double>();
  if (!Digest::parse(j.at("digest").get<std::string>(), r.digest)) return std::nullopt;
  for (const auto& kv : j.at("by_key")) r.by_key[kv.at(0).get<std::int64_t>()] = kv.at(1).get<std::uint64_t>();
  return r;
}

}  // namespace magic
