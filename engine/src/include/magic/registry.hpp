#pragma once
// The registry: from a JSON spec such as {"name":"square","order":4} to the
// concrete problem type.  The CLI, run_spec, `reproduce`, the pictures and
// the tests all go through it, so each problem's dispatch is written once,
// in its family (beside the problem, in its own header).
//
// Adding a problem: one header with the problem and its family, and one
// entry in Families below.
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "circle/circle.hpp"
#include "complete/complete.hpp"
#include "magic/core/error.hpp"
#include "magic/core/problem.hpp"
#include "figure/figure.hpp"
#include "graph/graph.hpp"
#include "magic/job.hpp"
#include "magic/job_core.hpp"
#include "magic/runner.hpp"
#include "magic/spec.hpp"
#include "square/square.hpp"
#include "star/star.hpp"

namespace magic {

using Families = std::tuple<SquareFamily, StarFamily, CircleFamily, CompleteFamily, FigureFamily, GraphFamily>;

// "square, star, circle, complete, figure or graph": the families' names, from Fams.
template <class Fams = Families>
std::string family_list() {
  std::string out;
  std::size_t i = 0;
  constexpr std::size_t n = std::tuple_size_v<Fams>;
  std::apply([&](auto... fam) { ((out += (i++ == 0 ? "" : i == n ? " or " : ", ") + std::string(decltype(fam)::kName)), ...); },
             Fams{});
  return out;
}

inline SpecError unknown_problem(const std::string& name) {
  return SpecError("unknown problem '" + name + "' (use " + family_list() + ")");
}

// Calls f(family) with the family named `name`; false if there is none.
// Fams: the families to look in (a test's own toy families, or Families).
template <class Fams = Families, class F>
bool with_family(const std::string& name, F&& f) {
  return std::apply([&](auto... fam) { return ((name == decltype(fam)::kName ? (f(fam), true) : false) || ...); },
                    Fams{});
}

// Calls f(family) with the family the spec names and returns its result
// (if any).
// Throws SpecError for an unknown or malformed spec.
template <class Fams = Families, class F>
auto with_spec_family(const nlohmann::json& spec, F&& f) {
  using R = decltype(f(std::tuple_element_t<0, Fams>{}));
  if (!spec.is_object() || !spec.contains("name") || !spec.at("name").is_string())
    throw SpecError("a problem spec is an object with a \"name\", got " + spec.dump());
  const std::string name = spec.at("name").get<std::string>();
  if constexpr (std::is_void_v<R>) {
    if (!with_family<Fams>(name, [&](auto fam) { f(fam); })) throw unknown_problem(name);
  } else {
    std::optional<R> out;
    if (!with_family<Fams>(name, [&](auto fam) { out.emplace(f(fam)); })) throw unknown_problem(name);
    return R(std::move(*out));
  }
}

// Calls f(const P&) with the problem the spec describes and returns its
// result.  Throws SpecError for an unknown or malformed spec.
template <class F>
auto visit_problem(const nlohmann::json& spec, F&& f) {
  return with_spec_family(spec, [&](auto fam) { return decltype(fam)::visit(spec, f); });
}

namespace detail {
// The command lines of the families Fams (family_commands: Families).
template <class Fams>
std::vector<FamilyCommand> family_commands() {
  return std::apply([](auto... fam) { return std::vector<FamilyCommand>{family_command<decltype(fam)>()...}; },
                    Fams{});
}

// The Job of a spec, from the families Fams (Job::make: Families): the
// spec is visited once, here.
template <class Fams>
Job make_job(const nlohmann::json& spec) {
  return Job(with_spec_family<Fams>(spec, [&](auto fam) { return job_family<decltype(fam)>(spec); }));
}
}  // namespace detail

}  // namespace magic
