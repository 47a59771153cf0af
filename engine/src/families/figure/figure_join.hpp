#pragma once
// Counting a figure's labellings without enumerating them: joins of two
// halves (`--count`, issue 68).
//
// The figures it takes: lines that form a ring or a chain, each sharing one
// point (a joint) with the next, every other point on one line only.  A
// cycle's vertex-magic total labelling is a ring, a path's edge-magic total
// labelling a chain:
//
//   ring, m lines:   J0 -L0- J1 -L1- ... J(s)        arm A: L0 .. L(s-1), ends at J(s)
//                     \__L(m-1)__ J(m-1) ... __/      arm B: L(m-1) .. L(s), ends there too
//
//   chain, m lines:  L0 - J1 - L1 - ... - J(c) - ... - L(m-1)
//                    arm B: L(c-1) .. L0    arm A: L(c) .. L(m-1)
//
// A task fixes the magic sum K and the least label a on a cut set C of
// joints (the ring's joints; the chain's middle one or two): a set of
// labellings that every symmetry of the figure maps onto itself, so its
// count divided by the group's order is exact, task by task.  The anchor,
// a joint of C, carries a.  Arm A is searched and its ends kept in a table
// keyed by the numbers it used (a 64-bit mask) and, in a ring, the label
// of the joint where the arms meet: (count, additive digest).  Arm B is
// searched and each end looks up the one complementary key.  A pair adds
// cA cB labellings and cB sA + cA sB + cA cB h(anchor, a) to the digest.
//
// When the ring's rotation (the chain's reversal) maps the figure onto
// itself, one anchor stands for all m (both): the count is multiplied and
// the point hashes are summed over the rotations (point_hashes.hpp).
//
// When v -> min + max - v maps the figure's labellings onto labellings
// (every line has s points, every range is symmetric), a labelling with
// sum K becomes one with the dual sum s (min + max) - K: the tasks of the
// smaller sum stand for both, and their point hashes sum over the pair.
//
// Every arm prunes by the joints' sum: m K = (the numbers' sum) + (the
// joints' labels' sum), so the joints not yet labelled must sum to what is
// left, which the free numbers bound.
//
// A ring joined with itself (an even ring's reflection) writes its ends to
// buckets by their key's hash and joins bucket by bucket, each bucket's
// table in the caches (Partitions, figure_join.cpp): few of its ends find
// a partner, and one table of them all waited on memory.  A chain, whose
// ends cost more nodes each and find partners more often, keeps one table.
//
// Memory is a budget: a table that would pass it splits the task into
// passes by the numbers of a few of its points (A keeps the keys with a
// pattern on them, B the complementary pattern), doubling until it fits.
// A thread keeps its table and buffers for its next task (the kernel's
// fresh pages cost path-14 370 s of system time when each task made its own).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "figure/figure_problem.hpp"
#include "figure/figure_spec.hpp"
#include "figure/point_hashes.hpp"
#include "magic/core/problem.hpp"
#include "magic/instances.hpp"
#include "magic/task_record.hpp"

namespace magic {

inline constexpr const char* kJoinLevels =
    "level 1 is one task: the magic sum (with its dual) and the least label on the cut's joints";

// One task: level 0 is every task at once.
struct JoinTask {
  std::int32_t sum = 0;
  std::uint16_t least = 0;
  std::uint16_t level = 0;
};
static_assert(std::is_trivially_copyable_v<JoinTask>);

// One line of an arm: the points it labels, in order (the joint it leads
// to first, when it has one); the last is determined by the sum.
struct JoinStep {
  std::vector<int> unknowns;
  bool leads_on = false;  // unknowns[0] is the next line's incoming joint
};
struct JoinArm {
  std::vector<JoinStep> steps;
  int meet = -1;  // the ring's joint where the arms meet (labelled by A, keyed by both), or -1
};
struct JoinAnchor {
  int point = 0;
  std::uint64_t above = 0;  // points (bits) whose labels must exceed the anchor's
  JoinArm a, b;             // a is kept in the table, b looks up
  // A symmetry of the figure fixing the anchor that maps arm a onto arm b
  // (an even ring's or chain's reflection), or empty.  With one, arm b is
  // never searched: its ends are arm a's, mirrored, and the table joins
  // with itself (each entry also sums the hashes of its mirror image).
  PointPerm mirror;
};

// The ring or chain of a figure, or why it is neither.
struct JoinShape {
  bool ring = false;
  std::vector<JoinAnchor> anchors;
  std::uint64_t multiplicity = 1;  // labellings each one counted stands for
  PointPerm symmetry;              // the rotation (reversal) it stands for them by, or none
  std::vector<int> sums;           // the feasible magic sums
  int dual = 0;                    // s (min + max) when K and dual - K are counted together (above), else 0
  std::uint64_t joint_points = 0;  // points on two lines (bits)
  std::string why_not;             // "" when the figure can be counted so
};
JoinShape join_shape(const FigureSpec& f);

// What the tables took, for the run's report (TaskRecord::tables).
using JoinStats = TableStats;

class FigureJoinProblem {
 public:
  using State = JoinTask;
  using Solution = FigureValues;  // never made: the problem emits nothing
  static constexpr const char* kSearch = "figure-join/2";  // core/problem.hpp: bump on a new task tree
  static constexpr bool kCounts = true;

  // `problem` is the enumeration's describe(), which names the figure and
  // its group; the join adds "count": "join".  `group_order` is |G|.
  // memory_bytes = 0: half the machine's memory, shared by the threads.
  FigureJoinProblem(const FigureSpec& figure, std::uint64_t group_order, nlohmann::json problem,
                    std::uint64_t memory_bytes = 0);

  nlohmann::json describe() const { return problem_; }
  const char* describe_levels() const { return kJoinLevels; }
  Emits emits() const { return Emits::OnePerOrbit; }
  bool has_group() const { return true; }

  void cut(int depth, SinkRef<State> sink) const;
  template <class Ctx>
  void solve(const State& s, Ctx& ctx) const {
    Poll poll{[](void* c) { return static_cast<Ctx*>(c)->stopped() && static_cast<Ctx*>(c)->aborted(); }, &ctx,
              &ctx.nodes, ctx.threads()};
    run(s, ctx.record, poll);
  }

  Solution canonical(const Solution& s) const { return s; }
  std::uint64_t orbit_size(const Solution&) const { return group_order_; }
  nlohmann::json to_json(const Solution&) const { return nlohmann::json::object(); }

  // The counts of one task alone (tests and the report): its record.
  TaskRecord count_task(const JoinTask& t, JoinStats* stats = nullptr) const;
  const JoinShape& shape() const { return shape_; }

  // Points, numbers and the digest's hashes: what the arms' search reads.
  struct Tables {
    int min = 0, span = 0;
    std::uint64_t all = 0;                // every number (bit v - min)
    std::vector<std::uint64_t> allowed;   // by point
    PointHashes hashes;
    PointHashes dual_hashes;              // hashes(p, v) + hashes(p, min + max - v), for a sum and its dual
    std::uint64_t joint_numbers = 0;      // the numbers any joint may carry
    long long numbers_sum = 0;            // the sum of every number
    int lines = 0;                        // m
  };

 private:
  // The runner's context through one indirect call a few thousand nodes.
  struct Poll {
    bool (*stop)(void*);
    void* ctx;
    std::uint64_t* nodes;
    unsigned threads;
  };
  void run(const JoinTask& s, TaskRecord& rec, Poll& poll) const;
  bool count_into(const JoinTask& t, TaskRecord& rec, Poll& poll, JoinStats* stats) const;

  // The tables the threads' tasks have finished with, for their next tasks
  // (figure_join.cpp): a fresh table pays the kernel for its pages again.
  class TablePool;
  std::shared_ptr<TablePool> pool_;

  nlohmann::json problem_;
  std::uint64_t group_order_;
  std::uint64_t memory_;
  JoinShape shape_;
  Tables tables_;
  std::vector<JoinTask> tasks_;  // level 1, in cut's order
};
static_assert(Problem<FigureJoinProblem>);

// A spec's "count": true or "join" counts by this problem, false or none
// enumerates; anything else is a SpecError naming `what`.  "memory" (MiB,
// only with "count") bounds its tables.
bool wants_count(const nlohmann::json& spec, const std::string& what);
std::uint64_t count_memory_bytes(const nlohmann::json& spec, const std::string& what);

}  // namespace magic

namespace magic {
MAGIC_RUN_AS(extern, FigureJoinProblem)  // compiled in run_figure.cpp
}  // namespace magic
