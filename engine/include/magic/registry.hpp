#pragma once
// The registry: from a JSON spec such as {"name":"square","order":4} to the
// concrete problem type.  The CLI, run_spec, `reproduce`, the pictures and
// the tests all go through it, so each problem's dispatch is written once,
// in its family (beside the problem, in its own header).
//
// Adding a problem: one header with the problem and its family, and one
// entry in Families below.
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include <nlohmann/json.hpp>

#include "magic/circle.hpp"
#include "magic/complete.hpp"
#include "magic/core/error.hpp"
#include "magic/core/problem.hpp"
#include "magic/runner.hpp"
#include "magic/spec.hpp"
#include "magic/square.hpp"
#include "magic/star.hpp"

namespace magic {

using Families = std::tuple<SquareFamily, StarFamily, CircleFamily, CompleteFamily>;

// Calls f(family) with the family named `name`; false if there is none.
template <class F>
bool with_family(const std::string& name, F&& f) {
  return std::apply([&](auto... fam) { return ((name == decltype(fam)::kName ? (f(fam), true) : false) || ...); },
                    Families{});
}

// Calls f(family) with the family the spec names and returns its result
// (if any).
// Throws SpecError for an unknown or malformed spec.
template <class F>
auto with_spec_family(const nlohmann::json& spec, F&& f) {
  using R = decltype(f(SquareFamily{}));
  if (!spec.is_object() || !spec.contains("name") || !spec.at("name").is_string())
    throw SpecError("a problem spec is an object with a \"name\", got " + spec.dump());
  const std::string name = spec.at("name").get<std::string>();
  const auto unknown = [&] { return SpecError("unknown problem '" + name + "' (use square, star, circle or complete)"); };
  if constexpr (std::is_void_v<R>) {
    if (!with_family(name, [&](auto fam) { f(fam); })) throw unknown();
  } else {
    std::optional<R> out;
    if (!with_family(name, [&](auto fam) { out.emplace(f(fam)); })) throw unknown();
    return R(std::move(*out));
  }
}

// Calls f(const P&) with the problem the spec describes and returns its
// result.  Throws SpecError for an unknown or malformed spec.
template <class F>
auto visit_problem(const nlohmann::json& spec, F&& f) {
  return with_spec_family(spec, [&](auto fam) { return decltype(fam)::visit(spec, f); });
}

}  // namespace magic

// ---- the instances the library compiles -------------------------------------
//
// Each problem type's runner and its two walks (the search itself, most of
// the build time) are compiled once, in engine/src/run_<family>*.cpp, and
// declared extern here, so that the cluster, the tests and the benchmarks
// use those instances instead of compiling each type again.  PREFIX: empty
// to instantiate, extern to declare; the problem type is the rest (it may
// hold commas).
#define MAGIC_RUN_AS(PREFIX, ...)                                                           \
  PREFIX template RunResult run<__VA_ARGS__>(const __VA_ARGS__&, const RunOptions&);        \
  PREFIX template void __VA_ARGS__::solve<TaskContext<__VA_ARGS__>>(const __VA_ARGS__::State&, \
                                                                    TaskContext<__VA_ARGS__>&) const;
#define MAGIC_CUT_AS(PREFIX, ...) PREFIX template void __VA_ARGS__::cut(int, SinkRef<__VA_ARGS__::State>) const;
#define MAGIC_SEARCH_AS(PREFIX, ...) MAGIC_RUN_AS(PREFIX, __VA_ARGS__) MAGIC_CUT_AS(PREFIX, __VA_ARGS__)

// The star sizes in five groups, one file each (run_star_<first size>.cpp);
// the last two are empty in a build that stops at n = 16 (kStarBuiltMaxN).
#define MAGIC_STAR_SIZES_5(X) X(5) X(6) X(7) X(8)
#define MAGIC_STAR_SIZES_9(X) X(9) X(10) X(11) X(12)
#define MAGIC_STAR_SIZES_13(X) X(13) X(14) X(15) X(16)
#if MAGIC_STAR_BUILT_MAX_N == 24
#define MAGIC_STAR_SIZES_17(X) X(17) X(18) X(19) X(20)
#define MAGIC_STAR_SIZES_21(X) X(21) X(22) X(23) X(24)
#else
#define MAGIC_STAR_SIZES_17(X)
#define MAGIC_STAR_SIZES_21(X)
#endif
#define MAGIC_STAR_SIZES(X) \
  MAGIC_STAR_SIZES_5(X) MAGIC_STAR_SIZES_9(X) MAGIC_STAR_SIZES_13(X) MAGIC_STAR_SIZES_17(X) MAGIC_STAR_SIZES_21(X)
// A star's constructor (its tables and plans) too.
#define MAGIC_STAR_AS(PREFIX, N) \
  MAGIC_SEARCH_AS(PREFIX, StarProblem<N>) PREFIX template StarProblem<N>::StarProblem(const StarSpec&, std::size_t);
#define MAGIC_RUN_STAR(N) MAGIC_STAR_AS(, N)
#define MAGIC_EXTERN_RUN_STAR(N) MAGIC_STAR_AS(extern, N)

// The complete problem's instances (with_complete_problem): every order with
// its plain lines and with the rich groups, and order 8 with the odd
// rectangles too (order 4 has none: its hinted capacity is the rich one).
#define MAGIC_COMPLETE_INSTANCES(X)                                                        \
  X(3, kCompleteLineGroups<3>) X(3, kCompleteRichGroups<3>) X(4, kCompleteLineGroups<4>)   \
  X(4, kCompleteRichGroups<4>) X(5, kCompleteLineGroups<5>) X(5, kCompleteRichGroups<5>)   \
  X(6, kCompleteLineGroups<6>) X(6, kCompleteRichGroups<6>) X(7, kCompleteLineGroups<7>)   \
  X(7, kCompleteRichGroups<7>) X(8, kCompleteLineGroups<8>) X(8, kCompleteRichGroups<8>)   \
  X(8, kCompleteHintedGroups<8>)
#define MAGIC_RUN_COMPLETE(N, G) MAGIC_SEARCH_AS(, CompleteProblem<N, G>)
#define MAGIC_EXTERN_RUN_COMPLETE(N, G) MAGIC_SEARCH_AS(extern, CompleteProblem<N, G>)

// The square problem's instances (SquareFamily::visit).  Square5Problem is
// no template: its cut is compiled in engine/src/square5.cpp, as the
// circles' are in engine/src/circle.cpp.
#define MAGIC_SQUARE_INSTANCES(X) \
  X(SquareProblem<3>) X(SquareProblem<4>) X(SquareProblem<5>) X(SmallSquareProblem<3>) X(SmallSquareProblem<4>)
#define MAGIC_RUN_SQUARE(P) MAGIC_SEARCH_AS(, P)
#define MAGIC_EXTERN_RUN_SQUARE(P) MAGIC_SEARCH_AS(extern, P)

namespace magic {

static_assert(kStarMinN == 5 && kStarMaxN == 24 && (kStarBuiltMaxN == 16 || kStarBuiltMaxN == 24),
              "MAGIC_STAR_SIZES must list every star size this build compiles");
static_assert(kCompleteMinOrder == 3 && kCompleteMaxOrder == 8 && kCompleteHintedGroups<4> == kCompleteRichGroups<4>,
              "MAGIC_COMPLETE_INSTANCES must list every instance");

MAGIC_STAR_SIZES(MAGIC_EXTERN_RUN_STAR)
MAGIC_COMPLETE_INSTANCES(MAGIC_EXTERN_RUN_COMPLETE)
MAGIC_SQUARE_INSTANCES(MAGIC_EXTERN_RUN_SQUARE)
MAGIC_RUN_AS(extern, Square5Problem)
MAGIC_RUN_AS(extern, CircleProblem)
MAGIC_RUN_AS(extern, CircleMultiplierProblem)

}  // namespace magic
