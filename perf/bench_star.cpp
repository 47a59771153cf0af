// Kernel benchmarks for stars, side by side with the seed 002 port:
//   Seed002/*        the documents' permutation search (baselines/seed002.cpp)
//   Star*/run        the engine through the runner (1 thread: tasks, digest, canonical forms)
//   Star*/kernel     the serial solver alone over every task, in one task context
//   *Partial*        the same row with the partial-sum solver (the K < n default before kept-lines)
// The ratio Seed002 / Star is the speedup; read it from one run of this binary.
#include <benchmark/benchmark.h>

#include <atomic>

#include "star/star.hpp"
#include "magic/runner.hpp"
#include "known.hpp"

#define SEED002_NO_MAIN
#include "baselines/seed002.cpp"

namespace {

// The specs as data/documents.json and data/known_counts.json write them.
const nlohmann::json kTenOf12{{"name", "star"}, {"n", 5}, {"numbers", "1..12"}, {"equal_lines", 5}};
const nlohmann::json kPentagram4{{"name", "star"}, {"n", 5}, {"numbers", "1..10"}, {"equal_lines", 4}};
// The same row with the partial-sum solver, the K < n default before kept-lines.
nlohmann::json with_solver(nlohmann::json spec, const char* solver) {
  spec["solver"] = solver;
  return spec;
}
nlohmann::json star(int n) { return {{"name", "star"}, {"n", n}}; }


void BM_Seed002(benchmark::State& state) {
  seed002::Search s;
  s.max = static_cast<int>(state.range(0));
  s.equal = static_cast<int>(state.range(1));
  const auto want = static_cast<long>(perf::known_unique(s.max == 12 ? kTenOf12 : kPentagram4));
  for (auto _ : state)
    if (s.run() != want) state.SkipWithError("wrong count");
}
BENCHMARK(BM_Seed002)->ArgNames({"max", "equal"})->Args({12, 5})->Args({10, 4})->Unit(benchmark::kMillisecond)->UseRealTime();

// `row`: the spec as the table of known counts has it (without a solver).
template <int N>
void run_bench(benchmark::State& state, const nlohmann::json& spec, const nlohmann::json& row) {
  const magic::StarProblem<N> p(magic::star_spec_from_json(spec));
  const std::uint64_t want = perf::known_unique(row);
  magic::RunOptions ro;
  ro.threads = static_cast<unsigned>(state.range(0));
  for (auto _ : state) {
    const auto r = magic::run(p, ro);
    if (r.unique != want) state.SkipWithError("wrong count");
    benchmark::DoNotOptimize(r.digest);
  }
}

template <int N>
void run_bench(benchmark::State& state, const nlohmann::json& spec) {
  run_bench<N>(state, spec, spec);
}

template <int N>
void kernel_bench(benchmark::State& state, const nlohmann::json& spec, const nlohmann::json& row) {
  const magic::StarProblem<N> p(magic::star_spec_from_json(spec));
  const std::uint64_t want = perf::known_unique(row);
  for (auto _ : state)
    if (perf::kernel(p) != want) state.SkipWithError("wrong count");
}

template <int N>
void kernel_bench(benchmark::State& state, const nlohmann::json& spec) {
  kernel_bench<N>(state, spec, spec);
}

void BM_StarTenOf12_run(benchmark::State& st) { run_bench<5>(st, kTenOf12); }
void BM_StarTenOf12_kernel(benchmark::State& st) { kernel_bench<5>(st, kTenOf12); }
void BM_StarPentagram4_run(benchmark::State& st) { run_bench<5>(st, kPentagram4); }
void BM_StarPentagram4_kernel(benchmark::State& st) { kernel_bench<5>(st, kPentagram4); }
void BM_StarPentagram4Partial_run(benchmark::State& st) {
  run_bench<5>(st, with_solver(kPentagram4, "partial-sums"), kPentagram4);
}
void BM_StarPentagram4Partial_kernel(benchmark::State& st) {
  kernel_bench<5>(st, with_solver(kPentagram4, "partial-sums"), kPentagram4);
}
void BM_StarHexagram_kernel(benchmark::State& st) { kernel_bench<6>(st, star(6)); }
void BM_StarN9_kernel(benchmark::State& st) { kernel_bench<9>(st, star(9)); }
void BM_StarN10_run(benchmark::State& st) { run_bench<10>(st, star(10)); }

BENCHMARK(BM_StarTenOf12_run)->Arg(1)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_StarTenOf12_kernel)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_StarPentagram4_run)->Arg(1)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_StarPentagram4_kernel)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_StarPentagram4Partial_run)->Arg(1)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_StarPentagram4Partial_kernel)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_StarHexagram_kernel)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_StarN9_kernel)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_StarN10_run)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
