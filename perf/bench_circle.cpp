// Kernel benchmarks for magic circles: the exhaustive search for n = 11..14
// through the runner on 1 and 2 threads, the serial search alone (one task,
// no runner), and the multiplier method for n = 18 and 20.  Node rates are
// reported as counters, so a change in pruning (fewer nodes) and a change in
// speed per node can be told apart.
#include <benchmark/benchmark.h>

#include "circle/circle.hpp"
#include "magic/runner.hpp"
#include "known.hpp"

namespace {

std::uint64_t expected(int n) { return perf::known_unique({{"name", "circle"}, {"n", n}}); }

void BM_CircleExhaustive(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const magic::CircleProblem p(n);
  magic::RunOptions ro;
  ro.threads = static_cast<unsigned>(state.range(1));
  const std::uint64_t want = expected(n);
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    const auto r = magic::run(p, ro);
    if (r.unique != want) state.SkipWithError("wrong count");
    nodes = r.nodes;
    benchmark::DoNotOptimize(r.digest);
  }
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_CircleExhaustive)
    ->Args({11, 1})
    ->Args({12, 1})
    ->Args({12, 2})
    ->Args({13, 1})
    ->Args({13, 2})
    ->Args({14, 1})
    ->Args({14, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The search below the root as one serial task: no runner, no threads.
struct CountCtx {
  std::uint64_t nodes = 0, sols = 0;
  void emit(const magic::CircleSolution&) { ++sols; }
  bool stopped() { return false; }
};

void BM_CircleSerialKernel(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const magic::CircleProblem p(n);
  std::vector<magic::CircleState> root;
  p.cut(0, [&](const magic::CircleState& s, bool) { root.push_back(s); });
  const std::uint64_t want = expected(n);
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    CountCtx c;
    for (const auto& s : root) p.solve(s, c);
    if (c.sols != want) state.SkipWithError("wrong count");
    nodes = c.nodes;
  }
  state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_CircleSerialKernel)->Arg(12)->Arg(13)->Arg(14)->Unit(benchmark::kMillisecond);

void BM_CircleMultiplier(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const magic::CircleMultiplierProblem p(n);
  magic::RunOptions ro;
  ro.threads = 2;
  for (auto _ : state) benchmark::DoNotOptimize(magic::run(p, ro).unique);
}
BENCHMARK(BM_CircleMultiplier)->Arg(14)->Arg(18)->Arg(20)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
