#pragma once
// The star's sizes, its points and lines, and what one level of its search
// is: what the CLI and the pictures need, without the solvers (star.hpp,
// whose comment draws the labelling).
#include <array>
#include <utility>
#include <vector>

#include "magic/star_labels.hpp"  // the sizes, and the labels of the points and lines

namespace magic {
// The largest n this build compiles: 24, or 16 or 12 with
// -DMAGIC_STAR_MAX_N (the sanitizer builds: none of their tests searches a
// larger star, and the large sizes are most of the star's build).
#ifndef MAGIC_STAR_BUILT_MAX_N
#define MAGIC_STAR_BUILT_MAX_N 24
#endif
inline constexpr int kStarBuiltMaxN = MAGIC_STAR_BUILT_MAX_N;
inline constexpr int kStarMaxValue = 65535;
inline constexpr int kStarMaxSpan = 64;  // max - min + 1 of the numbers (one 64-bit mask)
// What one level of --split-depth is, for the chain and the partial-sum solver.
inline constexpr const char* kStarChainLevels =
    "a level is one choice: the sum, V0, I(n-1), I0, V1 (V(n-1) follows), then I(L+1) per line (V(L+2) follows)";
inline constexpr const char* kStarPointLevels = "a level is one choice: the sum, then one point";
inline constexpr const char* kStarKeptLevels =
    "a level is one choice: the set of equal lines and the sum, then one point (the points it forces follow); "
    "with all lines equal, the chain's levels";


struct StarGeometry {
  int n = 0;
  std::vector<std::array<int, 4>> lines;       // labels, sorted within and across lines
  std::vector<std::pair<double, double>> xy;   // by label; unit circumcircle, y up
  std::vector<bool> is_vertex;                 // by label
};
StarGeometry star_geometry(int n);

}  // namespace magic
