#pragma once
// What a benchmark expects, read from the one table of known counts
// (data/documents.json and data/known_counts.json, compiled into
// magic_report): a benchmark that counts wrong is reported, not timed.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "magic/core/stop.hpp"
#include "magic/core/task.hpp"
#include "report/reproduce.hpp"
#include "magic/runner.hpp"

namespace perf {

// The row whose spec equals `spec`: {"unique": U, "total": T (if known)}.
inline nlohmann::json known_counts(const nlohmann::json& spec) {
  const auto documents = nlohmann::json::parse(magic::embedded_documents());
  for (const auto& r : documents.at("rows"))
    if (r.at("spec") == spec) return r.at("counts");
  const auto known = nlohmann::json::parse(magic::embedded_known_counts());
  for (const auto& r : known.at("rows"))
    if (r.at("spec") == spec) return r;
  throw std::logic_error("no known count for " + spec.dump());
}
inline std::uint64_t known_unique(const nlohmann::json& spec) {
  return known_counts(spec).at("unique").get<std::uint64_t>();
}
inline std::uint64_t known_total(const nlohmann::json& spec) {
  return known_counts(spec).at("total").get<std::uint64_t>();
}

// Every task of the default split solved serially in one of the library's
// task contexts (its compiled walk), with no scheduler, merger or journal
// around it: a problem's kernel.  The count of unique solutions.
template <class P>
std::uint64_t kernel(const P& p) {
  std::vector<typename P::State> tasks;
  p.cut(magic::default_split_depth(p), [&](const auto& s, bool) { tasks.push_back(s); });
  const magic::Stop no_stop;
  magic::TaskContext<P> ctx(p, {p.emits()}, no_stop);
  for (const auto& t : tasks) p.solve(t, ctx);
  return ctx.record.unique;
}

}  // namespace perf
