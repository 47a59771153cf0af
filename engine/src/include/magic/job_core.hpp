#pragma once
// The dispatch from a spec to a Job (make_job, magic/registry.hpp), one
// file per family (run_<family>.cpp).  The searches (each type's walks and its erased face)
// are most of the build's compile time: they are compiled once, in those
// files and, for the star's sizes, in run_star_<first size>.cpp, which a
// parallel build puts on different cores.  The extern declarations keep
// every other file from compiling them again.  The engine around them is
// compiled once for every type (runner.cpp), and so is the cluster's
// (cluster/cluster.cpp): a Job hands both the same erased problem.
#include <memory>
#include <string>
#include <type_traits>

#include "magic/core/any_problem.hpp"
#include "magic/job.hpp"
#include "magic/spec.hpp"

namespace magic::detail {

// The fields a problem adds to its result file (SpecInfo::extra).
template <class P>
nlohmann::json extra_of(const P& p) {
  if constexpr (requires { p.result_extra(); }) return p.result_extra();
  else return nlohmann::json::object();
}

// What a Job holds: its problem behind the engine's face, and what it
// answers without running.
struct JobCore {
  virtual ~JobCore() = default;
  virtual const AnyProblem& problem() const = 0;
  SpecInfo info;
  std::string by_key_name;
  std::string echo;
  Picture picture = Picture::Grid;
  std::string no_solution_reason;
  std::uint64_t limit = 0;  // the spec's default (default_limit)
  std::string too_long;          // why the whole search cannot finish here ("": it can)
};

// The concrete problem, owned, and its erased face.
template <Problem P>
struct HeldProblem final : JobCore {
  explicit HeldProblem(const P& p) : held(p), face(held) {}
  const AnyProblem& problem() const override { return face; }
  P held;
  Erased<P> face;
};

// What a family says of its problems without building one.
template <class Fam>
std::string family_by_key_name(const nlohmann::json& problem) {
  if constexpr (requires { Fam::by_key_name(problem); }) return Fam::by_key_name(problem);
  else if constexpr (requires { Fam::kByKey; }) return Fam::kByKey;
  else return {};
}
// The echo: the family's own (a figure names its size, not every point),
// else "name key=value ...".
template <class Fam>
std::string family_echo(const nlohmann::json& problem) {
  if constexpr (requires { Fam::echo(problem); }) {
    return Fam::echo(problem);
  } else {
    std::string out = Fam::kName;
    for (auto it = problem.begin(); it != problem.end(); ++it)
      if (it.key() != "name") out += " " + it.key() + "=" + (it->is_string() ? it->get<std::string>() : it->dump());
    return out;
  }
}
template <class Fam>
Picture family_picture() {
  if constexpr (requires { Fam::kPicture; }) return Fam::kPicture;
  else return Picture::Grid;
}

// The family's command line (magic/family_command.hpp): what the family
// says in Fam::command(), with its name, picture and split levels.
template <class Fam>
FamilyCommand family_command() {
  FamilyCommand c;
  if constexpr (requires { Fam::command(); }) c = Fam::command();
  c.name = Fam::kName;
  c.picture = family_picture<Fam>();
  if constexpr (requires { Fam::levels_help(); }) c.levels = Fam::levels_help();
  for (FieldOption& o : c.options) {
    if (o.kind != FieldKind::Choice) continue;
    if constexpr (requires { Fam::field_values(o.field); }) o.values = Fam::field_values(o.field);
    if constexpr (requires { Fam::is_field_value(o.field, o.field); })
      o.accepts = [field = o.field](const std::string& v) { return Fam::is_field_value(field, v); };
  }
  return c;
}

template <class Fam>
std::uint64_t family_limit(const nlohmann::json& spec) {
  if constexpr (requires { Fam::default_limit(spec); }) return Fam::default_limit(spec);
  else return 0;
}

// The one visit of a spec: the family builds its problem, the Job keeps it
// with everything else the family says of it.
template <class Fam>
std::unique_ptr<JobCore> job_family(const nlohmann::json& spec) {
  std::unique_ptr<JobCore> job = Fam::visit(spec, [](const auto& p) -> std::unique_ptr<JobCore> {
    auto held = std::make_unique<HeldProblem<std::remove_cvref_t<decltype(p)>>>(p);
    held->info = SpecInfo{p.describe(), extra_of(p)};
    return held;
  });
  if constexpr (requires { Fam::no_solution_reason(spec); }) job->no_solution_reason = Fam::no_solution_reason(spec);
  job->by_key_name = family_by_key_name<Fam>(job->info.problem);
  job->echo = family_echo<Fam>(job->info.problem);
  job->picture = family_picture<Fam>();
  job->limit = family_limit<Fam>(spec);
  if constexpr (requires { Fam::too_long(spec); }) job->too_long = Fam::too_long(spec);
  return job;
}

#define MAGIC_JOB_FAMILY_AS(PREFIX, Fam) PREFIX template std::unique_ptr<JobCore> job_family<Fam>(const nlohmann::json&);

}  // namespace magic::detail

// Each run_<family>.cpp includes its family's header, which declares its
// instances extern (magic/instances.hpp); this header depends on no family.
