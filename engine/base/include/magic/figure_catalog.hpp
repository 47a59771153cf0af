#pragma once
// Magic figures described by a file: points, lines and numbers (docs/figures.md).
// This is the engine's face for them: the built-in catalog and the limits;
// the figure problem itself is private (engine/src/families/figure/figure.hpp).
//
// A figure file is JSON:
//
//   {"name": "hexagon-3",
//    "points": ["a", "b", ...]           names, or {"name": "a", "x": 0.5, "y": 1, "z": 0}
//    "lines": [["a", "b", "c"], ...],    any lengths (2 or more points)
//    "numbers": "1..19",                 a range "lo..hi", a list "1,3,5..9", or [1, 2, 3]
//    "sum": 38,                          optional: fixed; else every feasible sum
//    "symmetry": "incidence"}            optional: "incidence" (default), "none", or
//                                        {"generators": [["b", "c", "a", ...], ...]}
//
// A generator lists the image of each point, in the order of "points".
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace magic {

inline constexpr int kFigureMaxPoints = 64;   // one 64-bit mask of points
inline constexpr int kFigureMaxLines = 64;
inline constexpr int kFigureMaxNumbers = 64;  // one 64-bit mask of the numbers
inline constexpr int kFigureMaxSpan = 64;     // max - min + 1: bit v - min of that mask

// The names of the built-in figures: the fixed ones, then star-N-K for every
// {N/K} star, N = 5..24, K = 2..(N-1)/2.
std::vector<std::string> figure_builtin_names();
// The figure file of a built-in figure; SpecError if there is none.
nlohmann::json builtin_figure(const std::string& name);
// One line about a built-in figure, for --list.
std::string builtin_figure_summary(const std::string& name);

}  // namespace magic
