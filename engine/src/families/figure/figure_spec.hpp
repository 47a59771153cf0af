#pragma once
// A figure as the engine reads it: points by index, lines as index lists,
// the numbers sorted.  Read from a figure file (magic/figure_catalog.hpp
// shows the format) or a built-in, checked once, here: every later stage
// may assume what validate() promises.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "magic/figure_catalog.hpp"

namespace magic {

struct FigurePoint {
  std::string name;
  std::optional<std::array<double, 3>> xyz;  // drawing only; z = 0 for a 2-D point
  bool has_z = false;
};

enum class FigureSymmetry { Incidence, Generators, None };

struct FigureSpec {
  std::string name;
  std::string description;
  std::vector<FigurePoint> points;
  std::vector<std::vector<int>> lines;     // point indices, as the file orders them
  std::vector<int> numbers;                // sorted, distinct, 1..65535
  std::optional<int> sum;                  // the common sum, when fixed
  int equal_lines = 0;                     // K: at least K lines share the sum (0 = all)
  FigureSymmetry symmetry = FigureSymmetry::Incidence;
  std::vector<std::vector<int>> generators;  // FigureSymmetry::Generators: image of each point
  bool symmetry_breaking = true;
  std::string builtin;                     // the catalog name, if it came from there
  // Per point, the values it may take, [lo, hi] (empty: any of the numbers).
  // No figure file sets it: a family that builds its figure does (the
  // graph family's super labellings), with a group that keeps each range.
  std::vector<std::pair<int, int>> ranges;

  int n_points() const { return static_cast<int>(points.size()); }
  int n_lines() const { return static_cast<int>(lines.size()); }
  int k() const { return equal_lines ? equal_lines : n_lines(); }
};

// The numbers of [lo, hi] among min..min+span-1, as bits v - min: a
// point's range (FigureSpec::ranges) as the searches' masks hold numbers.
inline std::uint64_t range_mask(int lo, int hi, int min, int span) {
  std::uint64_t m = 0;
  for (int v = lo < min ? min : lo; v <= hi && v < min + span; ++v) m |= 1ull << (v - min);
  return m;
}

// A figure file's object (its own JSON) to a checked spec; every failure is
// one SpecError line that starts with `what` ("figure x.json").
FigureSpec figure_from_file_json(const nlohmann::json& figure, const std::string& what);
// The figure's file object again, normalised: what a result file echoes, so
// that `verify` and a resume read the same figure back.
nlohmann::json figure_file_json(const FigureSpec& f);
// The engine's spec {"name": "figure", "figure": {...} | "builtin": NAME,
// "equal_lines": K, "sum": S, "numbers": "...", "symmetry_breaking": b}:
// the spec's own fields override the figure's.
FigureSpec figure_spec_from_json(const nlohmann::json& spec);

}  // namespace magic
