#pragma once
// Sum-group constraint model shared by squares and completion: a set of
// cells whose values must add up to a target.  Rows, columns, diagonals,
// associative pairs and most-perfect 2x2 blocks are all sum groups.
#include <cstdint>
#include <string>
#include <string_view>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "magic/core/error.hpp"

namespace magic {

// An n x n grid stored row-major, as JSON rows of numbers.
template <class Cells>
nlohmann::json grid_rows(const Cells& s, int n) {
  nlohmann::json rows = nlohmann::json::array();
  for (int r = 0; r < n; ++r) {
    nlohmann::json row = nlohmann::json::array();
    for (int c = 0; c < n; ++c) row.push_back(s[r * n + c]);
    rows.push_back(row);
  }
  return rows;
}

struct SumGroup {
  std::vector<int> cells;
  int target = 0;
};

enum class SquareKind { Magic, Semi, Pandiagonal, Associative, MostPerfect };

std::optional<SquareKind> parse_square_kind(std::string_view s);
const char* to_string(SquareKind k);
inline constexpr const char* kSquareKindNames = "magic|semi|pandiagonal|associative|most-perfect";

// Throws SpecError if the kind is undefined for this order.
void validate_square(int order, SquareKind kind, int min_order, int max_order);

// The constraint groups of an order-n square of the given kind, values 1..n².
std::vector<SumGroup> square_groups(int n, SquareKind kind);

//  The 8 symmetries of the square as cell permutations: image[c] = s[perm[c]].
std::vector<std::vector<int>> square_symmetries(int n);

// A cell order in which every group's last cell is forced by its sum.
struct PlanStep {
  int cell = -1;
  int forced_by = -1;             // group index, or -1 for a branching cell
  std::vector<int> check;         // groups completed here, other than forced_by
  std::vector<std::pair<int, bool>> less;  // (other cell, other must be smaller)
};
struct Plan {
  std::vector<PlanStep> steps;
  std::vector<int> free_cells() const;
};
// `given` cells (value known up front) are placed first, in index order.
// `lt` lists pairs (a, b) meaning value[a] < value[b].
Plan make_plan(int cells, const std::vector<SumGroup>& groups, const std::vector<int>& given,
               const std::vector<std::pair<int, int>>& lt);

}  // namespace magic
