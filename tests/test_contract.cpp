// The runner's guarantees, checked once for every problem (one line each in
// cases()): the result does not depend on how the work is split or
// scheduled, shards add up, the three dedup paths agree, a stop keeps the
// first solutions in task order, and a checkpoint resumes on another thread
// count.  Each case also carries an independent count to anchor the
// reference run.
#include <gtest/gtest.h>

#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <tbb/info.h>
#include <unistd.h>

#include "magic/core/merger.hpp"
#include "magic/core/planner.hpp"
#include "magic/core/scheduler.hpp"
#include "magic/core/stop.hpp"
#include "magic/journal.hpp"
#include "magic/runner.hpp"
#include "magic/spec.hpp"
#include "magic/result.hpp"
#include "resume_check.hpp"
#include "temp_path.hpp"
#include "toy_problem.hpp"

namespace {

using magic::RunOptions;
using magic::RunResult;
using Runner = std::function<RunResult(const RunOptions&)>;

struct Case {
  std::string name;
  Runner run;         // the problem as users run it
  Runner all_images;  // the same with every image emitted (canonical filter); empty if none
  std::uint64_t unique;
  std::string source;  // of `unique`
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

Runner spec_runner(const nlohmann::json& spec) {
  return [spec](const RunOptions& ro) { return magic::run_spec(spec, ro).result; };
}

Case spec_case(std::string name, nlohmann::json spec, bool has_images, std::uint64_t unique, std::string source) {
  Runner images;
  if (has_images) {
    nlohmann::json all = spec;
    all["symmetry_breaking"] = false;
    images = spec_runner(all);
  }
  return {std::move(name), spec_runner(spec), images, unique, std::move(source)};
}

// Sets of 6 of 1..20 with sum 63, counted by brute force over all 2^20 sets.
std::uint64_t subset_sum_oracle() {
  std::uint64_t n = 0;
  for (std::uint32_t m = 0; m < (1u << 20); ++m) {
    if (std::popcount(m) != 6) continue;
    int sum = 0;
    for (int v = 1; v <= 20; ++v) sum += (m >> (v - 1) & 1) * v;
    n += sum == 63;
  }
  return n;
}

std::vector<Case> cases() {
  const std::string empty4 = "0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0";
  return {
      spec_case("square4_semi", {{"name", "square"}, {"order", 4}, {"kind", "semi"}}, true, 68688,
                "OEIS A271104"),
      spec_case("square5_associative", {{"name", "square"}, {"order", 5}, {"kind", "associative"}}, false, 48544,
                "OEIS A081262"),
      spec_case("square5_semi_slice",
                {{"name", "square"}, {"order", 5}, {"kind", "semi"}, {"first_row", {1, 2, 13, 24, 25}},
                 {"first_column", {1, 3, 17, 21, 23}}},
                false, 17102, "complete --kind semi on that grid (the cell-by-cell solver; test_square_semi.cpp)"),
      spec_case("star8", {{"name", "star"}, {"n", 8}}, true, 112, "OEIS A200720"),
      spec_case("pentagram_k4", {{"name", "star"}, {"n", 5}, {"numbers", "1..10"}, {"equal_lines", 4}}, true, 168,
                "seed 000"),
      spec_case("circle10", {{"name", "circle"}, {"n", 10}}, false, 6, "seed 003"),
      spec_case("circle14_multiplier", {{"name", "circle"}, {"n", 14}, {"method", "multiplier"}}, false, 20,
                "seed 003"),
      spec_case("complete4_empty", {{"name", "complete"}, {"grid", empty4}}, false, 7040, "seed 001"),
      spec_case("figure_hexagon", {{"name", "figure"}, {"builtin", "hexagon-3"}}, true, 1,
                "the magic hexagon is unique (Adams; Trigg 1964)"),
      spec_case("figure_cube3", {{"name", "figure"}, {"builtin", "cube-3"}}, true, 4,
                "4 magic cubes of order 3 up to its 48 symmetries (Wikipedia 'Magic cube')"),
      spec_case("figure_pentagram_k4", {{"name", "figure"}, {"builtin", "pentagram"}, {"equal_lines", 4}}, true, 168,
                "seed 000"),
      spec_case("graph_cycle7_vmt", {{"name", "graph"}, {"builtin", "cycle-7"}, {"labeling", "vertex-magic-total"}},
                true, 118, "OEIS A145692"),
      spec_case("graph_path6_emt", {{"name", "graph"}, {"builtin", "path-6"}, {"labeling", "edge-magic-total"}}, true,
                944, "OEIS A237426"),
      {"toy_subset_sum", [](const RunOptions& ro) { return magic::run(SubsetSum{20, 6, 63}, ro); }, {},
       subset_sum_oracle(), "brute force"},
  };
}

class Contract : public ::testing::TestWithParam<Case> {};

// The run and the first n solutions it hands out, in order.
std::pair<RunResult, std::vector<std::string>> run_with_solutions(const Runner& run, RunOptions ro,
                                                                  std::uint64_t n) {
  std::vector<std::string> out;
  ro.solutions = n;
  ro.on_solution = [&](const nlohmann::json& s) { out.push_back(s.dump()); };
  RunResult r = run(ro);
  return {std::move(r), std::move(out)};
}
std::vector<std::string> first_solutions(const Runner& run, RunOptions ro, std::uint64_t n) {
  return run_with_solutions(run, std::move(ro), n).second;
}

void expect_same(const RunResult& r, const RunResult& ref, const std::string& what) {
  EXPECT_EQ(r.digest, ref.digest) << what;
  EXPECT_EQ(r.unique, ref.unique) << what;
  EXPECT_EQ(r.total, ref.total) << what;
  EXPECT_EQ(r.by_key, ref.by_key) << what;
  EXPECT_TRUE(r.exhaustive) << what;
}

TEST_P(Contract, ReferenceRunMatchesTheIndependentCount) {
  const auto r = GetParam().run({.threads = 1});
  EXPECT_EQ(r.unique, GetParam().unique) << GetParam().source;
  EXPECT_TRUE(r.exhaustive);
  EXPECT_GT(r.tasks, 0u);
}

// The result, whatever the threads and the split depth; and, on a corner
// of that grid, the first solutions handed out, in the same order.
TEST_P(Contract, SameResultAndSolutionOrderForAnyThreadsAndSplitDepth) {
  const auto [ref, ref_solutions] = run_with_solutions(GetParam().run, {.threads = 1, .split_depth = 0}, 50);
  EXPECT_EQ(ref_solutions.size(), std::min<std::uint64_t>(50, GetParam().unique));
  for (unsigned t : {1u, 2u, 3u, 8u})
    for (int d : {-1, 0, 1, 2, 3, 5, 40}) {
      const std::string what = "threads " + std::to_string(t) + " depth " + std::to_string(d);
      const bool listed = (t == 2 || t == 8) && (d == -1 || d == 2);
      const auto [r, solutions] = run_with_solutions(GetParam().run, {.threads = t, .split_depth = d}, listed ? 50 : 0);
      expect_same(r, ref, what);
      if (listed) {
        EXPECT_EQ(solutions, ref_solutions) << what;
      }
    }
}

TEST_P(Contract, ShardsAddUpToTheWhole) {
  const auto whole = GetParam().run({});
  for (std::uint32_t m : {2u, 3u, 7u}) {
    magic::TaskRecord sum;
    std::uint64_t tasks = 0;
    for (std::uint32_t i = 0; i < m; ++i) {
      const auto r = GetParam().run({.shard_index = i, .shard_count = m});
      sum.merge({r.unique, r.total, 0, 0, r.digest, r.additive, r.by_key});
      tasks += r.tasks_run;
      EXPECT_EQ(r.tasks, whole.tasks);
    }
    EXPECT_EQ(tasks, whole.tasks) << m << " shards";
    EXPECT_EQ(sum.digest, whole.digest) << m << " shards";
    EXPECT_EQ(sum.unique, whole.unique);
    EXPECT_EQ(sum.total, whole.total);
    EXPECT_EQ(sum.by_key, whole.by_key);
  }
}

// The planner hands tasks out in chunks; the chunk size changes nothing,
// with shards, with the hash set, and for the solutions handed out.
TEST_P(Contract, TaskChunksChangeNothing) {
  // Each run is checked for its result and its first solutions at once.
  const auto [whole, ref] = run_with_solutions(GetParam().run, {}, 20);
  for (std::size_t chunk : {std::size_t{1}, std::size_t{7}, std::size_t{1000}}) {
    const std::string what = "chunk " + std::to_string(chunk);
    RunOptions ro{.threads = 3};
    ro.task_chunk = chunk;
    const auto [r, solutions] = run_with_solutions(GetParam().run, ro, 20);
    expect_same(r, whole, what);
    EXPECT_EQ(solutions, ref) << what;
    RunOptions hs = ro;
    hs.dedup = magic::DedupMode::HashSet;
    expect_same(GetParam().run(hs), whole, what + " hash set");
    magic::TaskRecord sum;
    for (std::uint32_t i = 0; i < 3; ++i) {
      RunOptions shard = ro;
      shard.shard_index = i;
      shard.shard_count = 3;
      const auto part = GetParam().run(shard);
      sum.merge({part.unique, part.total, 0, 0, part.digest, part.additive, part.by_key});
    }
    EXPECT_EQ(sum.digest, whole.digest) << what << " shards";
    EXPECT_EQ(sum.unique, whole.unique) << what << " shards";
  }
}

TEST_P(Contract, DedupPathsAgree) {
  const auto gen = GetParam().run({});
  RunOptions hs;
  hs.dedup = magic::DedupMode::HashSet;
  const auto set_gen = GetParam().run(hs);
  EXPECT_EQ(gen.dedup, "generator");
  EXPECT_EQ(set_gen.dedup, "hash-set");
  expect_same(set_gen, gen, "hash set over the generator");
  if (!GetParam().all_images) return;
  const auto filter = GetParam().all_images({});
  const auto set_all = GetParam().all_images(hs);
  EXPECT_EQ(filter.dedup, "canonical-filter");
  expect_same(filter, gen, "canonical filter");
  expect_same(set_all, gen, "hash set over every image");
}

// A stop after k keeps exactly the first k solutions of the full run, in
// task order, whatever the threads and the split; also when the generator
// emits every image and only some count.
TEST_P(Contract, StopAfterKeepsTheFirstSolutionsInOrder) {
  for (const Runner* run : {&GetParam().run, &GetParam().all_images}) {
    if (!*run) continue;
    const auto ref = first_solutions(*run, {}, 5);
    for (unsigned t : {1u, 2u, 4u})
      for (int d : {-1, 1, 3}) {
        RunOptions ro{.threads = t, .split_depth = d, .limit = 5};
        EXPECT_EQ(first_solutions(*run, ro, 5), ref) << "threads " << t << " depth " << d;
        ro.solutions = 5;
        const auto r = (*run)(ro);
        EXPECT_EQ(r.unique, std::min<std::uint64_t>(5, GetParam().unique));
        if (GetParam().unique > 5) {
          EXPECT_FALSE(r.exhaustive);
        }
      }
  }
}

TEST_P(Contract, CheckpointResumesOnAnotherThreadCount) {
  const auto whole = GetParam().run({.split_depth = 3});
  const ScratchPath path("contract_" + GetParam().name);
  std::atomic<bool> stop{false};
  std::uint64_t resumed = 0;
  const auto part = GetParam().run(stopped_after_a_third(path, stop));
  EXPECT_TRUE(part.interrupted);
  EXPECT_FALSE(part.exhaustive);
  EXPECT_GT(part.tasks_saved, 0u);

  RunOptions again{.threads = 3, .split_depth = 3};
  again.checkpoint = path.str();
  again.on_resume = [&](std::uint64_t n) { resumed = n; };
  const auto rest = GetParam().run(again);
  EXPECT_EQ(resumed, part.tasks_saved);
  EXPECT_EQ(rest.tasks_resumed, part.tasks_saved);
  EXPECT_EQ(rest.tasks_run + rest.tasks_resumed, whole.tasks);
  expect_same(rest, whole, "resumed");
  // Every saved task was run by this build; a run without a checkpoint names none.
  const std::map<std::string, std::uint64_t> by_this{{magic::BuildInfo::source(), whole.tasks}};
  EXPECT_EQ(rest.task_sources, by_this);
  EXPECT_EQ(magic::run_json(rest).at("task_sources"), nlohmann::json(by_this));
  EXPECT_FALSE(magic::run_json(whole).contains("task_sources"));
}

// A checkpointed run that lists solutions hands them out in task order
// across a stop and a resume on another thread count, and so does one that
// resumes a journal written without them (those tasks are run again).
TEST_P(Contract, CheckpointListsTheSolutionsOfResumedTasks) {
  const auto [whole, ref] = run_with_solutions(GetParam().run, {.threads = 1, .split_depth = 3}, 200);
  for (std::uint64_t first_listing : {200u, 0u}) {
    const std::string what = "first stretch lists " + std::to_string(first_listing);
    const ScratchPath path("contract_listed_" + GetParam().name);
    std::atomic<bool> stop{false};
    const auto part = run_with_solutions(GetParam().run, stopped_after_a_third(path, stop), first_listing).first;
    EXPECT_TRUE(part.interrupted) << what;
    RunOptions again{.threads = 3, .split_depth = 3};
    again.checkpoint = path.str();
    const auto [rest, listed] = run_with_solutions(GetParam().run, again, 200);
    expect_same(rest, whole, what);
    EXPECT_EQ(listed, ref) << what;
    EXPECT_EQ(rest.tasks_run + rest.tasks_resumed, whole.tasks) << what;
    if (first_listing) {
      EXPECT_EQ(rest.tasks_resumed, part.tasks_saved) << what;
    }
  }
}

RunOptions forced_split(RunOptions ro, std::uint64_t budget) {
  ro.split_always = true;
  ro.split_nodes = budget;
  return ro;
}

// Adaptive splitting (core/split.hpp), forced on at every node budget from
// one node up: every node is still searched exactly once, so the counts,
// the digest and the node count are those of the unsplit run, and pieces
// fold back in walk order, so the solutions handed out are too.  Budget 1
// from the root splits every task as far as it goes.
TEST_P(Contract, AdaptiveSplittingChangesNothing) {
  RunOptions plain{.threads = 1};
  plain.adaptive = false;
  const auto [ref, ref_solutions] = run_with_solutions(GetParam().run, plain, 50);
  EXPECT_EQ(ref.pieces, 0u);
  for (std::uint64_t budget : {1ull, 50ull, 5000ull, 1ull << 20})
    for (unsigned t : {1u, 2u, 3u, 8u}) {
      // Budget 1 makes a piece of every node, the slowest by far: one
      // thread and more threads than cores (the root run below has 3).
      if (budget == 1 && (t == 2 || t == 3)) continue;
      const std::string what = "budget " + std::to_string(budget) + " threads " + std::to_string(t);
      const auto [r, solutions] = run_with_solutions(GetParam().run, forced_split({.threads = t}, budget), 50);
      expect_same(r, ref, what);
      EXPECT_EQ(r.nodes, ref.nodes) << what;
      EXPECT_TRUE(r.adaptive) << what;
      EXPECT_EQ(solutions, ref_solutions) << what;
    }
  // From the root down, where every problem has levels left to split.
  RunOptions whole_tree = plain;
  whole_tree.split_depth = 0;
  const auto root_ref = GetParam().run(whole_tree);
  const auto [r, solutions] =
      run_with_solutions(GetParam().run, forced_split({.threads = 3, .split_depth = 0}, 1), 50);
  expect_same(r, ref, "split as far as it goes");
  EXPECT_EQ(r.nodes, root_ref.nodes);
  EXPECT_GT(r.pieces, 0u);
  EXPECT_EQ(solutions, ref_solutions);
}

// The hash set sees pieces' solutions in walk order too, and a stopped
// search keeps its tasks whole (it wants the first solutions, in order).
TEST_P(Contract, AdaptiveSplittingWithHashSetAndStop) {
  RunOptions hs{.threads = 3};
  hs.dedup = magic::DedupMode::HashSet;
  RunOptions plain = hs;
  plain.adaptive = false;
  const auto [ref, ref_solutions] = run_with_solutions(GetParam().run, plain, 30);
  hs.split_depth = 0;
  const auto [r, solutions] = run_with_solutions(GetParam().run, forced_split(hs, 2), 30);
  expect_same(r, ref, "hash set");
  EXPECT_GT(r.pieces, 0u);
  EXPECT_EQ(solutions, ref_solutions);
  const auto stopped = GetParam().run(forced_split({.threads = 3, .limit = 5}, 1));
  EXPECT_FALSE(stopped.adaptive);
  EXPECT_EQ(stopped.pieces, 0u);
}

// Issue 65: tasks that finish ahead of their turn keep at most hold_bytes
// of solutions in memory and spill the rest; with a window of nothing,
// every such task spills.  Pieces (forced splits, whose owner waits for
// them), the hash set and a stopped search hand out what they did before.
TEST_P(Contract, AWindowOfNothingChangesNothing) {
  RunOptions plain{.threads = 1};
  plain.adaptive = false;
  const auto [ref, ref_solutions] = run_with_solutions(GetParam().run, plain, ~std::uint64_t{0});
  for (unsigned t : {3u}) {  // more threads than cores: tasks finish out of order
    RunOptions ro = forced_split({.threads = t}, 50);
    ro.hold_bytes = 0;
    const auto [r, solutions] = run_with_solutions(GetParam().run, ro, ~std::uint64_t{0});
    expect_same(r, ref, "threads " + std::to_string(t));
    EXPECT_EQ(solutions, ref_solutions) << t;
    RunOptions hs = ro;
    hs.dedup = magic::DedupMode::HashSet;
    const auto [h, hash_solutions] = run_with_solutions(GetParam().run, hs, ~std::uint64_t{0});
    expect_same(h, ref, "hash set, threads " + std::to_string(t));
    EXPECT_EQ(hash_solutions.size(), ref_solutions.size()) << t;
    RunOptions stop{.threads = t, .limit = 7};
    stop.hold_bytes = 0;
    RunOptions stop_ref{.threads = 1, .limit = 7};
    EXPECT_EQ(first_solutions(GetParam().run, stop, 7), first_solutions(GetParam().run, stop_ref, 7)) << t;
  }
}

// A toy whose task 0 (first number 1) starts late: every other task
// finishes ahead of it, and with no window spills its solutions.
struct LateFirst : SubsetSum {
  template <class Ctx>
  void solve(const State& t, Ctx& ctx) const {
    if (t.size == 1 && t.last == 1) std::this_thread::sleep_for(std::chrono::milliseconds(300));
    SubsetSum::solve(t, ctx);
  }
};

TEST(Runner, TasksAheadOfTheirTurnSpillAndComeBackInOrder) {
  const LateFirst late{{20, 6, 63}};
  const Runner plain = [&](const RunOptions& ro) { return magic::run(SubsetSum{20, 6, 63}, ro); };
  const Runner slow = [&](const RunOptions& ro) { return magic::run(late, ro); };
  const auto [ref, ref_listed] = run_with_solutions(plain, {.threads = 1, .split_depth = 1}, ~std::uint64_t{0});
  const ScratchPath spill_dir("contract_spill");
  std::filesystem::create_directories(spill_dir.path());
  for (std::size_t hold : {std::size_t{0}, std::size_t{1} << 20}) {
    RunOptions ro{.threads = 2, .split_depth = 1};
    ro.adaptive = false;  // task 0 stays one piece
    ro.hold_bytes = hold;
    ro.spill_directory = spill_dir.str();
    const auto [r, listed] = run_with_solutions(slow, ro, ~std::uint64_t{0});
    expect_same(r, ref, "hold " + std::to_string(hold));
    EXPECT_EQ(listed, ref_listed);
    if (hold == 0) EXPECT_GT(r.tasks_spilled, 5u);
    else EXPECT_EQ(r.tasks_spilled, 0u);
    // The spill file is unlinked at once: nothing is left behind.
    EXPECT_TRUE(std::filesystem::is_empty(spill_dir.path()));
  }
  RunOptions bad{.threads = 2, .split_depth = 1};
  bad.adaptive = false;
  bad.hold_bytes = 0;
  bad.spill_directory = spill_dir.str() + "/missing";
  const auto [r, listed] = run_with_solutions(slow, bad, ~std::uint64_t{0});  // falls back to $TMPDIR
  expect_same(r, ref, "spilled to $TMPDIR");
  EXPECT_EQ(listed, ref_listed);
}

// A split task is journalled only once all its pieces are done, so a run
// stopped mid-way resumes to the same result.
TEST_P(Contract, CheckpointOfASplitRunResumes) {
  RunOptions plain{.split_depth = 1};
  plain.adaptive = false;
  const auto whole = GetParam().run(plain);
  const ScratchPath path("contract_split_" + GetParam().name);
  std::atomic<bool> stop{false};
  // One thread, so the stop lands early whatever the load, and in the
  // middle of a split task: a piece finishing ticks the progress too.
  RunOptions ro = forced_split({.threads = 1, .split_depth = 1}, 2);
  ro.checkpoint = path.str();
  ro.checkpoint_interval = 0;
  ro.interrupt = &stop;
  ro.progress_interval = 0;
  ro.on_progress = [&](const magic::Progress& p) {
    if (p.tasks_done * 3 > p.tasks_total || p.pieces_done > 3) stop = true;
  };
  const auto part = GetParam().run(ro);
  EXPECT_FALSE(part.exhaustive);
  RunOptions again = forced_split({.threads = 3, .split_depth = 1}, 5);
  again.checkpoint = path.str();
  const auto rest = GetParam().run(again);
  EXPECT_EQ(rest.tasks_resumed, part.tasks_saved);
  EXPECT_EQ(rest.tasks_run + rest.tasks_resumed, whole.tasks);
  expect_same(rest, whole, "resumed after a split run");
}

INSTANTIATE_TEST_SUITE_P(Problems, Contract, ::testing::ValuesIn(cases()),
                         [](const auto& param) { return param.param.name; });

// --- runner behaviour that is the same for every problem --------------------

TEST(Runner, CheckpointOfAnotherRunIsRefused) {
  const ScratchPath path("contract_other");
  RunOptions ro;
  ro.checkpoint = path.str();
  magic::run_spec({{"name", "circle"}, {"n", 8}}, ro);
  EXPECT_TRUE(std::filesystem::exists(path.path()));
  EXPECT_THROW(magic::run_spec({{"name", "circle"}, {"n", 9}}, ro), magic::CheckpointError);
  RunOptions other_depth = ro;
  other_depth.split_depth = 1;
  EXPECT_THROW(magic::run_spec({{"name", "circle"}, {"n", 8}}, other_depth), magic::CheckpointError);
}

// More threads than cores: each task waits until all of them are in at
// once, which only as many threads as asked can bring about (oneTBB alone
// would stop at the cores, and the run block would claim threads it never had).
TEST(Runner, RunsAsManyThreadsAsAskedBeyondTheCores) {
  const unsigned asked = static_cast<unsigned>(tbb::info::default_concurrency()) + 2;
  std::atomic<unsigned> inside{0};
  std::atomic<bool> all_met{true};
  magic::schedule(asked, asked, [&](std::size_t) {
    ++inside;
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (inside.load() < asked && std::chrono::steady_clock::now() < give_up) std::this_thread::yield();
    if (inside.load() < asked) all_met = false;
  });
  EXPECT_TRUE(all_met.load()) << "fewer than " << asked << " threads ran at once";
  // The limit is the run's only: a later run within the cores is not widened.
  EXPECT_EQ(tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism),
            static_cast<std::size_t>(tbb::info::default_concurrency()));
}

TEST(Runner, HashSetRespectsItsMemoryLimit) {
  RunOptions ro;
  ro.dedup = magic::DedupMode::HashSet;
  ro.dedup_memory = 64 << 10;
  EXPECT_THROW(magic::run_spec({{"name", "square"}, {"order", 4}, {"kind", "semi"}}, ro), magic::MemoryLimitError);
}

TEST(Runner, BadShardsAndOptionMixesAreSpecErrors) {
  const nlohmann::json spec{{"name", "square"}, {"order", 3}};
  EXPECT_THROW(magic::run_spec(spec, {.shard_index = 2, .shard_count = 2}), magic::SpecError);
  EXPECT_THROW(magic::run_spec(spec, {.shard_count = 0}), magic::SpecError);
  RunOptions limited{.limit = 1};
  limited.checkpoint = unique_temp_path("never_written");
  EXPECT_THROW(magic::run_spec(spec, limited), magic::SpecError);
  EXPECT_FALSE(std::filesystem::exists(limited.checkpoint));
  for (double seconds : {std::nan(""), HUGE_VAL, -1.0}) {
    RunOptions never{.checkpoint_interval = seconds};
    never.checkpoint = unique_temp_path("never_written");
    EXPECT_THROW(magic::run_spec(spec, never), magic::SpecError) << seconds;
    EXPECT_FALSE(std::filesystem::exists(never.checkpoint));
  }
  RunOptions hs{.shard_index = 0, .shard_count = 2};
  hs.dedup = magic::DedupMode::HashSet;
  EXPECT_THROW(magic::run_spec(spec, hs), magic::SpecError);
}

TEST(Runner, DefaultSplitDepthReachesTheTargetTaskCount) {
  const SubsetSum p{20, 6, 63};
  const int d = magic::split_depth_for_tasks(p);
  EXPECT_GE(magic::plan_tasks(p, d).size(), magic::kTargetTasks);
  EXPECT_LT(magic::plan_tasks(p, d - 1).size(), magic::kTargetTasks);
  // A tree too small for the target stops where nothing can be cut deeper.
  const SubsetSum tiny{6, 2, 7};
  const int dt = magic::split_depth_for_tasks(tiny);
  EXPECT_EQ(dt, 2);
  EXPECT_EQ(magic::plan_tasks(tiny, dt).size(), 15u);  // every pair is a leaf task
}

// A search of at most kProbeNodes nodes runs whole, as the tasks at depth 0,
// and a larger one at the level rule's depth; run() and
// default_split_depth() (which the cluster plans with) agree.
TEST(Runner, ASmallSearchRunsWholeAtTheDefaultDepth) {
  const SubsetSum tiny{6, 2, 7};
  EXPECT_EQ(magic::default_split_depth(tiny), 0);
  const RunResult r = magic::run(tiny, {.threads = 2});
  EXPECT_EQ(r.split_depth, 0);
  EXPECT_EQ(r.tasks, 1u);
  EXPECT_EQ(r.tasks_run, 1u);
  EXPECT_EQ(r.digest, magic::run(tiny, {.threads = 2, .split_depth = 2}).digest);

  const SubsetSum big{24, 8, 100};  // C(24, 8) = 735,471 leaves
  EXPECT_EQ(magic::default_split_depth(big), magic::split_depth_for_tasks(big));
  EXPECT_GT(magic::run(big, {}).tasks, 1u);
  // A cut probe leaves no trace in the result.
  EXPECT_EQ(magic::run(big, {}).nodes, magic::run(big, {.split_depth = magic::split_depth_for_tasks(big)}).nodes);
}

// Two roots (the multiplier method's branches): two tasks, each its own
// record, so shards and checkpoints see them as at any depth.
TEST(Runner, AWholeSearchKeepsEveryRootAsATask) {
  const nlohmann::json spec{{"name", "circle"}, {"n", 10}, {"method", "multiplier"}};
  const RunResult r = magic::run_spec(spec).result;
  ASSERT_EQ(r.split_depth, 0);
  EXPECT_EQ(r.tasks, 2u);
  const RunResult s0 = magic::run_spec(spec, {.shard_index = 0, .shard_count = 2}).result;
  const RunResult s1 = magic::run_spec(spec, {.shard_index = 1, .shard_count = 2}).result;
  EXPECT_EQ(s0.tasks_run + s1.tasks_run, 2u);
  magic::Digest sum = s0.digest;
  sum.merge(s1.digest);
  EXPECT_EQ(sum, r.digest);
  EXPECT_EQ(s0.unique + s1.unique, r.unique);
}

// A toy whose task 0 (first number 1) waits until `later` other tasks are
// in the journal on disk, and copies the file there: what a SIGKILL at that
// moment would leave.
struct SlowFirst : SubsetSum {
  std::string journal, killed;
  std::uint64_t later;
  template <class Ctx>
  void solve(const State& t, Ctx& ctx) const {
    if (t.size == 1 && t.last == 1) wait_then_copy();
    SubsetSum::solve(t, ctx);
  }
  void wait_then_copy() const {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < give_up) {
      const auto on_disk = magic::read_journal(journal);
      if (on_disk && on_disk->done.size() >= later) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    std::filesystem::copy_file(journal, killed);
  }
};

// A task is journalled when it finishes, not when the tasks before it are
// done: a kill while task 0 still runs loses task 0 alone, and the resume
// gives the result, and the solutions in order, of a run never stopped.
TEST(Runner, AFinishedTaskIsJournalledWhileATaskBeforeItStillRuns) {
  const SubsetSum p{20, 6, 63};
  const Runner plain = [&](const RunOptions& ro) { return magic::run(p, ro); };
  const auto [ref, ref_listed] = run_with_solutions(plain, {.threads = 1, .split_depth = 1}, 500);
  const ScratchPath journal("contract_eager"), killed("contract_eager_killed");
  const SlowFirst slow{p, journal.str(), killed.str(), 5};
  RunOptions ro{.threads = 2, .split_depth = 1};
  ro.adaptive = false;  // task 0 stays one piece
  ro.checkpoint = journal.str();
  ro.checkpoint_interval = 0;
  const auto [first, first_listed] =
      run_with_solutions([&](const RunOptions& o) { return magic::run(slow, o); }, ro, 500);
  expect_same(first, ref, "the run that waited");
  EXPECT_EQ(first_listed, ref_listed);

  const auto on_disk = magic::read_journal(killed.str());
  ASSERT_TRUE(on_disk);
  EXPECT_GE(on_disk->done.size(), 5u) << "finished tasks waited for task 0";
  EXPECT_EQ(on_disk->done.count(0), 0u);
  RunOptions again{.threads = 1, .split_depth = 1};
  again.checkpoint = killed.str();
  const auto [rest, rest_listed] = run_with_solutions(plain, again, 500);
  EXPECT_EQ(rest.tasks_resumed, on_disk->done.size());
  EXPECT_EQ(rest.tasks_run + rest.tasks_resumed, ref.tasks);
  expect_same(rest, ref, "resumed after the kill");
  EXPECT_EQ(rest.nodes, ref.nodes);
  EXPECT_EQ(rest_listed, ref_listed);
}

// One Stop for every reason a run stops: the first reason is kept, the
// first failure is rethrown, and the caller's flag is seen whatever came first.
TEST(Stop, KeepsTheFirstReasonAndFailureAndSeesTheCallersFlag) {
  std::atomic<bool> signal{false};
  magic::Stop stop(&signal);
  EXPECT_FALSE(stop.requested());
  EXPECT_EQ(stop.why(), magic::Stop::Why::None);
  stop.request(magic::Stop::Why::Limit);
  stop.fail(std::make_exception_ptr(std::runtime_error("first")));
  stop.fail(std::make_exception_ptr(std::logic_error("second")));
  EXPECT_TRUE(stop.requested());
  EXPECT_EQ(stop.why(), magic::Stop::Why::Limit);
  EXPECT_TRUE(stop.failed());
  EXPECT_THROW(stop.rethrow(), std::runtime_error);
  EXPECT_FALSE(stop.interrupted());
  signal = true;
  EXPECT_TRUE(stop.interrupted());

  magic::Stop by_signal(&signal);
  EXPECT_TRUE(by_signal.requested());
  EXPECT_EQ(by_signal.why(), magic::Stop::Why::Interrupt);
  EXPECT_NO_THROW(by_signal.rethrow());
}

// A task handed over twice (a worker's bug) fails the run, and its record
// reaches the journal once: a resume would refuse a journal that has it twice.
TEST(Runner, ATaskFinishedTwiceFailsTheRunAndIsJournalledOnce) {
  const SubsetSum p{6, 2, 7};
  const ScratchPath path("contract_twice");
  {
    magic::Journal journal(path.str(), {{"tasks", 2}}, 0);
    const magic::Erased<SubsetSum> erased(p);
    magic::Stop stop;
    magic::OrderedMerger merger(erased, {}, &journal, stop);
    merger.begin_chunk({0, 1});
    auto task = [&] { return erased.context(merger.emit_policy(), stop); };
    merger.finish(1, task(), [] {});
    merger.finish(1, task(), [] {});
    EXPECT_EQ(stop.why(), magic::Stop::Why::Failure);
    EXPECT_THROW(stop.rethrow(), std::logic_error);
  }
  const auto on_disk = magic::read_journal(path.str());
  ASSERT_TRUE(on_disk);
  EXPECT_EQ(on_disk->done.size(), 1u);
}

// A problem with an orbit bound adds `total` unchecked in its loop
// (count_solution; square5.hpp: 8); its task checks unique * kOrbitBound at
// its end, so a count that may have passed 2^64 - 1 fails the run as a
// checked addition does.
struct SubsetSumWideOrbits : SubsetSum {
  static constexpr std::uint64_t kOrbitBound = std::uint64_t{1} << 62;
};

TEST(Runner, ATaskPastItsOrbitBoundFailsTheRun) {
  for (const int depth : {0, 3}) {
    try {
      magic::run(SubsetSumWideOrbits{{20, 6, 63}}, {.threads = 2, .split_depth = depth});
      ADD_FAILURE() << "depth " << depth << ": no error";
    } catch (const magic::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("passes 2^64 - 1"), std::string::npos) << e.what();
    }
  }
  const RunResult r = magic::run(SubsetSum{20, 6, 63}, {.threads = 2, .split_depth = 0});
  EXPECT_GT(r.unique, 4u);  // the same search without the bound: the wide one did count past 4
}

// Puts another file in the journal's place while task 4 runs, as a `git
// checkout` of an older copy of the journal would.
struct SwapsJournal : SubsetSum {
  std::string journal;
  template <class Ctx>
  void solve(const State& t, Ctx& ctx) const {
    if (t.size == 1 && t.last == 5) {
      std::ofstream(journal + ".older") << "older\n";
      std::filesystem::rename(journal + ".older", journal);
    }
    SubsetSum::solve(t, ctx);
  }
};

// The run stops rather than report tasks saved into a file no one sees, and
// the records it rescued resume it to the result of a run never stopped.
TEST(Runner, AJournalReplacedUnderTheRunStopsItAndItsRescuedRecordsResumeIt) {
  const SubsetSum p{20, 6, 63};
  const magic::RunResult ref = magic::run(p, {.threads = 1, .split_depth = 1});
  const ScratchDir dir("contract_swap");
  const std::string journal = (dir / "ck.jsonl").string();
  const SwapsJournal swaps{p, journal};
  RunOptions ro{.threads = 1, .split_depth = 1};
  ro.adaptive = false;
  ro.checkpoint = journal;
  ro.checkpoint_interval = 0;
  EXPECT_THROW(magic::run(swaps, ro), magic::CheckpointError);
  std::ifstream older(journal);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(older), {}), "older\n");

  const std::string rescued = journal + ".rescued-" + std::to_string(::getpid());
  const auto on_disk = magic::read_journal(rescued);
  ASSERT_TRUE(on_disk);
  EXPECT_GE(on_disk->done.size(), 5u);
  EXPECT_EQ(on_disk->done.count(4), 1u) << "the task that finished after the swap";
  std::filesystem::rename(rescued, journal);
  RunOptions again{.threads = 2, .split_depth = 1};
  again.checkpoint = journal;
  const magic::RunResult rest = magic::run(p, again);
  EXPECT_EQ(rest.tasks_resumed, on_disk->done.size());
  expect_same(rest, ref, "resumed from the rescued records");
  EXPECT_EQ(rest.nodes, ref.nodes);
}

// The stream holds at most a few chunks, however long the task list, and
// hands out exactly the list plan_tasks() builds, in order.
TEST(Planner, TaskStreamIsBoundedAndInOrder) {
  const SubsetSum p{24, 8, 100};
  const int depth = 4;
  const auto all = magic::plan_tasks(p, depth);
  ASSERT_GT(all.size(), 10000u);
  const magic::Erased<SubsetSum> erased(p);  // outlives the stream's producer
  magic::TaskStream stream(erased, depth, 100);
  magic::TaskChunk chunk;
  std::uint64_t next = 0;
  while (stream.next(chunk)) {
    ASSERT_EQ(chunk.first, next);
    for (std::size_t i = 0; i < chunk.size(); ++i) {
      ASSERT_EQ(chunk.get<SubsetSum::State>(i).set, all[next].set) << next;
      ++next;
    }
  }
  EXPECT_EQ(next, all.size());
  EXPECT_EQ(magic::count_tasks(p, depth), all.size());
  EXPECT_LE(stream.peak_states(), 300u);
}

// A list that fits in one chunk is walked on the caller's thread: the same
// tasks in the same order, in one chunk; told too few tasks, it still hands
// out the whole list (held at once, in chunks).
TEST(Planner, AOneChunkStreamIsWalkedInline) {
  const SubsetSum p{12, 4, 30};
  const int depth = 3;
  const auto all = magic::plan_tasks(p, depth);
  ASSERT_GT(all.size(), 1u);
  const magic::Erased<SubsetSum> erased(p);
  const std::size_t whole = all.size(), third = (all.size() + 2) / 3;
  for (const auto& [chunk_size, told] : {std::pair{whole, std::uint64_t{whole}}, std::pair{third, std::uint64_t{1}}}) {
    magic::TaskStream stream(erased, depth, chunk_size, told);
    magic::TaskChunk chunk;
    std::uint64_t next = 0;
    while (stream.next(chunk)) {
      ASSERT_EQ(chunk.first, next);
      for (std::size_t i = 0; i < chunk.size(); ++i) EXPECT_EQ(chunk.get<SubsetSum::State>(i).set, all[next++].set);
    }
    EXPECT_EQ(next, whole) << chunk_size;
  }
}

TEST(Planner, AStreamDroppedEarlyStopsItsProducer) {
  const SubsetSum p{30, 10, 150};
  const magic::Erased<SubsetSum> erased(p);
  magic::TaskStream stream(erased, 6, 10);
  magic::TaskChunk chunk;
  EXPECT_TRUE(stream.next(chunk));
  EXPECT_EQ(chunk.size(), 10u);
}  // joins without walking the whole tree

TEST(Planner, ShardSelectionWithinAChunk) {
  // Tasks 10..19 of shard 2/3 are 11, 14, 17; shard_size counts the whole list.
  const auto sel = magic::select_tasks(10, 10, {2, 3}, {});
  EXPECT_EQ(sel.run, (std::vector<std::uint64_t>{11, 14, 17}));
  EXPECT_EQ(magic::shard_size(10, {2, 3}), 3u);  // 2, 5, 8
  EXPECT_EQ(magic::shard_size(2, {2, 3}), 0u);
  EXPECT_EQ(magic::shard_size(3, {2, 3}), 1u);
}

TEST(Registry, UnknownOrMalformedSpecsAreSpecErrors) {
  for (const auto& spec : {nlohmann::json{}, nlohmann::json{{"name", "hexagon"}}, nlohmann::json{{"name", 5}},
                           nlohmann::json::array()})
    EXPECT_THROW(magic::run_spec(spec), magic::SpecError) << spec.dump();
  // Numbers that are not ints: a float far out of range was undefined
  // behaviour in the cast (found by fuzz/fuzz_documents), a wide integer wrapped.
  for (const char* text : {R"({"name":"square","order":1e300})", R"({"name":"square","order":4294967299})",
                           R"({"name":"star","n":5,"sum":-1e300})", R"({"name":"star","n":5,"numbers":[1,2.5e10]})",
                           R"({"name":"star","n":5,"equal_lines":1e20})", R"({"name":"circle","n":4294967304})"}) {
    const auto spec = nlohmann::json::parse(text);
    EXPECT_THROW(magic::run_spec(spec), magic::SpecError) << text;
  }
  EXPECT_EQ(magic::by_key_name({{"name", "star"}, {"n", 5}}), "by_sum");
  EXPECT_EQ(magic::by_key_name({{"name", "square"}, {"order", 5}}), "by_center");
  EXPECT_EQ(magic::by_key_name({{"name", "square"}, {"order", 4}}), "");
  EXPECT_EQ(magic::picture_of("circle"), magic::Picture::Circle);
  EXPECT_THROW(magic::picture_of("hexagon"), magic::SpecError);
}

}  // namespace

namespace {

// ---- counting runs (--count, figure/figure_join.hpp) --------------------------
// A counting task emits nothing and adds its counts and additive digest to
// its record; the runner must treat it like any other task.  Each case's
// reference is the enumeration of the same problem: its counts and its
// additive_digest.

struct CountCase {
  std::string name;
  nlohmann::json spec;  // the enumeration's; the counting run adds "count": true
  std::uint64_t unique;
  std::string source;
};
void PrintTo(const CountCase& c, std::ostream* os) { *os << c.name; }

std::vector<CountCase> count_cases() {
  return {
      {"graph_cycle8_vmt", {{"name", "graph"}, {"builtin", "cycle-8"}, {"labeling", "vertex-magic-total"}}, 282,
       "OEIS A145692"},
      {"graph_path7_emt", {{"name", "graph"}, {"builtin", "path-7"}, {"labeling", "edge-magic-total"}}, 5344,
       "OEIS A237426"},
      {"figure_triangle4", {{"name", "figure"}, {"builtin", "triangle-4"}}, 18,
       "the 18 perimeter magic triangles of order 4 (Trigg 1964)"},
  };
}

class ContractCount : public ::testing::TestWithParam<CountCase> {
 protected:
  RunResult count(const RunOptions& ro) const {
    nlohmann::json spec = GetParam().spec;
    spec["count"] = true;
    return magic::run_spec(spec, ro).result;
  }
  Runner counting() const {
    return [this](const RunOptions& ro) { return count(ro); };
  }
};

void expect_same_count(const RunResult& r, const RunResult& ref, const std::string& what) {
  EXPECT_EQ(r.digest_kind, "additive") << what;
  expect_same(r, ref, what);
}

TEST_P(ContractCount, CountsAndDigestEqualTheEnumeration) {
  const RunResult e = magic::run_spec(GetParam().spec, {.threads = 1}).result;
  const RunResult c = count({.threads = 1});
  EXPECT_EQ(e.unique, GetParam().unique) << GetParam().source;
  EXPECT_EQ(e.digest_kind, "solutions");
  ASSERT_TRUE(e.has_additive);
  EXPECT_EQ(c.digest_kind, "additive");
  EXPECT_EQ(c.digest, e.additive);
  EXPECT_EQ(c.unique, e.unique);
  EXPECT_EQ(c.total, e.total);
  EXPECT_EQ(c.by_key, e.by_key);
  EXPECT_GT(c.tasks, 0u);
}

TEST_P(ContractCount, SameResultForAnyThreadsSplitDepthAndChunk) {
  const RunResult ref = count({.threads = 1, .split_depth = 0});
  for (unsigned t : {1u, 2u, 3u, 8u})
    for (int d : {-1, 0, 1, 5}) expect_same_count(count({.threads = t, .split_depth = d}), ref, "threads " + std::to_string(t) + " depth " + std::to_string(d));
  for (std::size_t chunk : {std::size_t{1}, std::size_t{7}}) {
    RunOptions ro{.threads = 3};
    ro.task_chunk = chunk;
    expect_same_count(count(ro), ref, "chunk " + std::to_string(chunk));
  }
  // Forced adaptive splitting has nothing to split: a counting task is one piece.
  expect_same_count(count(forced_split({.threads = 3, .split_depth = 0}, 1)), ref, "forced splits");
}

TEST_P(ContractCount, ShardsAddUpToTheWhole) {
  const RunResult whole = count({});
  for (std::uint32_t m : {2u, 3u, 7u}) {
    magic::TaskRecord sum;
    std::uint64_t tasks = 0;
    for (std::uint32_t i = 0; i < m; ++i) {
      const RunResult r = count({.shard_index = i, .shard_count = m});
      sum.merge({r.unique, r.total, 0, 0, r.digest, r.additive, r.by_key});
      tasks += r.tasks_run;
    }
    EXPECT_EQ(tasks, whole.tasks) << m;
    EXPECT_EQ(sum.digest, whole.digest) << m;
    EXPECT_EQ(sum.unique, whole.unique) << m;
    EXPECT_EQ(sum.total, whole.total) << m;
    EXPECT_EQ(sum.by_key, whole.by_key) << m;
  }
}

TEST_P(ContractCount, CheckpointResumesOnAnotherThreadCount) {
  const RunResult whole = count({.split_depth = 1});
  const ScratchPath path("contract_count_" + GetParam().name);
  std::atomic<bool> stop{false};
  const RunResult part = count(stopped_after_a_third(path, stop, 1));
  EXPECT_TRUE(part.interrupted);
  RunOptions again{.threads = 3, .split_depth = 1};
  again.checkpoint = path.str();
  const RunResult rest = count(again);
  EXPECT_EQ(rest.tasks_resumed, part.tasks_saved);
  EXPECT_EQ(rest.tasks_run + rest.tasks_resumed, whole.tasks);
  expect_same_count(rest, whole, "resumed");
}

TEST_P(ContractCount, SolutionsAStopAndTheHashSetAreRefused) {
  EXPECT_THROW(count({.solutions = 1}), magic::SpecError);
  EXPECT_THROW(count({.limit = 1}), magic::SpecError);
  RunOptions hs;
  hs.dedup = magic::DedupMode::HashSet;
  EXPECT_THROW(count(hs), magic::SpecError);
}

INSTANTIATE_TEST_SUITE_P(Problems, ContractCount, ::testing::ValuesIn(count_cases()),
                         [](const auto& param) { return param.param.name; });

}  // namespace
