// Kernel benchmarks for squares: the whole 4x4 enumeration through the
// runner, on 1 and 2 threads, and the serial solver alone.
#include <benchmark/benchmark.h>

#include "magic/square.hpp"
#include "magic/runner.hpp"
#include "known.hpp"

namespace {

void BM_Square4_Magic(benchmark::State& state) {
  const magic::SquareProblem<4> p({4, magic::SquareKind::Magic, true});
  magic::RunOptions ro;
  ro.threads = static_cast<unsigned>(state.range(0));
  const std::uint64_t want = perf::known_total({{"name", "square"}, {"order", 4}, {"kind", "magic"}});
  for (auto _ : state) {
    const auto r = magic::run(p, ro);
    if (r.total != want) state.SkipWithError("wrong count");
    benchmark::DoNotOptimize(r.digest);
  }
}
BENCHMARK(BM_Square4_Magic)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Square4_Semi(benchmark::State& state) {
  const magic::SquareProblem<4> p({4, magic::SquareKind::Semi, true});
  magic::RunOptions ro;
  ro.threads = static_cast<unsigned>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(magic::run(p, ro).digest);
}
BENCHMARK(BM_Square4_Semi)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Square3_Magic(benchmark::State& state) {
  const magic::SquareProblem<3> p({3, magic::SquareKind::Magic, true});
  magic::RunOptions ro;
  ro.threads = 1;
  for (auto _ : state) benchmark::DoNotOptimize(magic::run(p, ro).digest);
}
BENCHMARK(BM_Square3_Magic)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
