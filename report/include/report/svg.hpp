#pragma once
// Pictures of the first solutions: a grid for squares (and completions),
// the star polygon for stars, numbers around a circle for circles.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "magic/picture.hpp"

namespace magic {

// `problem` is the describe() JSON; `solutions` their to_json() form.
// Throws SpecError for a problem that has no picture.
std::string render_svg(const nlohmann::json& problem, const std::vector<nlohmann::json>& solutions);
// Drawn as `picture` says (a Job's picture(): any family's, not only the registry's).
std::string render_svg(Picture picture, const nlohmann::json& problem, const std::vector<nlohmann::json>& solutions);

}  // namespace magic
