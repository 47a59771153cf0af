// Kernel benchmarks for squares: whole enumerations through the runner, on
// 1 and 2 threads, the straight-code kernel (orders 3, 4) beside the
// generic solver, and the port of seed 001's 4x4 search in the same run.
#include <benchmark/benchmark.h>

#include "baselines/seed001_search.hpp"
#include "known.hpp"
#include "magic/runner.hpp"
#include "square/square.hpp"

namespace {

template <class P>
void run_checked(benchmark::State& state, const P& p, const nlohmann::json& spec, unsigned threads) {
  magic::RunOptions ro;
  ro.threads = threads;
  const std::uint64_t want = perf::known_total(spec);
  for (auto _ : state) {
    const auto r = magic::run(p, ro);
    if (r.total != want) state.SkipWithError("wrong count");
    benchmark::DoNotOptimize(r.digest);
  }
}

const nlohmann::json kMagic4{{"name", "square"}, {"order", 4}, {"kind", "magic"}};

void BM_Square4_Magic(benchmark::State& state) {
  run_checked(state, magic::SmallSquareProblem<4>(magic::SquareKind::Magic), kMagic4,
              static_cast<unsigned>(state.range(0)));
}
BENCHMARK(BM_Square4_Magic)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_Square4_Magic_Generic(benchmark::State& state) {
  run_checked(state, magic::SquareProblem<4>({4, magic::SquareKind::Magic, true}), kMagic4,
              static_cast<unsigned>(state.range(0)));
}
BENCHMARK(BM_Square4_Magic_Generic)->Arg(1)->Unit(benchmark::kMicrosecond)->UseRealTime();

// Seed 001's corners-first search, ported (baselines/seed001.cpp), in
// this process: the same run, the same machine state.
void BM_Square4_Seed001Port(benchmark::State& state) {
  for (auto _ : state) {
    seed001::Search s;
    s.run();
    if (s.count != 880) state.SkipWithError("wrong count");
    benchmark::DoNotOptimize(s.count);
  }
}
BENCHMARK(BM_Square4_Seed001Port)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_Square4_Semi(benchmark::State& state) {
  const magic::SquareProblem<4> p({4, magic::SquareKind::Semi, true});
  magic::RunOptions ro;
  ro.threads = static_cast<unsigned>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(magic::run(p, ro).digest);
}
BENCHMARK(BM_Square4_Semi)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Square3_Magic(benchmark::State& state) {
  run_checked(state, magic::SmallSquareProblem<3>(magic::SquareKind::Magic),
              {{"name", "square"}, {"order", 3}, {"kind", "magic"}}, 1);
}
BENCHMARK(BM_Square3_Magic)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_Square3_Magic_Generic(benchmark::State& state) {
  run_checked(state, magic::SquareProblem<3>({3, magic::SquareKind::Magic, true}),
              {{"name", "square"}, {"order", 3}, {"kind", "magic"}}, 1);
}
BENCHMARK(BM_Square3_Magic_Generic)->Unit(benchmark::kMicrosecond)->UseRealTime();

// Order 5: the associative kind (48,544) and one centre of the magic count.
void BM_Square5_Associative(benchmark::State& state) {
  const nlohmann::json spec{{"name", "square"}, {"order", 5}, {"kind", "associative"}};
  run_checked(state, magic::Square5Problem(magic::square_spec_from_json(spec)), spec,
              static_cast<unsigned>(state.range(0)));
}
BENCHMARK(BM_Square5_Associative)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
