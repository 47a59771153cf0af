// Kernel benchmarks for the figure solver, side by side with the star
// family's chain on the same stars:
//   Chain/N          the {N/2} star's chain solver over every task, serially
//   FigureStar/N     the figure solver on star-N-2 (the same stars), serially
//   FigureType/10b   the figure solver on {10/3}, Howroyd's 10b
//   FigureStar12     star-12-2 on its compiled plan (figure/figure_compiled.hpp)
//   FigureStar12General  the same figure on the general search
// Read the ratio FigureStar / Chain from one run of this binary.
#include <benchmark/benchmark.h>

#include "known.hpp"
#include "figure/figure.hpp"
#include "magic/runner.hpp"
#include "star/star.hpp"

namespace {


nlohmann::json figure(const std::string& builtin) { return {{"name", "figure"}, {"builtin", builtin}}; }

template <int N>
void BM_Chain(benchmark::State& state) {
  const nlohmann::json spec{{"name", "star"}, {"n", N}};
  const magic::StarProblem<N> p(magic::star_spec_from_json(spec));
  const std::uint64_t want = perf::known_unique(spec);
  for (auto _ : state)
    if (perf::kernel(p) != want) state.SkipWithError("wrong count");
}

void figure_bench(benchmark::State& state, const std::string& builtin, bool compiled = true) {
  const magic::FigureProblem p = magic::figure_problem(magic::figure_spec_from_json(figure(builtin)), true, compiled);
  const std::uint64_t want = perf::known_unique(figure(builtin));
  for (auto _ : state)
    if (perf::kernel(p) != want) state.SkipWithError("wrong count");
}

void BM_FigureStar9(benchmark::State& st) { figure_bench(st, "star-9-2"); }
void BM_FigureStar10(benchmark::State& st) { figure_bench(st, "star-10-2"); }
void BM_FigureType10b(benchmark::State& st) { figure_bench(st, "star-10-3"); }
void BM_FigureCube3(benchmark::State& st) { figure_bench(st, "cube-3"); }
void BM_FigureStar12(benchmark::State& st) { figure_bench(st, "star-12-2"); }
void BM_FigureStar12General(benchmark::State& st) { figure_bench(st, "star-12-2", false); }

BENCHMARK(BM_Chain<9>)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_FigureStar9)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Chain<10>)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_FigureStar10)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_FigureType10b)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_FigureCube3)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Chain<12>)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_FigureStar12)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_FigureStar12General)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
