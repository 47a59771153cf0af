// The task journal's cost per finished task: one JSON line appended to a
// buffer, written and fsync'd once per interval.  The per-task figure must
// not grow with the tasks already recorded (the old checkpoint rewrote them
// all), so it is measured after 1,000 and after 100,000 records.
// And the reader's cost per solution of a result file (magic::parse_json):
// it too must not grow with the solutions before it.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>
#include <unistd.h>

#include "magic/io.hpp"
#include "magic/journal.hpp"

namespace {

magic::TaskRecord sample_record(std::uint64_t i) {
  magic::TaskRecord r;
  r.unique = i % 7;
  r.total = 8 * r.unique;
  r.nodes = 123456 + i;
  r.cpu_seconds = 0.0123;
  r.digest.lo = i * 0x9e3779b97f4a7c15ull;
  r.digest.hi = ~i;
  r.by_key[50] = r.unique;
  return r;
}

const nlohmann::json kHeader{{"problem", {{"name", "bench"}}}, {"split_depth", 5}, {"shard", "0/1"},
                             {"tasks", 1u << 30}};

// range(0): records before the timed ones; range(1): sync interval in ms.
void BM_JournalRecord(benchmark::State& state) {
  const std::string path = "/tmp/bench_journal_" + std::to_string(::getpid()) + ".jsonl";
  std::remove(path.c_str());
  {
    magic::Journal j(path, kHeader, static_cast<double>(state.range(1)) / 1000.0);
    std::uint64_t task = 0;
    for (; task < static_cast<std::uint64_t>(state.range(0)); ++task) j.record(task, sample_record(task));
    j.flush();
    for (auto _ : state) {
      j.record(task, sample_record(task));
      ++task;
    }
    state.SetItemsProcessed(state.iterations());
  }
  std::remove(path.c_str());
}
BENCHMARK(BM_JournalRecord)->Args({1000, 2000})->Args({100000, 2000})->Args({1000, 0})->Unit(benchmark::kMicrosecond);

// range(0): solutions in the array, each an object as a result file lists them.
void BM_ParseSolutions(benchmark::State& state) {
  std::string text = "{\"solutions\":[";
  for (std::int64_t i = 0; i < state.range(0); ++i)
    text += std::string(i ? "," : "") + "{\"points\":[1,2,3,4,5,6,7,8],\"sum\":" + std::to_string(i % 90) + "}";
  text += "]}";
  const magic::JsonLimits limits{.max_depth = 64, .max_bytes = text.size()};
  for (auto _ : state) benchmark::DoNotOptimize(magic::parse_json(text, "bench", limits));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_ParseSolutions)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
