#pragma once
// Completing a partly filled magic square (seed 004, the CheckiO task): the
// grids, their checks and the spec.
//
// Blank cells (0) get the missing values of 1..N² so that every sum group of
// the chosen kind (rows, columns, diagonals, ...) hits its target.  The count
// is of completions of *this* grid: there is no symmetry group, every
// completion is emitted exactly once.
//
// The completion code, one job a file:
//   complete_spec.hpp          grids, checks, the spec (complete.cpp)
//   complete_propagation.hpp   the model and its propagation to a fixed point
//   complete_local_search.hpp  construction and the local search (orders 9..16)
//   complete.hpp               the search: branching, the seeded budgeted walk
//                              of core/restarts.hpp, the family
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "magic/sum_groups.hpp"

namespace magic {

inline constexpr int kCompleteMinOrder = 3;
inline constexpr int kCompleteMaxOrder = 16;
// What one level of --split-depth is.
inline constexpr const char* kCompleteLevels = "a level is one branching decision; forced cells settle within it";

// A grid as given: order N and N² cells, row-major, 0 = blank.  Values are
// kept wide so that out-of-range input can be reported as it was written.
struct Puzzle {
  int order = 0;
  std::vector<std::int64_t> cells;
};

// Reads the CheckiO JSON form ([[2,7,6],[9,5,1],[4,3,0]]) or a plain-text
// grid (whitespace-separated numbers, one row per line; '.' is a blank, '#'
// starts a comment).  Checks the shape only; throws SpecError
// with a one-line message.
Puzzle parse_puzzle(std::string_view text);
Puzzle parse_puzzle(const nlohmann::json& rows);

// Checks the order, the range of every number, repeated givens and groups the
// givens already break (over the target, or full with the wrong sum).
// Throws SpecError naming the problem; returns the kind's groups.
std::vector<SumGroup> check_puzzle(const Puzzle& p, SquareKind kind);

// Orders and kinds for which no square of that kind exists at all, so every
// grid has no completion; returns the reason or "" (the search would have to
// prove it the hard way, which takes far too long for order 6).
std::string impossible_reason(int order, SquareKind kind);

// Optional groups a first-completion search tries first: the structure of
// the classical constructions of the kind (for pandiagonal squares of
// doubly even order, the most-perfect pairs and 2x2 blocks), and groups the
// kind implies but does not list (the most-perfect odd rectangles).
// They only narrow where the search looks first; a run that cannot meet
// them falls back to the kind's own groups, so no completion is lost.
// Empty when the kind has none.
std::vector<SumGroup> structure_hints(int order, SquareKind kind);

// A completion built rather than searched: N*A + B + 1 from two digit
// squares linear in the cell that keep the givens (complete_construct.cpp),
// or empty when there is none or it is not found within `limit` nodes.
// Every group of k cells must have the target k(N²+1)/2.  `nodes` counts
// the work done.  Orders 9..16 try it before searching.
inline constexpr std::uint64_t kConstructNodes = 100'000;
std::vector<int> construct_completion(const Puzzle& p, const std::vector<SumGroup>& groups, std::uint64_t limit,
                                      std::uint64_t& nodes);

// Human name of a sum group of an order-n square ("row 2", "main diagonal").
std::string group_name(int n, const SumGroup& g);

struct CompleteSpec {
  Puzzle puzzle;
  SquareKind kind = SquareKind::Magic;
  bool exhaustive = true;  // counting / --all: tasks; false: a few completions by restarts
  // Restarts only: the nodes all attempts together may search (0: no
  // bound).  Out of it, the search gives up and the run is not exhaustive:
  // "undecided", never "no completion".
  std::uint64_t budget = 0;
};

// The restarts' default budget: none where every tree this engine has met
// is exhausted in seconds (orders 3..8); past them, enough for a minute or
// so of search.
inline constexpr int kCompleteBudgetFromOrder = 9;
inline constexpr std::uint64_t kCompleteDefaultBudget = 100'000'000;
std::uint64_t default_complete_budget(int order);  // (also in magic/spec.hpp)

// {"grid": [[...]] or "text grid", "kind": "magic", "mode": "count" | "first",
//  "budget": nodes} ("first": restarts, see above); throws SpecError.
CompleteSpec complete_spec_from_json(const nlohmann::json& spec);

}  // namespace magic
