#pragma once
// The engine's face by spec: from a JSON spec such as {"name":"square",
// "order":4} to its description and its run, without the problem types.
// Everything here is compiled in the library, so a file that includes only
// this header instantiates no search and is not rebuilt when a problem's
// header changes.  The problem types behind it are private to the library
// (engine/src/include/magic/registry.hpp).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "magic/core/error.hpp"  // SpecError, which these throw
#include "magic/family_command.hpp"
#include "magic/picture.hpp"
#include "magic/run_options.hpp"

namespace magic {

// The name of counts.by_key for a problem's description ("by_sum" for
// stars, "by_center" for odd-order squares), "" if it has none.
std::string by_key_name(const nlohmann::json& problem);
// How solutions of the named problem are drawn; throws SpecError if unknown.
Picture picture_of(const std::string& problem_name);
// The families, by name, in the registry's order (the square first):
// each is a subcommand that searches, and so runs on every MPI rank.
std::vector<std::string> family_names();
// Every family's command line, in the same order: the CLI's subcommands
// are built from these (magic/family_command.hpp).
std::vector<FamilyCommand> family_commands();
// The one line that names a problem (from its description, the result's
// "problem"): the CLI's echo.  A family may say it its own way (a figure
// names its size, not every point); else "name key=value ...".
std::string echo_line(const nlohmann::json& problem);
// The spec's default for RunOptions::limit (complete's "first" mode).
std::uint64_t default_limit(const nlohmann::json& spec);
// The nodes complete's search for first completions may take, by order,
// unless its spec says "budget" (0: no bound).
std::uint64_t default_complete_budget(int order);
// The graph family's built-in graphs as ("cycle-N", what it is), for
// `graph --list`, and the figure (docs/figures.md) a graph spec's labelling
// makes, for `graph --show`.
std::vector<std::pair<std::string, std::string>> graph_builtin_forms();
nlohmann::json graph_figure_json(const nlohmann::json& spec);

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

// A result file's fields after "problem" and "solutions" (which stream
// first): counts (with the problem's by_key), exhaustive, digest, run, the
// problem's extra fields (the star's "lines"), and "interrupted": true for
// a run a signal stopped.  --json and reproduce both write these: one
// output contract.
nlohmann::json result_fields(const SpecInfo& info, const RunResult& r);
// Runs the problem the spec describes.  The runner's instances for all
// problem types are compiled once, in the library (one file per family,
// engine/src/run_*.cpp), so calling this instantiates nothing: prefer it to
// visit_problem + run wherever the problem type itself is not needed.
SpecRun run_spec(const nlohmann::json& spec, const RunOptions& ro = {});

}  // namespace magic
