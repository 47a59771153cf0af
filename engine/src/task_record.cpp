#include "magic/task_record.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "magic/core/error.hpp"

namespace magic {

void count_overflow(const char* what) {
  throw InputError(std::string("the sum of ") + what +
                     " passes 2^64 - 1: more than a 64-bit count can hold (or the records are forged)");
}

void add_seconds(double& to, double v, const char* what) {
  to += v;
  if (!std::isfinite(to))
    throw InputError(std::string("the sum of ") + what + " is not a finite number of seconds: the records are forged or corrupt");
}

void TableStats::merge(const TableStats& o) {
  add_count(passes, o.passes, "table passes");
  add_count(lookups, o.lookups, "table lookups");
  add_count(hits, o.hits, "table hits");
  max_entries = std::max(max_entries, o.max_entries);
  max_bytes = std::max(max_bytes, o.max_bytes);
}

void TaskRecord::merge(const TaskRecord& o) {
  add_count(unique, o.unique, "unique counts");
  add_count(total, o.total, "total counts");
  add_count(nodes, o.nodes, "nodes");
  add_seconds(cpu_seconds, o.cpu_seconds, "CPU seconds");
  digest.merge(o.digest);
  additive.merge(o.additive);
  for (const auto& [k, v] : o.by_key) add_count(by_key[k], v, "by_key counts");
  tables.merge(o.tables);
}

nlohmann::json to_json(const TableStats& s) {
  return {{"passes", s.passes}, {"max_entries", s.max_entries}, {"max_bytes", s.max_bytes},
          {"lookups", s.lookups}, {"hits", s.hits}};
}

nlohmann::json to_json(const TaskRecord& r) {
  nlohmann::json kv = nlohmann::json::array();
  for (const auto& [k, v] : r.by_key) kv.push_back({k, v});
  nlohmann::json j = {{"unique", r.unique}, {"total", r.total},        {"nodes", r.nodes},
          {"cpu", r.cpu_seconds}, {"digest", r.digest.hex()}, {"additive", r.additive.hex()}, {"by_key", kv}};
  if (!r.tables.empty()) j["tables"] = to_json(r.tables);
  return j;
}

namespace {

// Counts are written as non-negative integers; nlohmann would silently cast
// -5 to 2^64 - 5, so the type is checked, not converted.
std::uint64_t count_at(const nlohmann::json& j, const char* key) {
  const nlohmann::json& v = j.at(key);
  if (!v.is_number_unsigned())
    throw nlohmann::json::type_error::create(302, std::string(key) + " must be a non-negative integer", &v);
  return v.get<std::uint64_t>();
}

}  // namespace

TableStats table_stats_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw nlohmann::json::type_error::create(302, "tables must be an object", &j);
  TableStats s;
  s.passes = count_at(j, "passes");
  s.max_entries = count_at(j, "max_entries");
  s.max_bytes = count_at(j, "max_bytes");
  s.lookups = count_at(j, "lookups");
  s.hits = count_at(j, "hits");
  return s;
}

std::optional<TaskRecord> task_record_from_json(const nlohmann::json& j) {
  TaskRecord r;
  r.unique = count_at(j, "unique");
  r.total = count_at(j, "total");
  r.nodes = count_at(j, "nodes");
  const nlohmann::json& cpu = j.at("cpu");
  if (!cpu.is_number() || !(cpu.get<double>() >= 0) || !std::isfinite(cpu.get<double>()))
    throw nlohmann::json::type_error::create(302, "cpu must be a non-negative number", &cpu);
  r.cpu_seconds = cpu.get<double>();
  if (!Digest::parse(j.at("digest").get<std::string>(), r.digest)) return std::nullopt;
  if (j.contains("additive") && !Digest::parse(j.at("additive").get<std::string>(), r.additive)) return std::nullopt;
  if (j.contains("tables")) r.tables = table_stats_from_json(j.at("tables"));
  const nlohmann::json& kv = j.at("by_key");
  if (!kv.is_array()) throw nlohmann::json::type_error::create(302, "by_key must be an array of pairs", &kv);
  for (const auto& pair : kv) {
    if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number_integer())
      throw nlohmann::json::type_error::create(302, "by_key must be an array of [key, count] pairs", &pair);
    const nlohmann::json wrapped{{"count", pair[1]}};
    if (!r.by_key.emplace(pair[0].get<std::int64_t>(), count_at(wrapped, "count")).second)
      throw nlohmann::json::type_error::create(302, "by_key repeats a key", &pair);
  }
  return r;
}

}  // namespace magic
