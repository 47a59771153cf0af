#pragma once
// Runs any problem from a JSON spec such as {"name":"square","order":4,"kind":"semi"}.
// The known-counts table, `reproduce` and the tests all go through here.
#include <nlohmann/json.hpp>

#include "magic/runner.hpp"

namespace magic {

struct SpecRun {
  nlohmann::json problem;  // the problem's own description (echo)
  RunResult result;
};

// Throws std::invalid_argument for an unknown or malformed spec.
SpecRun run_spec(const nlohmann::json& spec, const RunOptions& ro = {});

// The name under which a problem reports counts.by_key ("" if it has none).
std::string by_key_name(const nlohmann::json& problem);

}  // namespace magic
