#pragma once
// Pictures of the first solutions: a grid for squares (and completions),
// the star polygon for stars, numbers around a circle for circles.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace magic {

// `problem` is the describe() JSON; `solutions` their to_json() form.
// Throws SpecError for a problem that has no picture.
std::string render_svg(const nlohmann::json& problem, const std::vector<nlohmann::json>& solutions);

}  // namespace magic
