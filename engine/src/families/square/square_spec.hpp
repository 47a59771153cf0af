#pragma once
// What a square spec asks for, apart from the searches that answer it:
// square.hpp's family and square5.cpp's counter both read it.
#include <vector>

#include <nlohmann/json.hpp>

#include "magic/sum_groups.hpp"

namespace magic {

inline constexpr int kSquareMinOrder = 3;
inline constexpr int kSquareMaxOrder = 5;
inline constexpr int kSquareMostPerfectOrder = 8;  // most-perfect also here (square_most_perfect.hpp)
// What one level of --split-depth is.
inline constexpr const char* kSquareLevels =
    "a level is one placed cell, forced cells included (order 5: 1 centre, 2 top-left corner, "
    "3 main diagonal, 4 and 5 anti-diagonal)";

struct SquareSpec {
  int order = 3;
  SquareKind kind = SquareKind::Magic;
  bool symmetry_breaking = true;
  // Order-5 magic slices: the squares with this centre (0: any), and with
  // these 8 other diagonal values in some order (empty: any).
  int center = 0;
  std::vector<int> diagonal;
  // Order-5 semi-magic slices (square_semi.hpp): the squares whose first
  // row, and first column, are these numbers in this order (empty: any).
  std::vector<int> first_row, first_column;
};
// {"order": N, "kind": "magic", "symmetry_breaking": true, "center": C,
// "diagonal": [8 values], "first_row": [5 values], "first_column": [5 values]};
// throws SpecError.
SquareSpec square_spec_from_json(const nlohmann::json& spec);

}  // namespace magic
