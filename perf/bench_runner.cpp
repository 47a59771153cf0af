// The runner's fixed cost: whole runs of problems so small that the search
// itself takes a few microseconds, through magic::run_spec, as `reproduce`
// times its rows (so each run also reads the spec and builds the problem).
// Args: threads.
//   Runner/<row>   the documents' small rows (data/documents.json specs)
// A row's time minus its kernel's is what the runner adds per run.
#include <benchmark/benchmark.h>

#include "magic/spec.hpp"

namespace {

void run_rows(benchmark::State& state, const nlohmann::json& spec) {
  magic::RunOptions ro;
  ro.threads = static_cast<unsigned>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(magic::run_spec(spec, ro).result.digest);
}

const nlohmann::json kOneBlank{{"name", "complete"}, {"grid", {{2, 7, 6}, {9, 5, 1}, {4, 3, 0}}}, {"mode", "count"}};
const nlohmann::json kCentre5{{"name", "complete"}, {"grid", {{0, 0, 0}, {0, 5, 0}, {0, 0, 0}}}, {"mode", "count"}};
nlohmann::json circle(int n) { return {{"name", "circle"}, {"n", n}}; }

void BM_Runner_OneBlank(benchmark::State& s) { run_rows(s, kOneBlank); }
void BM_Runner_Centre5(benchmark::State& s) { run_rows(s, kCentre5); }
void BM_Runner_Square3(benchmark::State& s) { run_rows(s, {{"name", "square"}, {"order", 3}}); }
void BM_Runner_Circle(benchmark::State& s) { run_rows(s, circle(static_cast<int>(s.range(1)))); }

BENCHMARK(BM_Runner_OneBlank)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_Runner_Centre5)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_Runner_Square3)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_Runner_Circle)
    ->ArgNames({"threads", "n"})
    ->ArgsProduct({{1, 2}, {4, 7, 9, 10, 11}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
