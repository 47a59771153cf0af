// Benchmarks for `complete`, side by side with the seed 004 port:
//   Seed004/<set>      the seed's DFS (baselines/seed004.cpp), first completion of every puzzle of a set
//   Complete/<set>     the engine on the same set: problem built from the parsed grid, restarts to the
//                      first completion, no runner (like the baseline, parsing is outside the loop)
//   FirstEmpty/<n>     first completion of an empty n x n grid through the runner (what the CLI does)
//   FirstEmptyPandiagonal/<n>  the same with --kind pandiagonal; the sparse battery of every kind
//                      is perf/battery_complete.py (one process per grid)
//   Count/<file>       --count through the runner, 2 threads, on the 5x5 puzzles with 8 givens
// The ratio Seed004 / Complete is the speedup; read it from one run of this binary
// (perf/compare.sh complete prints it).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#define SEED004_NO_MAIN
#include "baselines/seed004.cpp"
#include "complete/complete.hpp"
#include "magic/runner.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path kPuzzles = fs::path(__FILE__).parent_path() / "puzzles";

std::vector<fs::path> files(const std::string& dir, const std::string& prefix = "") {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(kPuzzles / dir))
    if (e.path().filename().string().rfind(prefix, 0) == 0) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The sets: directory and file-name prefix.
struct Set {
  const char* name;
  const char* dir;
  const char* prefix;
};
constexpr Set kSets[] = {
    {"3x3", "3x3", ""},           {"4x4", "4x4", ""},           {"4x4-b06", "4x4", "b06"},
    {"4x4-b08", "4x4", "b08"},    {"4x4-b10", "4x4", "b10"},    {"4x4-b12", "4x4", "b12"},
    {"5x5-b10", "5x5", "b10"},    {"5x5-b13", "5x5", "b13"},    {"5x5-b15", "5x5", "b15"},
};

void BM_Seed004(benchmark::State& state, Set set) {
  struct Item {
    std::vector<int> board;
    int size;
  };
  std::vector<Item> items;
  for (const auto& f : files(set.dir, set.prefix)) {
    Item it{};
    if (!seed004::read_grid(f.c_str(), it.board, it.size)) state.SkipWithError("unreadable puzzle");
    items.push_back(std::move(it));
  }
  for (auto _ : state) {
    int solved = 0;
    for (const Item& it : items) {
      const seed004::Solver s{it.size, it.size * (it.size * it.size + 1) / 2};
      std::vector<int> answer;
      solved += s.run(it.board, answer);
    }
    if (solved != static_cast<int>(items.size())) state.SkipWithError("a puzzle went unsolved");
  }
  state.counters["puzzles"] = static_cast<double>(items.size());
}

// A task context that stops at the first completion.
struct FirstCtx {
  std::uint64_t nodes = 0;
  bool found = false;
  template <class S>
  void emit(const S&) {
    found = true;
  }
  bool stopped() { return found; }
  bool aborted() const { return found; }
  void give_up() {}  // the sets here have no budget
};

void BM_Complete(benchmark::State& state, Set set) {
  std::vector<magic::CompleteSpec> specs;
  for (const auto& f : files(set.dir, set.prefix)) {
    magic::CompleteSpec sp;
    sp.puzzle = magic::parse_puzzle(std::string_view(slurp(f)));
    sp.exhaustive = false;
    specs.push_back(std::move(sp));
  }
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    int solved = 0;
    for (const auto& sp : specs)
      magic::with_complete_problem(sp, [&](const auto& p) {
        FirstCtx ctx;
        p.cut(0, [&](const auto& s, bool) { p.solve(s, ctx); });
        solved += ctx.found;
        nodes += ctx.nodes;
      });
    if (solved != static_cast<int>(specs.size())) state.SkipWithError("a puzzle went unsolved");
  }
  state.counters["puzzles"] = static_cast<double>(specs.size());
  state.counters["nodes/set"] = static_cast<double>(nodes) / static_cast<double>(state.iterations());
}

magic::Puzzle empty(int n) { return {n, std::vector<std::int64_t>(n * n, 0)}; }

// First completion of an empty grid of the given kind, through the runner.
void first_empty(benchmark::State& state, magic::SquareKind kind) {
  magic::CompleteSpec sp;
  sp.puzzle = empty(static_cast<int>(state.range(0)));
  sp.kind = kind;
  sp.exhaustive = false;
  sp.budget = magic::default_complete_budget(sp.puzzle.order);
  magic::RunOptions ro;
  ro.threads = 1;
  ro.limit = 1;
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    const auto r = magic::with_complete_problem(sp, [&](const auto& p) { return magic::run(p, ro); });
    if (r.unique != 1) state.SkipWithError("no completion");
    nodes = r.nodes;
  }
  state.counters["nodes"] = static_cast<double>(nodes);
}

void BM_FirstEmpty(benchmark::State& state) { first_empty(state, magic::SquareKind::Magic); }
BENCHMARK(BM_FirstEmpty)->ArgName("n")->DenseRange(5, 16)->Unit(benchmark::kMillisecond)->UseRealTime();

// Orders 9..16 (issue 47): semi-magic and associative too (none of the
// latter exist for orders 2 mod 4).
void BM_FirstEmptySemi(benchmark::State& state) { first_empty(state, magic::SquareKind::Semi); }
BENCHMARK(BM_FirstEmptySemi)->ArgName("n")->DenseRange(9, 16)->Unit(benchmark::kMillisecond)->UseRealTime();
void BM_FirstEmptyAssociative(benchmark::State& state) { first_empty(state, magic::SquareKind::Associative); }
BENCHMARK(BM_FirstEmptyAssociative)
    ->ArgName("n")
    ->Arg(9)->Arg(11)->Arg(12)->Arg(13)->Arg(15)->Arg(16)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The same for --kind pandiagonal (issue 21, item 5: orders 7 and 8 used to take minutes).
void BM_FirstEmptyPandiagonal(benchmark::State& state) { first_empty(state, magic::SquareKind::Pandiagonal); }
BENCHMARK(BM_FirstEmptyPandiagonal)->ArgName("n")->Arg(4)->Arg(5)->Arg(7)->Arg(8)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Count(benchmark::State& state, fs::path file) {
  magic::CompleteSpec sp;
  sp.puzzle = magic::parse_puzzle(std::string_view(slurp(file)));
  magic::RunOptions ro;
  ro.threads = 2;
  std::uint64_t unique = 0;
  for (auto _ : state)
    unique = magic::with_complete_problem(sp, [&](const auto& p) { return magic::run(p, ro); }).unique;
  state.counters["completions"] = static_cast<double>(unique);
}

const bool registered = [] {
  for (const Set& s : kSets) {
    benchmark::RegisterBenchmark((std::string("Seed004/") + s.name).c_str(), BM_Seed004, s)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((std::string("Complete/") + s.name).c_str(), BM_Complete, s)
        ->Unit(benchmark::kMillisecond);
  }
  for (const char* dir : {"5x5-count"})
    for (const auto& f : files(dir))
      benchmark::RegisterBenchmark(("Count/" + f.stem().string()).c_str(), BM_Count, f)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
  for (const auto& f : files("5x5", "b17"))
    benchmark::RegisterBenchmark(("Count/" + f.stem().string()).c_str(), BM_Count, f)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
