#pragma once
// The star sizes this project handles, and how a star's points and lines
// are labelled: the built-in star figures (figure_catalog.cpp) and the
// star family (star_geometry.hpp, whose solvers' comment draws the
// labelling) share them.
#include <array>

namespace magic {

inline constexpr int kStarMinN = 5;
inline constexpr int kStarMaxN = 24;

// ---- labelling table ------------------------------------------------------

inline constexpr std::array<int, 10> kPentagramLabel = {0, 1, 8, 9, 4,   // V0..V4
                                                        2, 5, 7, 6, 3};  // I0..I4

// Internal point: V(i) = i, I(j) = n + j.  Returns the user-visible label.
constexpr int star_label(int n, int point) { return n == 5 ? kPentagramLabel[point] : point; }

// Line i, points in order along the line, as internal points.
constexpr std::array<int, 4> star_line_points(int n, int i) {
  return {i, n + i, n + (i + 1) % n, (i + 2) % n};
}

}  // namespace magic
