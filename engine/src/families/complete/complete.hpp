#pragma once
// Completing a partly filled magic square: the search (complete_spec.hpp
// lists the files and their jobs).
//
// Counting and --all split the tree into tasks for the runner and search
// exhaustively.  A first completion (or a few) uses restarts instead
// (core/restarts.hpp): empty and sparse grids are heavy-tailed, one unlucky
// early choice can cost hours.  Walk 0 is the plain heuristic with a budget
// of 64 nodes; each next walk breaks ties pseudo-randomly (seeded by its
// number) with a budget 1.5 times larger, until one finds what was asked for
// or ends inside its budget (then it saw the whole tree, so no completion is
// missed).  The walks are one task, and the first completion depends only on
// the input, never on the thread count.  A walk's phases:
//
//   [hinted tree]  the kind's groups and the structure hints (while that
//                  part of the tree is not seen whole)
//   [tree]         the kind's groups
//   [local search] orders 9..16 (complete_local_search.hpp)
//
// From order 9 a first completion starts with a construction, and every
// other walk's tree splits wide domains in two (split()).
#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "complete/complete_local_search.hpp"
#include "complete/complete_spec.hpp"
#include "magic/core/error.hpp"
#include "magic/family_command.hpp"
#include "magic/core/problem.hpp"
#include "magic/core/restarts.hpp"
#include "magic/instances.hpp"
#include "square/square_most_perfect.hpp"
#include "magic/sum_groups.hpp"
#include "magic/wide_bits.hpp"

namespace magic {

template <int N, int G>
class CompleteProblem : private CompleteLocalSearch<N, G> {
  using Search = CompleteLocalSearch<N, G>;
  using Grid = CompleteGrid<N, G>;

 public:
  using typename Grid::Mask;
  using typename Grid::Solution;
  using typename Grid::State;
  using typename Grid::Value;
  using Grid::kCells;
  using Grid::kGroups;
  // Orders 9..16, first completions: a blank's candidates may be split
  // into two value ranges (split()).
  static constexpr bool kSplits = N >= 9;

  explicit CompleteProblem(const CompleteSpec& spec) : Search(spec) {}

  nlohmann::json describe() const {
    nlohmann::json rows = nlohmann::json::array();
    int givens = 0;
    for (int r = 0; r < N; ++r) {
      nlohmann::json row = nlohmann::json::array();
      for (int c = 0; c < N; ++c) {
        row.push_back(spec_.puzzle.cells[r * N + c]);
        givens += spec_.puzzle.cells[r * N + c] != 0;
      }
      rows.push_back(row);
    }
    nlohmann::json j{{"name", "complete"}, {"order", N}, {"kind", to_string(spec_.kind)}, {"givens", givens},
                     {"grid", rows}};
    if (!spec_.exhaustive && spec_.budget) j["budget"] = spec_.budget;
    return j;
  }

  // Restarts are one task: a first solution would wait for every task before it.
  static constexpr const char* kSearch = "complete/1";  // core/problem.hpp: bump on a new task tree
  static const char* describe_levels() { return kCompleteLevels; }
  Emits emits() const { return Emits::OnePerOrbit; }
  bool has_group() const { return false; }
  Solution canonical(const Solution& s) const { return s; }
  std::uint64_t orbit_size(const Solution&) const { return 1; }
  const State& root() const { return root_; }

  nlohmann::json to_json(const Solution& s) const { return grid_rows(s, N); }

  // The walks, defined below the class and not inline, so that the
  // library compiles each instance's walks once (declared extern at the
  // end of this header).
  void cut(int depth, SinkRef<State> sink) const;
  template <class Ctx>
  void solve(const State& s, Ctx& ctx) const;

  // A first completion's restarts (core/restarts.hpp): the walks' phases,
  // and one seeded, budgeted walk.
  RestartShape restart_shape() const;
  template <class Ctx>
  WalkEnd walk(const State& s, Ctx& ctx, const Walk& w, std::set<Solution>& seen) const;

 private:
  using Grid::add_hints;
  using Grid::decide;
  using Grid::digit_hint_;
  using Grid::impossible_;
  using Grid::highest;
  using Grid::line_mates_;
  using Grid::lowest;
  using Grid::mix;
  using Grid::n_all_groups_;
  using Grid::n_groups_;
  using Grid::root_;
  using Grid::seed_;
  using Grid::settle;
  using Grid::spec_;
  using typename Grid::Status;
  using Search::anneal;
  using Search::construct;
  using Search::kAnneals;
  using Search::kAnnealSteps;

  // The walks' phases (restart_shape, walk).
  enum Phase : int { kHintedTree, kTree, kLocalSearch };
  static constexpr double kFirstBudget = 64;
  // Orders 9 on: a node costs microseconds, so a task polls for a stop
  // every few nodes, not every thousand (core/task.hpp): a side restart
  // cancelled after the one before it found a completion ends at once.
  static constexpr unsigned kPollNodes = 16;
  template <class Ctx>
  static void poll_often(Ctx& ctx) {
    if constexpr (kSplits && requires { ctx.poll_every(1u); }) ctx.poll_every(kPollNodes);
  }


  // The search plus the restart's own state; with kBudget, a node-budgeted
  // attempt (exhausted: it failed).  The exhaustive search has no budget, so
  // its tasks may split (core/split.hpp).
  template <class Ctx, bool kBudget>
  struct Solver : SolveMode<Ctx, kBudget> {
    std::uint32_t attempt = 0;           // 0: the plain heuristic; else a seed for tie-breaks
    int active = 0;                      // groups in force: the kind's, or with the hints (0: the kind's)
    bool digits = false;                 // with the digit hint (see digit_hint_)
    std::set<Solution>* seen = nullptr;  // completions already emitted by earlier restarts
  };

  // Values whose base-N digits (v-1 = N*hi + lo) are new to every line
  // through the cell come first: Euler's squares (N*A + B + 1 from two
  // orthogonal Latin squares) have every digit once per line, so each line
  // sums right by itself and this is where a first completion is densest.
  // Orders 5 and 7 only: pandiagonal Latin squares exist exactly when N is
  // not divisible by 2 or 3 (other orders were not tried).
  int value_order(const State& s, int cell, Mask cands, std::array<int, kCells>& out) const {
    int n = 0;
    if constexpr (N % 2 == 1 && N % 3 != 0) {
      unsigned hi = 0, lo = 0;
      for (Mask e = line_mates_[cell] & ~s.blank; bits::any(e); e = bits::drop_low(e)) {
        const int v = s.v[bits::low(e)] - 1;
        hi |= 1u << (v / N);
        lo |= 1u << (v % N);
      }
      Mask fresh{};
      for (Mask e = cands; bits::any(e); e = bits::drop_low(e)) {
        const int v = bits::low(e);
        if (!(hi >> (v / N) & 1) && !(lo >> (v % N) & 1)) fresh |= bits::one<Mask>(v);
      }
      n = extremes_first(fresh, out.data());
      cands &= ~fresh;
    }
    return n + extremes_first(cands, out.data() + n);
  }

  // Extreme values first: they fit in the fewest places, so a wrong choice
  // shows early.  Ties (equal distance from the middle) go to the low one.
  static int extremes_first(Mask cands, int* out) {
    int n = 0;
    while (bits::any(cands)) {
      const int lo = lowest(cands), hi = highest(cands);
      const int v = 2 * hi - (kCells + 1) > (kCells + 1) - 2 * lo ? hi : lo;
      out[n++] = v;
      cands &= ~bits::one<Mask>(v - 1);
    }
    return n;
  }

  // A walk's states, one a level, kept off the stack (a state of order 16
  // is 8 KB); references to them stay valid as the deque grows.
  using Frames = std::deque<State>;
  template <class Mode>
  void dfs(const State& root, Mode& m) const {
    Frames f(1, root);
    dfs(f, 0, m);
  }
  // The child of f[level] to fill in.
  static State& child(Frames& f, std::size_t level) {
    if (f.size() == level + 1) f.emplace_back();
    f[level + 1] = f[level];
    return f[level + 1];
  }

  template <class Mode>
  void dfs(Frames& f, std::size_t level, Mode& m) const {
    State& s = f[level];
    if (m.enter(s.depth, false, s)) return;
    std::uint32_t attempt = 0;
    int active = n_groups_;
    bool digits = false;
    if constexpr (!Mode::kExpand) {
      attempt = m.attempt;
      if (m.active) active = m.active;
      digits = m.digits;
    }
    int cell = -1;
    Mask cands{};
    switch (settle(s, attempt, active, digits, cell, cands)) {
      case Status::Dead:
        return;
      case Status::Solved:
        if constexpr (Mode::kExpand) {
          m.sink(s, true);
        } else if (!m.seen || m.seen->insert(s.v).second) {
          m.emit(s.v);
        }
        return;
      case Status::Branch:
        break;
    }
    if constexpr (kSplits && !Mode::kExpand)
      if (!spec_.exhaustive && m.attempt % 2 == 0 && bits::pop(cands) > kSplitAbove)
        return split(f, level, cell, cands, m);
    std::array<int, kCells> order;
    const int n = value_order(s, cell, cands, order);
    for (int i = 0; i < n; ++i) {
      State& t = child(f, level);
      decide(t, cell, order[i], digits);
      ++t.depth;
      dfs(f, level + 1, m);
      if (m.aborted()) return;
    }
  }

  // Orders 9..16, first completions, every other restart: a blank with
  // more than kSplitAbove candidates is split at its median candidate (the
  // lower half first, or the attempt's pick) instead of being tried value
  // by value, so that the line sums' bounds prune each half (Gecode's
  // branching for this model).  It wins on most dense grids and loses on
  // some, hence the alternation.  Counting never splits: its task tree
  // stays as it was.
  static constexpr int kSplitAbove = 8;
  template <class Mode>
  void split(Frames& f, std::size_t level, int cell, const Mask& cands, Mode& m) const {
    Mask lower = cands;
    for (int k = bits::pop(cands) / 2; k > 0; --k) lower = bits::drop_high(lower);
    const Mask halves[2] = {lower, cands & ~lower};
    const unsigned first = m.attempt ? mix(seed_ + m.attempt, f[level].depth, cell) & 1 : 0;
    for (unsigned i = 0; i < 2; ++i) {
      State& t = child(f, level);
      t.cand[cell] = halves[first ^ i];
      t.touched |= bits::one<Mask>(cell);
      ++t.depth;
      dfs(f, level + 1, m);
      if (m.aborted()) return;
    }
  }
};

template <int N, int G>
void CompleteProblem<N, G>::cut(int depth, SinkRef<State> sink) const {
  if (impossible_) return;
  if (!spec_.exhaustive) {
    sink(root_, true);  // restarts are one serial task
    return;
  }
  ExpandMode<State> ex{sink, depth};
  dfs(root_, ex);
}

template <int N, int G>
template <class Ctx>
void CompleteProblem<N, G>::solve(const State& s, Ctx& ctx) const {
  poll_often(ctx);
  if (spec_.exhaustive) {
    Solver<Ctx, false> sv{{ctx}};
    dfs(s, sv);
    return;
  }
  // `seen` keeps a completion found again by a later walk from being
  // emitted twice.
  std::set<Solution> seen;
  if constexpr (kAnneals) {
    if (const std::optional<Solution> built = construct(ctx)) {
      Solver<Ctx, true> sv{{ctx}, 0, n_groups_, false, &seen};
      seen.insert(*built);
      sv.emit(*built);
    }
    if (ctx.aborted()) return;
  }
  run_restarts(*this, s, ctx, seen);
}

// Every walk has the tree; the hinted tree comes first while there are hints
// (the first walks start there), and orders 9..16 end with the local search,
// kAnnealSteps steps a node of budget.
template <int N, int G>
RestartShape CompleteProblem<N, G>::restart_shape() const {
  RestartShape shape;
  shape.first = kFirstBudget;
  shape.grow = 1.5;
  shape.total = spec_.budget;
  shape.weight = {1, 1, kAnnealSteps, 0};
  shape.phases = kAnneals ? 3 : 2;
  shape.start = n_all_groups_ > n_groups_ || digit_hint_ ? kHintedTree : kTree;
  return shape;
}

// One walk: the hinted tree, the tree, then the local search, the phases
// w plans.  The local search comes after the trees: a dense grid's tree
// mostly finds the completion first, and then the local search costs nothing.
template <int N, int G>
template <class Ctx>
WalkEnd CompleteProblem<N, G>::walk(const State& s, Ctx& ctx, const Walk& w, std::set<Solution>& seen) const {
  WalkEnd e;
  if (w.runs(kHintedTree)) {
    Solver<Ctx, true> sv{{ctx, w.nodes[kHintedTree]}, w.index, n_all_groups_, digit_hint_, &seen};
    dfs(s, sv);
    if (ctx.aborted()) return e.ended = true, e;
    e.drop_first = !sv.exhausted;  // the structured part of the tree is done
  }
  if (!w.runs(kTree)) return e;
  Solver<Ctx, true> sv{{ctx, w.nodes[kTree]}, w.index, n_groups_, false, &seen};
  dfs(s, sv);
  if (ctx.aborted() || !sv.exhausted) return e.ended = true, e;
  if constexpr (kAnneals) {
    if (!w.runs(kLocalSearch)) return e;
    Solver<Ctx, true> la{{ctx}, w.index, n_groups_, false, &seen};
    anneal(s, w.nodes[kLocalSearch], w.index, ctx, la);
    if (ctx.aborted()) return e.ended = true, e;
  }
  return e;
}

static_assert(Problem<CompleteProblem<3, 4 * 3 + 8>>);

// Group capacities: plain lines (rows, columns, (broken) diagonals and a few
// implied groups), the rich kinds with pairs and 2x2 blocks, or those with
// the odd rectangles too.
template <int N>
inline constexpr int kCompleteLineGroups = 4 * N + 8;
template <int N>
inline constexpr int kCompleteRichGroups = 4 * N + 3 * N * N / 2 + 8;
// Doubly even first completions also carry the odd rectangles (structure_hints).
template <int N>
inline constexpr int kCompleteHintedGroups = kCompleteRichGroups<N> + N * N * N * N / 16 - N * N;

// Calls f(problem) with the instantiation that fits the spec; returns its result.
template <class F>
decltype(auto) with_complete_problem(const CompleteSpec& spec, F&& f) {
  // Pandiagonal first completions carry their structure hints (structure_hints).
  const bool rich = spec.kind == SquareKind::Associative || spec.kind == SquareKind::MostPerfect ||
                    (spec.kind == SquareKind::Pandiagonal && !spec.exhaustive);
  // The odd rectangles up to order 8 (at order 16 they are 4,000 groups).
  const bool rectangles = !spec.exhaustive && spec.puzzle.order % 4 == 0 &&
                          (spec.kind == SquareKind::MostPerfect || spec.kind == SquareKind::Pandiagonal);
  auto pick = [&]<int N>(std::integral_constant<int, N>) -> decltype(auto) {
    if constexpr (N % 4 == 0 && N <= 8)
      if (rectangles) return f(CompleteProblem<N, kCompleteHintedGroups<N>>(spec));
    if (rich) return f(CompleteProblem<N, kCompleteRichGroups<N>>(spec));
    return f(CompleteProblem<N, kCompleteLineGroups<N>>(spec));
  };
  switch (spec.puzzle.order) {
    case 3: return pick(std::integral_constant<int, 3>{});
    case 4: return pick(std::integral_constant<int, 4>{});
    case 5: return pick(std::integral_constant<int, 5>{});
    case 6: return pick(std::integral_constant<int, 6>{});
    case 7: return pick(std::integral_constant<int, 7>{});
    case 8: return pick(std::integral_constant<int, 8>{});
    case 9: return pick(std::integral_constant<int, 9>{});
    case 10: return pick(std::integral_constant<int, 10>{});
    case 11: return pick(std::integral_constant<int, 11>{});
    case 12: return pick(std::integral_constant<int, 12>{});
    case 13: return pick(std::integral_constant<int, 13>{});
    case 14: return pick(std::integral_constant<int, 14>{});
    case 15: return pick(std::integral_constant<int, 15>{});
    case 16: return pick(std::integral_constant<int, 16>{});
  }
  check_puzzle(spec.puzzle, spec.kind);  // names what is wrong with the order
  throw SpecError("unsupported order");
}

// The registry's entry (magic/registry.hpp).
struct CompleteFamily {
  static constexpr const char* kName = "complete";
  static constexpr Picture kPicture = Picture::Grid;
  static std::string levels_help() { return kCompleteLevels; }
  static FamilyCommand command();  // complete.cpp; apps/cmd_complete.cpp adds the grid and the modes
  static const char* field_values(const std::string& field) { return field == "kind" ? kSquareKindNames : nullptr; }
  static bool is_field_value(const std::string& field, const std::string& v) {
    return field == "kind" && parse_square_kind(v).has_value();
  }
  // A kind with no square of the grid's order (most-perfect 6x6, say).
  static std::string no_solution_reason(const nlohmann::json& spec) {
    const CompleteSpec s = complete_spec_from_json(spec);
    check_puzzle(s.puzzle, s.kind);
    return impossible_reason(s.puzzle.order, s.kind);
  }
  template <class F>
  static decltype(auto) visit(const nlohmann::json& spec, F&& f) {
    const CompleteSpec s = complete_spec_from_json(spec);
    // Counting an empty most-perfect 8x8 grid is counting the squares:
    // square_most_perfect.hpp's search, emitting every one of them.
    if (s.exhaustive && s.kind == SquareKind::MostPerfect && s.puzzle.order == 8 &&
        std::all_of(s.puzzle.cells.begin(), s.puzzle.cells.end(), [](std::int64_t v) { return v == 0; })) {
      const nlohmann::json zeros = nlohmann::json::array({0, 0, 0, 0, 0, 0, 0, 0});
      return f(MostPerfect8Problem(MostPerfect8Problem::Emit::Images,
                                   {{"name", "complete"}, {"order", 8}, {"kind", "most-perfect"}, {"givens", 0},
                                    {"grid", nlohmann::json::array({zeros, zeros, zeros, zeros, zeros, zeros, zeros, zeros})}}));
    }
    return with_complete_problem(s, f);
  }
  // "first" means one completion unless the run asks for more.
  static std::uint64_t default_limit(const nlohmann::json& spec) {
    return spec.value("mode", "count") == "first" ? 1 : 0;
  }
};

}  // namespace magic

// ---- the instances the library compiles (magic/instances.hpp) -------------
// The complete problem's instances (with_complete_problem): every order with
// its plain lines and with the rich groups, and order 8 with the odd
// rectangles too (order 4 has none: its hinted capacity is the rich one).
#define MAGIC_COMPLETE_INSTANCES(X)                                                        \
  X(3, kCompleteLineGroups<3>) X(3, kCompleteRichGroups<3>) X(4, kCompleteLineGroups<4>)   \
  X(4, kCompleteRichGroups<4>) X(5, kCompleteLineGroups<5>) X(5, kCompleteRichGroups<5>)   \
  X(6, kCompleteLineGroups<6>) X(6, kCompleteRichGroups<6>) X(7, kCompleteLineGroups<7>)   \
  X(7, kCompleteRichGroups<7>) X(8, kCompleteLineGroups<8>) X(8, kCompleteRichGroups<8>)   \
  X(8, kCompleteHintedGroups<8>)
// Orders 9..16, with wide masks (wide_bits.hpp): compiled in their own unit.
#define MAGIC_COMPLETE_WIDE_INSTANCES(X)                                                    \
  X(9, kCompleteLineGroups<9>) X(9, kCompleteRichGroups<9>) X(10, kCompleteLineGroups<10>) \
  X(10, kCompleteRichGroups<10>) X(11, kCompleteLineGroups<11>) X(11, kCompleteRichGroups<11>) \
  X(12, kCompleteLineGroups<12>) X(12, kCompleteRichGroups<12>) X(13, kCompleteLineGroups<13>) \
  X(13, kCompleteRichGroups<13>) X(14, kCompleteLineGroups<14>) X(14, kCompleteRichGroups<14>) \
  X(15, kCompleteLineGroups<15>) X(15, kCompleteRichGroups<15>) X(16, kCompleteLineGroups<16>) \
  X(16, kCompleteRichGroups<16>)
#define MAGIC_RUN_COMPLETE(N, G) MAGIC_SEARCH_AS(, CompleteProblem<N, G>)
#define MAGIC_EXTERN_RUN_COMPLETE(N, G) MAGIC_SEARCH_AS(extern, CompleteProblem<N, G>)

namespace magic {
static_assert(kCompleteMinOrder == 3 && kCompleteMaxOrder == 16 && kCompleteHintedGroups<4> == kCompleteRichGroups<4>,
              "MAGIC_COMPLETE_INSTANCES and MAGIC_COMPLETE_WIDE_INSTANCES must list every instance");
MAGIC_COMPLETE_INSTANCES(MAGIC_EXTERN_RUN_COMPLETE)
MAGIC_COMPLETE_WIDE_INSTANCES(MAGIC_EXTERN_RUN_COMPLETE)
}  // namespace magic
