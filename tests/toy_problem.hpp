#pragma once
// The smallest problem the runner accepts, and docs/architecture.md's example: sets of
// k distinct numbers from 1..n that sum to s.  No symmetry, so every set is
// its own orbit.  A level is one chosen number.
#include <cstdint>

#include <nlohmann/json.hpp>

#include "magic/core/problem.hpp"

struct SubsetSum {
  int n, k, s;
  struct State { std::uint32_t set; std::uint8_t size, last; std::uint16_t sum; };
  using Solution = std::uint32_t;  // bit v: v is in the set

  nlohmann::json describe() const { return {{"name", "subset-sum"}, {"n", n}, {"k", k}, {"s", s}}; }
  static constexpr const char* kSearch = "subset-sum/1";
  const char* describe_levels() const { return "a level is one chosen number"; }
  magic::Emits emits() const { return magic::Emits::OnePerOrbit; }
  bool has_group() const { return false; }
  Solution canonical(const Solution& x) const { return x; }
  std::uint64_t orbit_size(const Solution&) const { return 1; }
  nlohmann::json to_json(const Solution& x) const { return x; }

  void cut(int depth, magic::SinkRef<State> sink) const { magic::ExpandMode<State> m{sink, depth}; walk({}, m); }
  template <class Ctx> void solve(const State& t, Ctx& ctx) const { magic::SolveMode<Ctx> m{ctx}; walk(t, m); }

  template <class Mode> void walk(const State& t, Mode& m) const {
    if (m.enter(t.size, t.size == k, t)) return;
    if (t.size == k) return t.sum == s ? m.emit(t.set) : void();
    for (int v = t.last + 1; v <= n; ++v)
      walk({t.set | 1u << v, std::uint8_t(t.size + 1), std::uint8_t(v), std::uint16_t(t.sum + v)}, m);
  }
};
static_assert(magic::Problem<SubsetSum>);
