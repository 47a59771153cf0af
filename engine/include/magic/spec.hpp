#pragma once
// The engine's face by spec: from a JSON spec such as {"name":"square",
// "order":4} to its description and its run, without the problem types.
// Everything here is compiled in the library, so a file that includes only
// this header instantiates no search and is not rebuilt when a problem's
// header changes.  magic/registry.hpp has the types behind it.
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "magic/core/error.hpp"  // SpecError, which these throw
#include "magic/core/problem.hpp"
#include "magic/run_options.hpp"

namespace magic {

// The name of counts.by_key for a problem's description ("by_sum" for
// stars, "by_center" for odd-order squares), "" if it has none.
std::string by_key_name(const nlohmann::json& problem);
// How solutions of the named problem are drawn; throws SpecError if unknown.
Picture picture_of(const std::string& problem_name);
// The spec's default for RunOptions::stop_after (complete's "first" mode).
std::uint64_t default_stop_after(const nlohmann::json& spec);

// What a spec names, without running it: the problem's own description and
// the fields its result file adds (an object, maybe empty).  Like run_spec,
// compiled in the library, so a caller instantiates no problem type.
struct SpecInfo {
  nlohmann::json problem;
  nlohmann::json extra;
};
// Throws SpecError for an unknown or malformed spec.
SpecInfo describe_spec(const nlohmann::json& spec);

struct SpecRun {
  nlohmann::json problem;  // the problem's own description (echo)
  RunResult result;
};
// Runs the problem the spec describes.  The runner's instances for all
// problem types are compiled once, in the library (one file per family,
// engine/src/run_*.cpp), so calling this instantiates nothing: prefer it to
// visit_problem + run wherever the problem type itself is not needed.
SpecRun run_spec(const nlohmann::json& spec, const RunOptions& ro = {});

}  // namespace magic
