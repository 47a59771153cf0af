#pragma once
// Completing a partly filled magic square (seed 004, the CheckiO task).
//
// Blank cells (0) get the missing values of 1..N² so that every sum group of
// the chosen kind (rows, columns, diagonals, ...) hits its target.  The count
// is of completions of *this* grid: there is no symmetry group, every
// completion is emitted exactly once.
//
// Search.  Candidates are bitmasks (bit v-1: value v; 64-bit words up to
// order 8, wider sets past it: wide_bits.hpp) and all-different holds over
// the whole grid.  At every node `settle` runs to a
// fixed point:
//
//   group g, k blanks, rest = target - placed sum; each blank gets
//     rest - (others' largest) <= v <= rest - (others' smallest)
//     where "others' largest" is the smaller of the other blanks' maxima
//     and the k-1 largest values any of them can hold (min likewise);
//     with k = 2 or 3 a candidate also needs a supporting sum of the others.
//     k = 1 is the last free cell of a line: it is forced.
//   a blank with one candidate        -> place it
//   two blanks needing the same value -> dead end
//   a free value no blank can take    -> dead end (all N² values are used)
//   a free value only one blank takes -> place it there
//
// then branches on the blank with the fewest candidates (most groups, then
// lowest index on ties), extreme values first.
//
// Modes.  Counting and --all split the tree into tasks for the runner and
// search exhaustively.  A first completion (or a few) uses restarts instead:
// empty and sparse grids are heavy-tailed, one unlucky early choice can cost
// hours.  Attempt 0 is the plain heuristic with a budget of 64 nodes; each
// next attempt breaks ties pseudo-randomly (seeded by the attempt number)
// with a budget 1.5 times larger, until one finds what was asked for or ends
// inside its budget (then it saw the whole tree, so no completion is
// missed).  The attempts are one task; each one's budgets are planned from
// its number, not from the nodes the earlier ones used, so on more
// threads several run side by side and their
// results are taken in order (restarts_side_by_side): the first completion
// depends only on the input, never on the thread count.  From order 9 a
// first completion starts with a construction (construct_completion), each
// restart runs a local search after its tree, and every other restart's
// tree splits wide domains in two (split()).
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "magic/core/error.hpp"
#include "magic/core/problem.hpp"
#include "magic/instances.hpp"
#include "square/square_most_perfect.hpp"
#include "magic/sum_groups.hpp"
#include "magic/wide_bits.hpp"

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

// The other threads of a first completion's restarts side by side
// (complete.cpp): `lanes` oneTBB tasks that stay for the whole search and
// wait between rounds by spinning and short timed sleeps, never woken by
// the search.  Why: on a virtual machine an idle core looks busy to the
// kernel, so a sleeping worker woken by the search was queued on the
// search's own core, and each side restart began only when the restart
// beside it had ended.
//
// round() runs first() here and side(k), k < n <= lanes, on the lanes, and
// returns once all have ended.  When first() returns true the sides are not
// needed: cancel() is called, and so it is when stopped() turns true while
// this waits.  A side no lane has taken when this waits runs here (skipped
// when not needed), so a round ends even with no worker free.  An exception
// from first() or a side cancels the round, waits for it and propagates.
class SideLanes {
 public:
  explicit SideLanes(std::size_t lanes);
  ~SideLanes();  // ends the lanes and waits for them
  SideLanes(const SideLanes&) = delete;
  SideLanes& operator=(const SideLanes&) = delete;
  void round(std::size_t n, const std::function<void(std::size_t)>& side, const std::function<bool()>& first,
             const std::function<bool()>& stopped, const std::function<void()>& cancel);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};
int threads_here();  // the threads of the arena this runs in

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

template <int N, int G>
class CompleteProblem {
 public:
  static constexpr int kCells = N * N;
  static constexpr int kGroups = G;
  // Values and cells as bits: one word up to order 8, wider past it.
  using Mask = bits::MaskFor<kCells>;
  using Value = std::conditional_t<(kCells <= 255), std::uint8_t, std::uint16_t>;
  using Solution = std::array<Value, kCells>;
  // Orders 9..16, first completions: a blank's candidates may be split
  // into two value ranges (split()).
  static constexpr bool kSplits = N >= 9;
  // A node's candidates are its parent's fixed point narrowed by the
  // decision, so settle re-narrows only the groups the decision touched
  // (the fixed point is the same as from scratch: every rule only narrows).
  struct State {
    std::array<Value, kCells> v;        // 0 = blank
    std::array<Mask, kCells> cand;      // a blank's candidates so far (unless fresh)
    std::array<std::int16_t, G> rest;   // target minus the sum placed so far
    std::array<std::uint8_t, G> left;   // blank cells of the group
    Mask free;                          // bit v-1: value v still to be placed
    Mask blank;                         // bit c: cell c is blank
    Mask touched;                       // bit c: cell c placed or narrowed since the last fixed point
    std::uint16_t depth;                // branching decisions taken
    bool fresh;                         // cand not built yet (the root's)
  };
  static_assert(std::is_trivially_copyable_v<State>);

  explicit CompleteProblem(const CompleteSpec& spec) : spec_(spec) {
    if (spec.puzzle.order != N) throw SpecError("order mismatch");
    auto groups = check_puzzle(spec.puzzle, spec.kind);
    if (static_cast<int>(groups.size()) > G) throw std::logic_error("too many sum groups for this instantiation");
    n_groups_ = static_cast<int>(groups.size());
    if (!spec.exhaustive && kAnneals) kind_groups_ = groups;
    paired_ = spec.kind == SquareKind::Associative;
    if (!spec.exhaustive) add_hints(groups, structure_hints(N, spec.kind));
    n_all_groups_ = static_cast<int>(groups.size());
    cell_groups_.fill({});
    n_cell_groups_.fill(0);
    root_ = State{};
    root_.fresh = true;
    for (int g = 0; g < n_all_groups_; ++g) {
      for (int c : groups[g].cells) {
        if (n_cell_groups_[c] == kMaxPerCell) throw std::logic_error("cell in too many sum groups");
        cell_groups_[c][n_cell_groups_[c]++] = static_cast<GroupIx>(g);
        group_cells_[g] |= bits::one<Mask>(c);
      }
      root_.rest[g] = static_cast<std::int16_t>(groups[g].target);
      root_.left[g] = static_cast<std::uint8_t>(groups[g].cells.size());
    }
    root_.free = all_values();
    root_.blank = all_values();
    for (int c = 0; c < kCells; ++c)
      if (spec.puzzle.cells[c] != 0) place(root_, c, static_cast<int>(spec.puzzle.cells[c]));
    impossible_ = !impossible_reason(N, spec.kind).empty();
    // A full hint group the givens break is never narrowed again (settle
    // skips full groups), so it must be caught here.
    for (int g = n_groups_; g < n_all_groups_; ++g)
      if (root_.rest[g] < 0 || (root_.left[g] == 0 && root_.rest[g] != 0)) n_all_groups_ = n_groups_;
    seed_ = grid_seed(spec);
    for (int c = 0; c < kCells; ++c)
      for (int i = 0; i < n_cell_groups_[c]; ++i)
        if (const int g = cell_groups_[c][i]; g < n_groups_ && bits::pop(group_cells_[g]) == N)
          line_mates_[c] |= group_cells_[g];
    for (int c = 0; c < kCells; ++c) line_mates_[c] &= ~bits::one<Mask>(c);
    for (int v = 0; v < kCells; ++v)
      for (int w = 0; w < kCells; ++w)
        if (v / N == w / N || v % N == w % N) shares_digit_[v] |= bits::one<Mask>(w);
    digit_hint_ = !spec.exhaustive && spec.kind == SquareKind::Pandiagonal && N % 2 == 1 && N % 3 != 0 &&
                  digits_fit_givens();
  }

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

  // The two walks, defined below the class and not inline, so that the
  // library compiles each instance's walks once (declared extern at the
  // end of this header).
  void cut(int depth, SinkRef<State> sink) const;
  template <class Ctx>
  void solve(const State& s, Ctx& ctx) const;

 private:
  static constexpr int kMaxPerCell = 24;
  using GroupIx = std::conditional_t<(G > 255), std::uint16_t, std::uint8_t>;
  static constexpr double kFirstBudget = 64;
  // Orders 9 on: each restart runs the local search after its tree, with
  // this many steps per node of the tree's attempt.  A node with 128-bit
  // masks (orders 9..11) costs about a third of what it did with two 64-bit
  // words, when 64 steps were tuned, so it buys a quarter of the steps: the
  // local search's share of the time stays about as it was.  Fewer steps
  // favour dense grids (the tree finds them), more favour sparse ones
  // (associative 16x16 needs 64).
  static constexpr bool kAnneals = N >= 9;
  static constexpr std::uint64_t kAnnealSteps = std::is_same_v<Mask, bits::U128> ? 16 : 64;
  // Orders 9 on: a node costs microseconds, so a task polls for a stop
  // every few nodes, not every thousand (core/task.hpp): a side restart
  // cancelled after the one before it found a completion ends at once.
  static constexpr unsigned kPollNodes = 16;
  template <class Ctx>
  static void poll_often(Ctx& ctx) {
    if constexpr (kSplits && requires { ctx.poll_every(1u); }) ctx.poll_every(kPollNodes);
  }
  static constexpr int kWidth = bits::kWidth<Mask>;
  static Mask all_values() { return bits::lowest<Mask>(kCells); }

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

  enum class Status { Dead, Solved, Branch };

  // One restart, planned before it runs: its number, whether it starts
  // with the hinted tree, and the budgets of its phases (hinted tree, tree,
  // local search).  The budgets follow from the number and from the nodes
  // planned for the restarts before it, not from the nodes they used, so
  // restarts can run side by side and still get what they would one after
  // another.  `phases` short of all: the whole search's budget runs out
  // there, and the search gives up after them.
  struct Restart {
    std::uint32_t index = 0;
    bool hinted = false;
    std::uint64_t hint_nodes = 0, tree_nodes = 0, steps = 0;
    int phases = 0, wanted = 0;
    std::uint64_t planned_after = 0;  // nodes planned up to its end
    bool whole() const { return phases == wanted; }
  };
  struct Outcome {
    bool ended = false;      // the search ends here: a completion, a stop, or a tree seen whole
    bool gave_up = false;    // out of the whole search's budget
    bool hint_done = false;  // the hinted tree was seen whole: later restarts skip it
  };
  Restart plan_restart(std::uint32_t index, bool hinted, std::uint64_t planned) const;
  template <class Ctx>
  Outcome run_restart(const State& s, Ctx& ctx, const Restart& r, std::set<Solution>& seen) const;
  template <class Ctx>
  void restarts(const State& s, Ctx& ctx, std::set<Solution>& seen) const;
  template <class Ctx>
  void restarts_side_by_side(const State& s, Ctx& ctx, std::set<Solution>& seen, int width) const;

  void place(State& s, int c, int v) const {
    s.v[c] = static_cast<Value>(v);
    s.free &= ~bits::one<Mask>(v - 1);
    s.blank &= ~bits::one<Mask>(c);
    for (int i = 0; i < n_cell_groups_[c]; ++i) {
      const int g = cell_groups_[c][i];
      s.rest[g] = static_cast<std::int16_t>(s.rest[g] - v);
      --s.left[g];
    }
  }

  // Values lo..hi (1-based, clamped) as a mask.
  static Mask window(int lo, int hi) { return bits::window<Mask>(std::max(lo, 1) - 1, std::min(hi, kCells) - 1); }

  static int lowest(const Mask& m) { return bits::low(m) + 1; }
  static int highest(const Mask& m) { return bits::high(m) + 1; }

  // Marks the groups through cell c for narrowing.
  void mark_groups(int c, std::array<std::uint8_t, G>& dirty) const {
    for (int i = 0; i < n_cell_groups_[c]; ++i) dirty[cell_groups_[c][i]] = 1;
  }

  // Narrows the blanks of group g; returns false on a dead end.  Narrowed
  // cells mark their groups dirty.
  //
  //   bounds:  a blank gets what the group still needs after the other k-1
  //            blanks take their largest / smallest candidates, or the k-1
  //            largest / smallest values any of them can hold (distinct).
  //   support: with 2 or 3 blanks, a candidate stays only if the others can
  //            make up the rest from their candidates (sum sets as bitmasks).
  bool narrow_group(const State& s, int g, std::array<Mask, kCells>& cand,
                    std::array<std::uint8_t, G>& dirty, bool& any_dirty) const {
    const int k = s.left[g];
    const int rest = s.rest[g];
    const Mask cells = group_cells_[g] & s.blank;
    auto narrowed = [&](int c, const Mask& m) {
      cand[c] = m;
      mark_groups(c, dirty);
      any_dirty = true;
    };
    int smin = 0, smax = 0;
    Mask uni{};
    for (Mask e = cells; bits::any(e); e = bits::drop_low(e)) {
      const Mask& m = cand[bits::low(e)];
      smin += lowest(m);
      smax += highest(m);
      uni |= m;
    }
    if (smin > rest || smax < rest || bits::pop(uni) < k) return false;
    int ulow = 0, uhigh = 0;
    Mask a = uni, b = uni;
    for (int j = 1; j < k; ++j) {
      ulow += lowest(a);
      uhigh += highest(b);
      a = bits::drop_low(a);
      b = bits::drop_high(b);
    }
    for (Mask e = cells; bits::any(e); e = bits::drop_low(e)) {
      const int c = bits::low(e);
      const Mask old = cand[c];
      const int others_min = std::max(smin - lowest(old), ulow);
      const int others_max = std::min(smax - highest(old), uhigh);
      const Mask m = old & window(rest - others_max, rest - others_min);
      if (m == old) continue;
      if (!bits::any(m)) return false;
      smin += lowest(m) - lowest(old);
      smax += highest(m) - highest(old);
      narrowed(c, m);
    }
    if (k > 3 || k < 2) return true;
    int c[3], n = 0;
    Mask rev[3];  // bit kWidth - v: v is a candidate (mirrored masks turn sums into shifts)
    for (Mask e = cells; bits::any(e); e = bits::drop_low(e)) {
      c[n] = bits::low(e);
      rev[n] = bits::reversed(cand[c[n]]);
      ++n;
    }
    for (int i = 0; i < k; ++i) {
      Mask ok{};  // values v for which the others can make rest - v
      if (k == 2) {
        ok = bits::shifted(rev[1 - i], rest - kWidth - 1);  // v = rest - z
        if (rest % 2 == 0 && rest >= 2 && rest / 2 <= kCells) ok &= ~bits::one<Mask>(rest / 2 - 1);  // z != v
      } else {
        const int j = i == 0 ? 1 : 0, l = i == 2 ? 1 : 2;
        for (Mask f = cand[c[j]]; bits::any(f); f = bits::drop_low(f)) {  // v = rest - y - z, z != y
          const int y = bits::low(f) + 1;
          ok |= bits::shifted(rev[l] & ~bits::one<Mask>(kWidth - y), rest - y - kWidth - 1);
        }
      }
      const Mask keep = cand[c[i]] & ok;
      if (!bits::any(keep)) return false;
      if (keep != cand[c[i]]) {
        narrowed(c[i], keep);
        rev[i] = bits::reversed(keep);
      }
    }
    return true;
  }

  // Propagates to a fixed point; on Branch, `cell` and `cands` say where.
  Status settle(State& s, std::uint32_t attempt, int active, bool digits, int& cell, Mask& cands) const {
    std::array<Mask, kCells>& cand = s.cand;
    std::array<std::uint8_t, G> dirty{};
    if (s.fresh) {
      build_candidates(s, digits);
      for (int g = 0; g < active; ++g) dirty[g] = s.left[g] > 0;
    } else {
      for (Mask e = s.touched; bits::any(e); e = bits::drop_low(e)) {
        const int c = bits::low(e);  // a narrowed blank, or the decision's cell (its groups' sums moved)
        if (bits::test(s.blank, c) && !bits::any(cand[c])) return Status::Dead;  // emptied by the decision
        mark_groups(c, dirty);
      }
    }
    s.touched = Mask{};
    bool any_dirty = true;
    for (;;) {
      if (!bits::any(s.blank)) return Status::Solved;
      while (any_dirty) {
        any_dirty = false;
        for (int g = 0; g < active; ++g) {
          if (!dirty[g]) continue;
          dirty[g] = 0;
          if (s.left[g] && !narrow_group(s, g, cand, dirty, any_dirty)) return Status::Dead;
        }
      }
      // Naked singles: place them all at once.
      Mask once{}, twice{}, placed{};
      for (Mask e = s.blank; bits::any(e); e = bits::drop_low(e)) {
        const int c = bits::low(e);
        const Mask m = cand[c];
        if (!bits::any(m)) return Status::Dead;  // emptied by a digit placed in this pass
        if (!bits::single(m)) {
          twice |= once & m;
          once |= m;
          continue;
        }
        if (bits::any(placed & m)) return Status::Dead;  // two cells need the same value
        placed |= m;
        place(s, c, lowest(m));
        mark_groups(c, dirty);
        any_dirty = true;
        if (digits)
          drop_digits(s, c, [&](int d) { mark_groups(d, dirty); });
      }
      if (bits::any(placed)) {
        for (Mask e = s.blank; bits::any(e); e = bits::drop_low(e)) {
          const int c = bits::low(e);
          if (!bits::any(cand[c] & placed)) continue;
          cand[c] &= ~placed;
          if (!bits::any(cand[c])) return Status::Dead;
          mark_groups(c, dirty);
        }
        continue;
      }
      if (once != s.free) return Status::Dead;  // a value with no place left
      // Hidden singles: a value with one place left goes there.
      if (const Mask hidden = once & ~twice; bits::any(hidden)) {
        for (Mask e = s.blank; bits::any(e); e = bits::drop_low(e)) {
          const int c = bits::low(e);
          const Mask m = cand[c] & hidden;
          if (!bits::any(m)) continue;
          if (!bits::single(m)) return Status::Dead;  // one cell, two values
          cand[c] = m;
          mark_groups(c, dirty);
        }
        any_dirty = true;
        continue;
      }
      // Branch on the fewest candidates, then the most groups (diagonal
      // cells); further ties by index, or pseudo-randomly in restarts.
      std::uint32_t best_key = ~std::uint32_t{0};
      for (Mask e = s.blank; bits::any(e); e = bits::drop_low(e)) {
        const int c = bits::low(e);
        const std::uint32_t key =
            static_cast<std::uint32_t>(bits::pop(cand[c]) * 32 + (31 - n_cell_groups_[c])) << 16 |
            (attempt ? mix(seed_ + attempt, s.depth, c) & 0xffff : static_cast<std::uint32_t>(c));
        if (key < best_key) {
          best_key = key;
          cell = c;
        }
      }
      cands = cand[cell];
      return Status::Branch;
    }
  }

  // The root's candidates: the free values, less (with the digit hint)
  // those sharing a digit with a given on a line through the cell.
  void build_candidates(State& s, bool digits) const {
    for (Mask e = s.blank; bits::any(e); e = bits::drop_low(e)) {
      const int c = bits::low(e);
      s.cand[c] = s.free;
      if (digits)
        for (Mask p = line_mates_[c] & ~s.blank; bits::any(p); p = bits::drop_low(p))
          s.cand[c] &= ~shares_digit_[s.v[bits::low(p)] - 1];
    }
    s.fresh = false;
  }

  // The digit hint: the blanks on a line through c lose the values sharing
  // a digit with c's (an emptied one is caught by the caller).  Each one
  // narrowed is passed to `narrowed`.
  template <class F>
  void drop_digits(State& s, int c, F&& narrowed) const {
    const Mask gone = shares_digit_[s.v[c] - 1];
    for (Mask e = line_mates_[c] & s.blank; bits::any(e); e = bits::drop_low(e)) {
      const int d = bits::low(e);
      if (!bits::any(s.cand[d] & gone)) continue;
      s.cand[d] &= ~gone;
      narrowed(d);
    }
  }

  // A branching decision: cell c takes v, which leaves the other blanks'
  // candidates; what it narrows is settled by the child's settle.
  void decide(State& s, int c, int v, bool digits) const {
    place(s, c, v);
    s.touched |= bits::one<Mask>(c);
    const Mask bit = bits::one<Mask>(v - 1);
    for (Mask e = s.blank; bits::any(e); e = bits::drop_low(e)) {
      const int d = bits::low(e);
      if (!bits::any(s.cand[d] & bit)) continue;
      s.cand[d] &= ~bit;
      s.touched |= bits::one<Mask>(d);
    }
    if (digits) drop_digits(s, c, [&](int d) { s.touched |= bits::one<Mask>(d); });
  }

  static std::uint32_t mix(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
    std::uint64_t z = a * 0x9E3779B97F4A7C15ull + b * 0xBF58476D1CE4E5B9ull + c * 0x94D049BB133111EBull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return static_cast<std::uint32_t>(z ^ (z >> 31));
  }

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

  // ---- Local search (orders 9..16, first completions) ----------------------
  //
  // The tree's restarts alone find a first completion of a sparse grid of
  // order 9 or more only by luck.  Between them runs a local search: the
  // blanks hold a permutation of the values still free, the cost is the sum
  // of |sum - target| over the kind's groups, and a step swaps the values
  // of two blanks.  A step picks a group off its sum and a blank c in it,
  // and swaps c with the blank that holds the value c would need to put the
  // group right (else, one time in eight or when no blank holds it, with a
  // random blank); it keeps a swap that does not raise the cost, and one
  // that does with probability exp(-rise / T), T falling linearly to 0
  // over the attempt (simulated annealing).  It finds completions, never
  // proves there is none: that is the tree's.  Seeded by the grid and the
  // attempt, so the first completion depends only on the input.
  struct Rng {
    std::uint64_t x;
    std::uint64_t next() {
      x += 0x9E3779B97F4A7C15ull;
      std::uint64_t z = x;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      return z ^ (z >> 31);
    }
    int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
    double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  };
  struct Annealing {
    std::array<int, kCells> at{};          // the value by cell
    std::array<int, kCells + 1> where{};   // the cell by value
    std::array<int, kCells> slot{};        // a blank's index in `blanks`, or -1 (a given)
    std::vector<int> blanks;
    std::vector<std::vector<int>> group_blanks;
    std::vector<int> err;                  // each group's sum minus its target
    long cost = 0;
    bool paired = false;                   // mirrored blanks move in pairs (fill_paired)
  };
  static constexpr int kAnnealRandomSwap = 8;  // one step in 8 swaps with a random blank

  Annealing anneal_start(const State& s, Rng& rng) const {
    Annealing a;
    for (int c = 0; c < kCells; ++c) a.at[c] = s.v[c];
    a.paired = paired_ && fill_paired(s, a, rng);
    if (!a.paired) {
      a.blanks.clear();
      for (int c = 0; c < kCells; ++c) a.at[c] = s.v[c];
      fill_plain(s, a, rng);
    }
    a.slot.fill(-1);
    for (std::size_t i = 0; i < a.blanks.size(); ++i) a.slot[a.blanks[i]] = static_cast<int>(i);
    for (int c = 0; c < kCells; ++c) a.where[a.at[c]] = c;
    a.group_blanks.resize(static_cast<std::size_t>(n_groups_));
    a.err.assign(static_cast<std::size_t>(n_groups_), 0);
    for (int g = 0; g < n_groups_; ++g) {
      a.err[g] = -s.rest[g];
      for (Mask e = group_cells_[g] & s.blank; bits::any(e); e = bits::drop_low(e)) {
        const int c = bits::low(e);
        a.err[g] += a.at[c];
        if (a.slot[c] >= 0) a.group_blanks[g].push_back(c);
      }
      a.cost += std::abs(a.err[g]);
    }
    return a;
  }

  // Fisher-Yates, with the search's own generator (determinism).
  static void shuffle(std::vector<int>& v, Rng& rng) {
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.below(static_cast<int>(i))]);
  }

  // The blanks' first values: the free values in random order.
  static void fill_plain(const State& s, Annealing& a, Rng& rng) {
    std::vector<int> values;
    for (Mask e = s.blank; bits::any(e); e = bits::drop_low(e)) a.blanks.push_back(bits::low(e));
    for (Mask e = s.free; bits::any(e); e = bits::drop_low(e)) values.push_back(bits::low(e) + 1);
    shuffle(values, rng);
    for (std::size_t i = 0; i < a.blanks.size(); ++i) a.at[a.blanks[i]] = values[i];
  }

  // Associative squares: a blank whose mirror cell is given (and the
  // centre) gets its forced value and never moves; mirrored blanks get
  // complementary pairs of the free values, in random order and
  // orientation, and move in pairs (anneal), so that the pair groups stay
  // met.  false when the free values do not pair up (then fill_plain).
  static bool fill_paired(const State& s, Annealing& a, Rng& rng) {
    Mask free = s.free;
    std::vector<int> pairs;  // c < mirror(c), both blank
    const auto take = [&](int c, int v) {
      if (!bits::test(free, v - 1)) return false;
      a.at[c] = v;
      free &= ~bits::one<Mask>(v - 1);
      return true;
    };
    for (Mask e = s.blank; bits::any(e); e = bits::drop_low(e)) {
      const int c = bits::low(e), m = kCells - 1 - c;
      if (!bits::test(s.blank, m)) {
        if (!take(c, kCells + 1 - s.v[m])) return false;
      } else if (c == m) {
        if (!take(c, (kCells + 1) / 2)) return false;
      } else if (c < m) {
        pairs.push_back(c);
      }
    }
    std::vector<int> lows;
    for (Mask e = free; bits::any(e); e = bits::drop_low(e)) {
      const int v = bits::low(e) + 1;
      if (!bits::test(free, kCells - v)) return false;  // kCells + 1 - v is not free
      if (2 * v < kCells + 1) lows.push_back(v);
    }
    if (lows.size() != pairs.size()) return false;
    shuffle(lows, rng);
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const int c = pairs[i], v = rng.below(2) ? lows[i] : kCells + 1 - lows[i];
      a.at[c] = v;
      a.at[kCells - 1 - c] = kCells + 1 - v;
      a.blanks.push_back(c);
      a.blanks.push_back(kCells - 1 - c);
    }
    return true;
  }

  // The cost's change if cells x and y swapped values.
  long swap_rise(const Annealing& a, int x, int y) const {
    const int d = a.at[y] - a.at[x];
    long rise = 0;
    for (int i = 0; i < n_cell_groups_[x]; ++i)
      if (const int g = cell_groups_[x][i]; g < n_groups_ && !bits::test(group_cells_[g], y))
        rise += std::abs(a.err[g] + d) - std::abs(a.err[g]);
    for (int i = 0; i < n_cell_groups_[y]; ++i)
      if (const int g = cell_groups_[y][i]; g < n_groups_ && !bits::test(group_cells_[g], x))
        rise += std::abs(a.err[g] - d) - std::abs(a.err[g]);
    return rise;
  }

  void swap_cells(Annealing& a, int x, int y, long rise) const {
    const int d = a.at[y] - a.at[x];
    for (int i = 0; i < n_cell_groups_[x]; ++i)
      if (const int g = cell_groups_[x][i]; g < n_groups_) a.err[g] += d;
    for (int i = 0; i < n_cell_groups_[y]; ++i)
      if (const int g = cell_groups_[y][i]; g < n_groups_) a.err[g] -= d;
    std::swap(a.at[x], a.at[y]);
    a.where[a.at[x]] = x;
    a.where[a.at[y]] = y;
    a.cost += rise;
  }

  // The blank to swap with x to put group g right, or a random one.
  int partner_for(const Annealing& a, int g, int x, Rng& rng) const {
    const int w = a.at[x] - a.err[g];
    if (rng.below(kAnnealRandomSwap) != 0 && w >= 1 && w <= kCells && a.slot[a.where[w]] >= 0) return a.where[w];
    return a.blanks[static_cast<std::size_t>(rng.below(static_cast<int>(a.blanks.size())))];
  }

  // sol keeps the givens, holds every value once and meets every group of
  // the kind: the check, from scratch, of each completion the local search
  // or a construction emits (first completions: solve() starts at root_).
  bool is_completion(const Solution& sol) const {
    Mask values{};
    for (int c = 0; c < kCells; ++c) {
      const int v = sol[c];
      if (v < 1 || v > kCells || bits::test(values, v - 1) || (root_.v[c] && root_.v[c] != v)) return false;
      values |= bits::one<Mask>(v - 1);
    }
    for (int g = 0; g < n_groups_; ++g) {
      int sum = 0;
      for (int c = 0; c < kCells; ++c)
        if (bits::test(group_cells_[g], c) && root_.v[c] == 0) sum += sol[c];
      if (sum != root_.rest[g]) return false;
    }
    return true;
  }

  // Orders 9..16: a completion built from digit squares where the grid
  // allows one (construct_completion), before any search.
  template <class Ctx>
  void construct(Ctx& ctx, std::set<Solution>& seen) const {
    const std::uint64_t limit = spec_.budget ? std::min(kConstructNodes, spec_.budget) : kConstructNodes;
    const std::vector<int> built = construct_completion(spec_.puzzle, kind_groups_, limit, ctx.nodes);
    if (built.empty()) return;
    Solution sol{};
    for (int c = 0; c < kCells; ++c) sol[c] = static_cast<Value>(built[static_cast<std::size_t>(c)]);
    if (!is_completion(sol)) throw std::logic_error("complete: a constructed square broke a group");
    Solver<Ctx, true> sv{{ctx}, 0, n_groups_, false, &seen};
    seen.insert(sol);
    sv.emit(sol);
  }

  // One attempt of `steps` steps; true when it emitted a completion.  The
  // steps count as nodes.
  template <class Ctx, class Mode>
  bool anneal(const State& s, std::uint64_t steps, std::uint32_t attempt, Ctx& ctx, Mode& m) const {
    Rng rng{seed_ * 0x100000001B3ull + attempt};
    Annealing a = anneal_start(s, rng);
    for (int g = 0; g < n_groups_; ++g)  // off its sum with no blank free to move: out of reach
      if (a.err[g] != 0 && a.group_blanks[g].empty()) return false;
    const double t0 = 2.0 + N / 4.0;
    for (std::uint64_t i = 0;; ++i) {
      if (a.cost == 0) {  // (also after the last step)
        ctx.nodes += i;
        Solution sol{};
        for (int c = 0; c < kCells; ++c) sol[c] = static_cast<Value>(a.at[c]);
        if (!is_completion(sol)) throw std::logic_error("complete: the local search's cost was wrong");
        if (!m.seen || m.seen->insert(sol).second) m.emit(sol);
        return true;
      }
      if (i == steps || ((i & 255) == 0 && ctx.stopped())) {
        ctx.nodes += i;
        return false;
      }
      int g = rng.below(n_groups_);
      while (a.err[g] == 0) g = g + 1 == n_groups_ ? 0 : g + 1;
      const auto& in_g = a.group_blanks[g];
      const int x = in_g[static_cast<std::size_t>(rng.below(static_cast<int>(in_g.size())))];
      const int y = partner_for(a, g, x, rng);
      if (y == x) continue;
      const double t = t0 * (1.0 - static_cast<double>(i) / static_cast<double>(steps));
      const auto keep = [&](long rise) {
        return rise <= 0 || (t > 0 && rng.unit() < std::exp(-static_cast<double>(rise) / t));
      };
      if (!a.paired || y == kCells - 1 - x) {
        if (const long rise = swap_rise(a, x, y); keep(rise)) swap_cells(a, x, y, rise);
        continue;
      }
      // Paired: x, y and their mirror cells swap together.
      const int mx = kCells - 1 - x, my = kCells - 1 - y;
      const long r1 = swap_rise(a, x, y);
      swap_cells(a, x, y, r1);
      const long r2 = swap_rise(a, mx, my);
      swap_cells(a, mx, my, r2);
      if (!keep(r1 + r2)) {
        swap_cells(a, mx, my, -r2);
        swap_cells(a, x, y, -r1);
      }
    }
  }

  // Mixed into the restarts' tie-breaks, so that two grids do not share one
  // sequence of orders; a function of the input only (determinism).
  static std::uint32_t grid_seed(const CompleteSpec& spec) {
    std::uint64_t h = static_cast<std::uint64_t>(spec.kind) + 1;
    for (const std::int64_t v : spec.puzzle.cells) h = h * 0x100000001B3ull ^ static_cast<std::uint64_t>(v);
    return mix(h, 0, 0);
  }

  // Adds the hint groups the kind does not have already, if they fit.
  static void add_hints(std::vector<SumGroup>& groups, const std::vector<SumGroup>& hints) {
    std::set<std::vector<int>> have;
    for (const SumGroup& g : groups) {
      auto c = g.cells;
      std::sort(c.begin(), c.end());
      have.insert(c);
    }
    std::vector<SumGroup> extra;
    for (const SumGroup& g : hints) {
      auto c = g.cells;
      std::sort(c.begin(), c.end());
      if (have.insert(c).second) extra.push_back(g);
    }
    if (groups.size() + extra.size() <= static_cast<std::size_t>(G))
      groups.insert(groups.end(), extra.begin(), extra.end());
  }

  CompleteSpec spec_;
  std::vector<SumGroup> kind_groups_;  // orders 9..16, first completions: for construct()
  bool paired_ = false;                // associative: the local search moves mirrored pairs
  int n_groups_ = 0;      // the kind's groups
  int n_all_groups_ = 0;  // and the hints after them (first completions only)
  std::uint32_t seed_ = 0;
  std::array<Mask, kCells> line_mates_{};    // cells sharing a line (N cells) with the cell
  std::array<Mask, kCells> shares_digit_{};  // bit w: values v+1, w+1 share a base-N digit
  // Pandiagonal orders 5 and 7, first completions: a first phase looks only
  // at Euler-type squares, every base-N digit of v-1 once per line (there
  // the lines sum right by themselves, and the two digit squares are
  // orthogonal pandiagonal Latin squares, which exist exactly for orders not
  // divisible by 2 or 3).  Off when two givens on a line share a digit.
  bool digit_hint_ = false;

  bool digits_fit_givens() const {
    for (int c = 0; c < kCells; ++c)
      if (root_.v[c])
        for (Mask e = line_mates_[c] & ~root_.blank; bits::any(e); e = bits::drop_low(e))
          if (bits::test(shares_digit_[root_.v[c] - 1], root_.v[bits::low(e)] - 1)) return false;
    return true;
  }
  std::array<std::array<GroupIx, kMaxPerCell>, kCells> cell_groups_;
  std::array<Mask, G> group_cells_{};
  std::array<std::uint8_t, kCells> n_cell_groups_;
  State root_;
  bool impossible_ = false;
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
  // Restarts (see the top of the file); `seen` keeps a completion found
  // again by a later attempt from being emitted twice.
  std::set<Solution> seen;
  if constexpr (kAnneals) {
    construct(ctx, seen);
    if (ctx.aborted()) return;
  }
  // A first completion on more than one thread: restarts side by side.
  if constexpr (std::is_same_v<Ctx, TaskContext<CompleteProblem>>) {
    const int width = threads_here();
    const EmitPolicy& policy = ctx.emit_policy();
    if (width > 1 && policy.defer && policy.limit == 1) return restarts_side_by_side(s, ctx, seen, width);
  }
  restarts(s, ctx, seen);
}

template <int N, int G>
typename CompleteProblem<N, G>::Restart CompleteProblem<N, G>::plan_restart(std::uint32_t index, bool hinted,
                                                                           std::uint64_t planned) const {
  double budget = kFirstBudget;  // x 1.5 a restart
  for (std::uint32_t i = 0; i < index; ++i) budget = std::min(budget * 1.5, 1e18);
  Restart r;
  r.index = index;
  r.hinted = hinted;
  r.wanted = (hinted ? 1 : 0) + 1 + (kAnneals ? 1 : 0);
  // A phase's budget, cut to what the whole search has left; false when
  // nothing is left.
  const auto bounded = [&](std::uint64_t& b) {
    b = static_cast<std::uint64_t>(budget);
    if (!spec_.budget) return true;
    if (planned >= spec_.budget) return false;
    b = std::min(b, spec_.budget - planned);
    return true;
  };
  if (hinted) {
    if (!bounded(r.hint_nodes)) return r;
    planned += r.hint_nodes;
    ++r.phases;
  }
  if (!bounded(r.tree_nodes)) return r;
  planned += r.tree_nodes;
  ++r.phases;
  if constexpr (kAnneals) {
    std::uint64_t b = 0;
    if (!bounded(b)) return r;
    const std::uint64_t left = spec_.budget ? spec_.budget - planned : ~std::uint64_t{0};
    r.steps = b > left / kAnnealSteps ? left : b * kAnnealSteps;
    planned += r.steps;
    ++r.phases;
  }
  r.planned_after = planned;
  return r;
}

// One restart: the hinted tree (while the hints' part of the tree is not
// seen whole), the tree, then the local search.  The local search comes
// after the trees: a dense grid's tree mostly finds the completion first,
// and then the local search costs nothing.
template <int N, int G>
template <class Ctx>
typename CompleteProblem<N, G>::Outcome CompleteProblem<N, G>::run_restart(const State& s, Ctx& ctx, const Restart& r,
                                                                          std::set<Solution>& seen) const {
  Outcome o;
  int phase = 0;
  if (r.hinted) {
    if (phase++ == r.phases) return o.gave_up = true, o;
    Solver<Ctx, true> sv{{ctx, r.hint_nodes}, r.index, n_all_groups_, digit_hint_, &seen};
    dfs(s, sv);
    if (ctx.aborted()) return o.ended = true, o;
    o.hint_done = !sv.exhausted;  // the structured part of the tree is done
  }
  if (phase++ == r.phases) return o.gave_up = true, o;
  Solver<Ctx, true> sv{{ctx, r.tree_nodes}, r.index, n_groups_, false, &seen};
  dfs(s, sv);
  if (ctx.aborted() || !sv.exhausted) return o.ended = true, o;
  if constexpr (kAnneals) {
    if (phase++ == r.phases) return o.gave_up = true, o;
    Solver<Ctx, true> la{{ctx}, r.index, n_groups_, false, &seen};
    anneal(s, r.steps, r.index, ctx, la);
    if (ctx.aborted()) return o.ended = true, o;
  }
  return o;
}

// The restarts one after another.
template <int N, int G>
template <class Ctx>
void CompleteProblem<N, G>::restarts(const State& s, Ctx& ctx, std::set<Solution>& seen) const {
  bool hinted = n_all_groups_ > n_groups_ || digit_hint_;
  std::uint64_t planned = ctx.nodes;
  for (std::uint32_t i = 0;; ++i) {
    const Restart r = plan_restart(i, hinted, planned);
    const Outcome o = run_restart(s, ctx, r, seen);
    if (o.gave_up) return ctx.give_up();
    if (o.ended) return;
    hinted = hinted && !o.hint_done;
    planned = r.planned_after;
  }
}

// The restarts `width` at a time, for a first completion: restart i on
// this task's context, the next ones in contexts of their own on the other
// threads.  Their results are then taken in order, as if they had run one
// after another, and those after the one that ends the search (or that
// sees the hinted tree whole, which changes the next restarts) are
// dropped, nodes and all: the completion, the nodes and the verdict are
// those of restarts(), for any width.
template <int N, int G>
template <class Ctx>
void CompleteProblem<N, G>::restarts_side_by_side(const State& s, Ctx& ctx, std::set<Solution>& seen,
                                                  int width) const {
  struct Side {  // its own stop (cancel) follows the run's, whichever thread runs it
    std::atomic<bool> cancel{false};
    Stop stop;
    Ctx ctx;
    std::set<Solution> seen;
    Outcome out;
    double cpu = 0;  // its thread's CPU seconds: the task's record counts them
    Side(const CompleteProblem& p, const Ctx& task, const std::set<Solution>& s)
        : stop(&cancel, task.run_stop()), ctx(p, task.emit_policy(), stop), seen(s) {
      poll_often(ctx);
    }
  };
  bool hinted = n_all_groups_ > n_groups_ || digit_hint_;
  std::uint64_t planned = ctx.nodes;
  SideLanes lanes(static_cast<std::size_t>(width - 1));
  const std::thread::id here = std::this_thread::get_id();
  for (std::uint32_t i = 0;;) {
    const Restart first = plan_restart(i, hinted, planned);
    // The next restarts, each planned after the one before it ran out.
    std::vector<Restart> next;
    for (std::uint64_t p = first.planned_after; first.whole() && static_cast<int>(next.size()) + 1 < width;) {
      const Restart r = plan_restart(i + 1 + static_cast<std::uint32_t>(next.size()), hinted, p);
      if (!r.whole()) break;
      next.push_back(r);
      p = r.planned_after;
    }
    std::vector<std::unique_ptr<Side>> sides;
    for (std::size_t k = 0; k < next.size(); ++k) sides.push_back(std::make_unique<Side>(*this, ctx, seen));
    Outcome o;
    lanes.round(
        next.size(),
        [&](std::size_t k) {
          const double c0 = thread_cpu_seconds();
          sides[k]->out = run_restart(s, sides[k]->ctx, next[k], sides[k]->seen);
          // (A side this thread ran is in the task's own CPU already.)
          if (std::this_thread::get_id() != here) sides[k]->cpu = thread_cpu_seconds() - c0;
        },
        [&] {
          o = run_restart(s, ctx, first, seen);
          return o.gave_up || o.ended || o.hint_done;  // the side restarts are not needed
        },
        [&] { return ctx.run_stop_requested(); },
        [&] {
          for (auto& side : sides) side->cancel = true;
        });
    for (const auto& side : sides) ctx.record.cpu_seconds += side->cpu;
    if (o.gave_up) return ctx.give_up();
    if (o.ended) return;
    if (ctx.run_stop_requested()) {  // the side restarts may be cut short: no verdict
      while (!ctx.aborted()) ctx.stopped();  // the task sees the stop within one poll interval
      return;
    }
    planned = first.planned_after;
    ++i;
    if (o.hint_done) {
      hinted = false;
      continue;
    }
    for (std::size_t k = 0; k < next.size(); ++k) {
      Side& side = *sides[k];
      ctx.nodes += side.ctx.nodes;
      if (side.out.ended) {
        // Its completions, in the order found, as this context would have had them.
        const std::size_t size = sizeof(Solution);
        for (std::size_t at = 0; at + 2 * size <= side.ctx.deferred.size(); at += 2 * size) {
          Solution sol;
          std::memcpy(&sol, side.ctx.deferred.data() + at, size);
          ctx.emit(sol);
        }
        return;
      }
      planned = next[k].planned_after;
      ++i;
      if (side.out.hint_done) {
        hinted = false;
        break;
      }
    }
  }
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
