#pragma once
// The contract between a problem and the runner, as a C++20 concept, and the
// two traversal modes every problem's node function is written against.
//
// A problem P walks one search tree in two modes (a template parameter of
// its node function, so no virtual call per node):
//
//   cut(depth, sink)      cut the tree at `depth` and call sink(state, leaf)
//                         for every node there, in a fixed order: the task
//                         list.  `leaf` says the node cannot be cut deeper
//                         (a solution, a dead end, or a level the problem
//                         solves in one piece).
//   solve(state, ctx)     search below one task serially: ctx.nodes,
//                         ctx.emit(solution), and return once ctx.stopped().
//
// Every node handed to enter() must be a State that solve() accepts, and
// solve() enters its own root first: then the runner can split a running
// task at any polled node (core/split.hpp), and a piece counts its root
// exactly as the task would have.
//
// One level of `depth` is one level of the problem's own tree (a placed
// cell, a chosen pair of star points, a placed circle number, a branching
// decision); `describe_levels()` says which, for --help and the JSON echo.
// The runner picks the default depth itself (the first level with enough
// tasks), so no problem carries a hand-tuned table.
#include <concepts>
#include <cstdint>
#include <memory>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "magic/digest.hpp"
#include "magic/picture.hpp"

namespace magic {


enum class Emits {
  OnePerOrbit,  // exactly one member of each symmetry orbit (symmetry breaking)
  AllImages,    // every member of every orbit; uniques are those equal to their canonical form
};

// The sink of a walk that cuts the tree, seen through one indirect call.
// Every caller passes its own lambda (count the tasks, list them, stream
// them, probe), and a walk templated on each would compile every problem's
// search once per caller: most of the engine's build time.  Through this
// reference each problem compiles its cutting walk once; one call per task
// handed out costs nothing next to storing the task.
template <class State>
class SinkRef {
 public:
  // Implicit, so cut(depth, lambda) reads as a call with the lambda; a
  // temporary lambda lives to the end of that call, and so long as the ref.
  template <class F, class L = std::remove_reference_t<F>>
    requires(!std::is_same_v<std::remove_cvref_t<F>, SinkRef> && std::is_invocable_v<L&, const State&, bool>)
  SinkRef(F&& f)  // NOLINT(google-explicit-constructor)
      : obj_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* o, const State& s, bool leaf) { (*static_cast<L*>(o))(s, leaf); }) {}
  void operator()(const State& s, bool leaf) const { call_(obj_, s, leaf); }

 private:
  void* obj_;
  void (*call_)(void*, const State&, bool);
};

// Cut the tree into task prefixes.  At the split level, or at a node that
// cannot be cut deeper, the node is handed to the sink and the walk stops.
template <class State>
struct ExpandMode {
  SinkRef<State> sink;
  int depth;
  static constexpr bool kExpand = true;

  // `node` is the state, or a callable that makes it (only made when handed out).
  template <bool kPoll = true, class Node>
  bool enter(int level, bool leaf, Node&& node) {
    if (level < depth && !leaf) return false;
    if constexpr (std::is_invocable_v<Node&>) sink(node(), leaf);
    else sink(node, leaf);
    return true;
  }
  template <class S>
  void emit(const S&) {}  // leaves were handed out by enter()
  static constexpr bool aborted() { return false; }
};

// Search one task into a runner context.  With kBudget the walk also stops
// after `budget` nodes and says so in `exhausted` (restart strategies).
template <class Ctx, bool kBudget = false>
struct SolveMode {
  Ctx& ctx;
  std::uint64_t budget = ~std::uint64_t{0};
  bool exhausted = false;
  static constexpr bool kExpand = false;
  static constexpr bool kSplits = requires(Ctx& c) { c.donates(0); };

  // Counts the node; true when the walk must stop here.  kPoll = false skips
  // the stop poll on levels so close to the leaves that it costs more than
  // it saves.
  template <bool kPoll = true, class Node>
  bool enter(int level, bool leaf, Node&& node) {
    ++ctx.nodes;
    if constexpr (kPoll)
      if (ctx.stopped()) [[unlikely]] {
        // Not under a budget: a restart strategy's attempts are not one walk.
        if constexpr (!kBudget && kSplits)
          if (!ctx.aborted()) return hand_out(level, leaf, node);
        return true;
      }
    if constexpr (kBudget) {
      if (budget == 0) {
        exhausted = true;
        return true;
      }
      --budget;
    }
    return false;
  }
  template <class S>
  void emit(const S& s) {
    ctx.emit(s);
  }
  bool aborted() const { return ctx.aborted() || exhausted; }

 private:
  // Adaptive splitting (core/split.hpp): the node becomes a piece instead
  // of being searched here.  The piece counts it, as a task counts its root.
  // Inline, in the cold branch: out of line, a node lambda would have to
  // live in memory, and the walk's locals it captures with it.
  template <class Node>
  bool hand_out(int level, bool leaf, Node& node) {
    if (leaf || !ctx.donates(level)) return false;
    --ctx.nodes;
    if constexpr (std::is_invocable_v<Node&>) ctx.donate(node());
    else ctx.donate(node);
    return true;
  }
};

namespace contract {
// Stand-ins the concept checks the two walks against.
template <class State>
struct Sink {
  void operator()(const State&, bool);
};
template <class Solution>
struct Context {
  std::uint64_t nodes;
  void emit(const Solution&);
  // True when the walk must stop, or (a context with donates()) when the
  // node may be handed out: then aborted() tells the two apart.
  bool stopped();
  bool aborted() const;
};
}  // namespace contract

template <class P>
concept Problem = requires(const P& p, const typename P::State& state, const typename P::Solution& sol,
                           contract::Sink<typename P::State>& sink,
                           contract::Context<typename P::Solution>& ctx) {
  // Tasks are copied on branch and stored; solutions are hashed byte by byte.
  requires std::is_trivially_copyable_v<typename P::State>;
  requires std::is_trivially_copyable_v<typename P::Solution>;
  requires std::has_unique_object_representations_v<typename P::Solution>;
  requires std::equality_comparable<typename P::Solution>;
  { p.describe() } -> std::convertible_to<nlohmann::json>;
  { p.describe_levels() } -> std::convertible_to<const char*>;
  // The search's name and revision ("star/2"), kept in journals and
  // results: bump it whenever the task tree (what --split-depth cuts) or
  // the emitted stream changes, so a journal of the old tree is refused by
  // name rather than resumed into other tasks.
  { P::kSearch } -> std::convertible_to<const char*>;
  { p.emits() } -> std::same_as<Emits>;
  { p.has_group() } -> std::convertible_to<bool>;  // false: no counts.total
  { p.canonical(sol) } -> std::same_as<typename P::Solution>;
  { p.orbit_size(sol) } -> std::convertible_to<std::uint64_t>;
  { p.to_json(sol) } -> std::convertible_to<nlohmann::json>;
  p.cut(0, SinkRef<typename P::State>(sink));
  p.solve(state, ctx);
};

// Optional: a problem with a `key` reports counts.by_key (e.g. stars by sum).
template <class P>
concept HasKey = requires(const P& p, const typename P::Solution& s) {
  { p.key(s) } -> std::convertible_to<std::int64_t>;
};

// Optional: a problem that sums the additive digest (magic/digest.hpp) of
// each canonical solution's whole orbit as it counts it.
template <class P>
concept HasAdditive = requires(const P& p, const typename P::Solution& s) {
  { p.additive(s) } -> std::same_as<Digest>;
};

// Optional: a problem that counts without enumerating.  Its solve() emits
// nothing: it adds each task's counts to ctx.record, with the additive
// digest as the record's digest, and the runner treats the task like any
// other.  (Its Solution type is never made.)
template <class P>
concept Counts = P::kCounts;

}  // namespace magic
