// Runs across ranks (magic/cluster.hpp) on threads in one process: the
// coordinator and its workers talk over a LoopbackWire exactly as they do
// over MPI in magicount-mpi.  The single-process runner is the oracle: a
// run across any number of workers gives its counts, by_key, digest, node
// count and solution stream, and its journal resumes either way.
#include <gtest/gtest.h>

#include <atomic>
#include <bit>
#include <chrono>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "magic/cluster.hpp"
#include "magic/cluster_spec.hpp"
#include "magic/journal.hpp"
#include "magic/registry.hpp"
#include "magic/runner.hpp"
#include "magic/result.hpp"
#include "temp_path.hpp"
#include "toy_problem.hpp"

namespace {

using magic::RunOptions;
using magic::RunResult;

struct Spec {
  std::string name;
  nlohmann::json spec;
};
void PrintTo(const Spec& s, std::ostream* os) { *os << s.name; }

// One of each family, complete in its counting mode.
std::vector<Spec> specs() {
  return {
      {"square4_semi", {{"name", "square"}, {"order", 4}, {"kind", "semi"}}},
      {"star9", {{"name", "star"}, {"n", 9}}},
      {"pentagram_k4", {{"name", "star"}, {"n", 5}, {"numbers", "1..10"}, {"equal_lines", 4}}},
      {"circle12", {{"name", "circle"}, {"n", 12}}},
      {"figure_star9_3", {{"name", "figure"}, {"builtin", "star-9-3"}}},
      {"complete4_count", {{"name", "complete"}, {"grid", "0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0"}, {"mode", "count"}}},
  };
}

struct Stream {
  RunResult r;
  std::vector<std::string> solutions;
};

template <class Run>
Stream with_solutions(RunOptions ro, std::uint64_t n, Run&& run) {
  Stream s;
  ro.solutions = n;
  ro.on_solution = [&](const nlohmann::json& j) { s.solutions.push_back(j.dump()); };
  s.r = run(ro);
  return s;
}

Stream local(const nlohmann::json& spec, const RunOptions& ro, std::uint64_t n = 0) {
  return with_solutions(ro, n, [&](const RunOptions& o) { return magic::run_spec(spec, o).result; });
}
Stream across(const nlohmann::json& spec, const RunOptions& ro, int workers, std::uint64_t n = 0) {
  return with_solutions(ro, n, [&](const RunOptions& o) { return magic::run_spec_loopback(spec, o, workers); });
}

void expect_same(const RunResult& r, const RunResult& ref, const std::string& what) {
  EXPECT_EQ(r.digest, ref.digest) << what;
  EXPECT_EQ(r.unique, ref.unique) << what;
  EXPECT_EQ(r.total, ref.total) << what;
  EXPECT_EQ(r.by_key, ref.by_key) << what;
  EXPECT_EQ(r.nodes, ref.nodes) << what;
  EXPECT_EQ(r.tasks, ref.tasks) << what;
  EXPECT_EQ(r.tasks_run, ref.tasks_run) << what;
  EXPECT_EQ(r.exhaustive, ref.exhaustive) << what;
}

class Cluster : public ::testing::TestWithParam<Spec> {};

TEST_P(Cluster, SameResultAndSolutionsAsOneProcessForAnyWorkersAndThreads) {
  const auto& spec = GetParam().spec;
  const Stream ref = local(spec, {.threads = 1}, 60);
  ASSERT_TRUE(ref.r.exhaustive);
  ASSERT_GT(ref.r.unique, 0u);
  for (int workers : {1, 2, 4})
    for (unsigned threads : {1u, 2u}) {
      const std::string what = std::to_string(workers) + " workers x " + std::to_string(threads) + " threads";
      const Stream s = across(spec, {.threads = threads}, workers, 60);
      expect_same(s.r, ref.r, what);
      EXPECT_EQ(s.solutions, ref.solutions) << what;
      ASSERT_TRUE(s.r.cluster) << what;
      ASSERT_EQ(s.r.cluster->ranks.size(), static_cast<std::size_t>(workers));
      std::uint64_t tasks = 0, nodes = 0;
      for (const auto& rank : s.r.cluster->ranks) {
        tasks += rank.tasks;
        nodes += rank.nodes;
      }
      EXPECT_EQ(tasks, s.r.tasks_run) << what;
      EXPECT_EQ(nodes, s.r.nodes) << what;
      EXPECT_GT(s.r.cluster->messages, 0u);
      EXPECT_EQ(s.r.cluster->lost_rank, -1);
    }
}

TEST_P(Cluster, SameResultForSplitDepthsChunksShardsAndForcedSplits) {
  const auto& spec = GetParam().spec;
  expect_same(across(spec, {.threads = 2, .split_depth = 2, .task_chunk = 7}, 3).r,
              local(spec, {.threads = 1, .split_depth = 2}).r, "depth 2, chunks of 7");
  RunOptions forced{.threads = 2, .split_depth = 0};
  forced.split_nodes = 300;
  forced.split_always = true;
  expect_same(across(spec, forced, 2).r, local(spec, {.threads = 1, .split_depth = 0}).r, "depth 0, forced splits");
  const RunResult whole = local(spec, {}).r;
  magic::TaskRecord sum;
  for (std::uint32_t i = 0; i < 3; ++i) {
    const RunResult shard = across(spec, {.threads = 1, .shard_index = i, .shard_count = 3}, 2).r;
    expect_same(shard, local(spec, {.threads = 2, .shard_index = i, .shard_count = 3}).r, "shard " + std::to_string(i));
    sum.merge({shard.unique, shard.total, 0, 0, shard.digest, {}, shard.by_key});
  }
  EXPECT_EQ(sum.digest, whole.digest);
  EXPECT_EQ(sum.unique, whole.unique);
}

// Pieces cross ranks: with forced splits every other piece goes to the
// coordinator, any rank solves it (and may split it again, across ranks),
// and the coordinator splices it back into its task.  The counts, the
// nodes and the solution stream stay those of one process.
TEST_P(Cluster, PiecesThatCrossRanksLeaveResultAndSolutionsUnchanged) {
  const auto& spec = GetParam().spec;
  const Stream ref = local(spec, {.threads = 1, .split_depth = 0}, 60);
  for (unsigned threads : {1u, 2u}) {
    RunOptions forced{.threads = threads, .split_depth = 0};
    forced.split_nodes = 1000;
    forced.split_always = true;
    const std::string what = "3 workers x " + std::to_string(threads) + " threads, forced splits";
    const Stream s = across(spec, forced, 3, 60);
    expect_same(s.r, ref.r, what);
    EXPECT_EQ(s.solutions, ref.solutions) << what;
    ASSERT_TRUE(s.r.cluster);
    EXPECT_GT(s.r.cluster->pieces_shared, 0u) << what;
  }
}

// Stopped part-way through its journal, a run across ranks resumes in one
// process, and the other way round, to the uninterrupted digest.
TEST_P(Cluster, JournalResumesAcrossRanksAndInOneProcess) {
  const auto& spec = GetParam().spec;
  const RunResult ref = local(spec, {.threads = 1}).r;
  for (bool cluster_first : {true, false}) {
    ScratchPath journal("cluster_journal");
    std::atomic<bool> stop{false};
    RunOptions first{.threads = 1, .split_depth = 3};
    first.checkpoint = journal.str();
    first.checkpoint_interval = 0;
    first.interrupt = &stop;
    first.progress_interval = 0;
    std::uint64_t seen = 0;
    // Stop once a few tasks are folded: a run cut in the middle.
    first.on_progress = [&](const magic::Progress& p) {
      if (++seen == 5 || p.tasks_done * 3 > p.tasks_total) stop = true;
    };
    const RunResult part = cluster_first ? across(spec, first, 3).r : local(spec, first).r;
    RunOptions rest{.threads = 2, .split_depth = 3};
    rest.checkpoint = journal.str();
    const RunResult whole = cluster_first ? local(spec, rest).r : across(spec, rest, 2).r;
    const std::string what = cluster_first ? "cluster, then one process" : "one process, then cluster";
    EXPECT_GT(whole.tasks_resumed, 0u) << what;
    EXPECT_EQ(whole.digest, ref.digest) << what;
    EXPECT_EQ(whole.unique, ref.unique) << what;
    EXPECT_EQ(whole.by_key, ref.by_key) << what;
    EXPECT_TRUE(whole.exhaustive) << what;
    EXPECT_LE(part.tasks_saved, part.tasks);
  }
}

INSTANTIATE_TEST_SUITE_P(Problems, Cluster, ::testing::ValuesIn(specs()),
                         [](const auto& param_info) { return param_info.param.name; });

TEST(ClusterRefuses, WhatOnlyOneProcessCanDo) {
  const nlohmann::json star{{"name", "star"}, {"n", 7}};
  EXPECT_THROW(across(star, {.limit = 3}, 2), magic::SpecError);
  EXPECT_THROW(across(star, {.dedup = magic::DedupMode::HashSet}, 2), magic::SpecError);
  // complete's "first" mode stops after one completion.
  const nlohmann::json first{{"name", "complete"}, {"grid", "0 0 0\n0 5 0\n0 0 0"}, {"mode", "first"}};
  EXPECT_THROW(magic::run_spec_loopback(first, {}, 2), magic::SpecError);
}

// A toy whose task 7 throws: the run fails with the worker's reason and its rank.
struct Faulty : SubsetSum {
  template <class Ctx>
  void solve(const State& t, Ctx& ctx) const {
    if (t.size == 1 && t.last == 7) throw std::runtime_error("task seven is broken");
    SubsetSum::solve(t, ctx);
  }
};

TEST(ClusterFailure, AWorkerThatThrowsFailsTheRunNamingItsRank) {
  try {
    magic::run_loopback(Faulty{{16, 4, 30}}, {.threads = 1, .split_depth = 1}, 3);
    FAIL() << "no error";
  } catch (const magic::ClusterError& e) {
    EXPECT_NE(std::string(e.what()).find("task seven is broken"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("rank "), std::string::npos) << e.what();
  }
}

// One rank stopped by its own signal (as when a node kills it): the run
// stops, names the rank, keeps the journal, and the rerun completes it.
TEST(ClusterFailure, ARankStoppedOnItsOwnStopsTheRunAndTheJournalResumes) {
  const SubsetSum p{22, 6, 60};
  const RunResult ref = magic::run(p, {.threads = 1, .split_depth = 2});
  ScratchPath journal("cluster_lost_rank");
  RunOptions ro{.threads = 1, .split_depth = 2};
  ro.checkpoint = journal.str();
  ro.checkpoint_interval = 0;
  magic::LoopbackWire net(3);
  std::atomic<bool> rank2_signal{false};
  RunOptions rank2 = ro;
  rank2.interrupt = &rank2_signal;
  std::vector<std::thread> ts;
  for (int w = 0; w < 3; ++w)
    ts.emplace_back([&, w] { magic::run_worker(p, w == 2 ? rank2 : ro, net.worker(w)); });
  std::thread killer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    rank2_signal = true;
  });
  // Slow enough to be stopped: a deep split makes many small tasks.
  const RunResult r = magic::run_coordinator(p, ro, net.coordinator());
  killer.join();
  for (auto& t : ts) t.join();
  ASSERT_TRUE(r.cluster);
  if (r.exhaustive) GTEST_SKIP() << "the run finished before the rank was stopped";
  EXPECT_TRUE(r.interrupted);
  EXPECT_EQ(r.cluster->lost_rank, 2);
  RunOptions again{.threads = 2, .split_depth = 2};
  again.checkpoint = journal.str();
  const RunResult whole = magic::run_loopback(p, again, 2);
  EXPECT_EQ(whole.digest, ref.digest);
  EXPECT_EQ(whole.unique, ref.unique);
  EXPECT_TRUE(whole.exhaustive);
}

// A worker's wire as if its binary were built from another commit: its
// reports name that build instead of this one.
class OtherBuild : public magic::WorkerWire {
 public:
  OtherBuild(magic::WorkerWire& inner, std::string source) : inner_(inner), source_(std::move(source)) {}
  void send(std::string m) override {
    magic::wire::Reader rd(m);
    if (rd.get<magic::wire::Kind>() == magic::wire::Kind::Report) {
      const std::string own = rd.get_text();  // the build comes first
      magic::wire::Writer w(magic::wire::Kind::Report);
      w.put_text(source_);
      m = w.take() + m.substr(1 + sizeof(std::uint32_t) + own.size());
    }
    inner_.send(std::move(m));
  }
  bool receive(std::string& m, double seconds) override { return inner_.receive(m, seconds); }

 private:
  magic::WorkerWire& inner_;
  std::string source_;
};

// Ranks may run different builds: the journal names the rank's build for
// each task it ran, not the coordinator's, and so does run.task_sources.
TEST(ClusterBuilds, EachTaskNamesTheBuildOfTheRankThatRanIt) {
  const SubsetSum p{22, 6, 60};
  ScratchPath journal("cluster_builds");
  RunOptions ro{.threads = 1, .split_depth = 2};
  ro.checkpoint = journal.str();
  const std::string own = magic::BuildInfo::source(), other = "0123456789ab";
  magic::LoopbackWire net(2);
  OtherBuild rank1(net.worker(1), other);
  std::thread w0([&] { magic::run_worker(p, ro, net.worker(0)); });
  std::thread w1([&] { magic::run_worker(p, ro, rank1); });
  const RunResult r = magic::run_coordinator(p, ro, net.coordinator());
  w0.join();
  w1.join();
  ASSERT_TRUE(r.cluster);
  ASSERT_TRUE(r.exhaustive);
  const auto& ranks = r.cluster->ranks;
  EXPECT_EQ(ranks[0].source, own);
  EXPECT_EQ(ranks[1].source, other);
  ASSERT_GT(ranks[1].tasks, 0u);  // both ask for a batch at the start
  const std::map<std::string, std::uint64_t> want{{own, ranks[0].tasks}, {other, ranks[1].tasks}};
  EXPECT_EQ(r.task_sources, want);
  const auto on_disk = magic::read_journal(journal.str());
  ASSERT_TRUE(on_disk);
  EXPECT_EQ(magic::count_by_build(on_disk->sources, on_disk->done), want);
  // A resume counts the journal's records under the builds they name.
  const RunResult again = magic::run_loopback(p, ro, 2);
  EXPECT_EQ(again.task_sources, want);
  EXPECT_EQ(again.digest, r.digest);
}

// Each rank names the copy of the search code it ran.
TEST(ClusterBuilds, EachRankNamesItsKernel) {
  const RunResult r = magic::run_spec_loopback({{"name", "star"}, {"n", 9}}, {.threads = 1}, 2);
  ASSERT_TRUE(r.cluster);
  EXPECT_FALSE(r.kernel.empty());
  for (const auto& rank : r.cluster->ranks) EXPECT_EQ(rank.kernel, r.kernel);
  EXPECT_EQ(magic::run_json(r).at("per_rank").at(1).at("kernel"), r.kernel);
}

TEST(ClusterWire, RecordsCrossTheWireIntact) {
  magic::TaskRecord rec{5, 40, 123456, 1.5, {}, {7, 9}, {{-3, 2}, {65, 3}}};
  rec.digest.lo = 0x0123456789abcdefULL;
  rec.digest.hi = 42;
  magic::wire::Writer w(magic::wire::Kind::Report);
  magic::wire::put_record(w, rec);
  const std::string bytes = w.take();
  magic::wire::Reader rd(bytes);
  EXPECT_EQ(rd.get<magic::wire::Kind>(), magic::wire::Kind::Report);
  const magic::TaskRecord back = magic::wire::get_record(rd);
  EXPECT_TRUE(rd.done());
  EXPECT_EQ(back.unique, rec.unique);
  EXPECT_EQ(back.total, rec.total);
  EXPECT_EQ(back.nodes, rec.nodes);
  EXPECT_EQ(back.cpu_seconds, rec.cpu_seconds);
  EXPECT_EQ(back.digest, rec.digest);
  EXPECT_EQ(back.by_key, rec.by_key);
  // Cut short anywhere: a clear error, never a read past the end.
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    const std::string cut = bytes.substr(0, n);
    magic::wire::Reader r2(cut);
    EXPECT_THROW(
        {
          (void)r2.get<magic::wire::Kind>();
          (void)magic::wire::get_record(r2);
        },
        magic::ClusterError)
        << n;
  }
}

}  // namespace

namespace {

// Issue 43 item 1: a Job is made once from its spec and answers everything
// a run asks: its description, its by-key name, its runs in this process
// and across ranks, all with the counts the spec-level calls give.
// A family that counts how often its specs are visited.
struct CountingToyFamily {
  static constexpr const char* kName = "subset-sum";
  static inline int visits = 0;
  template <class F>
  static decltype(auto) visit(const nlohmann::json& spec, F&& f) {
    ++visits;
    return f(SubsetSum{spec.at("n").get<int>(), spec.at("k").get<int>(), spec.at("s").get<int>()});
  }
};

// One run visits its spec once: making the Job does, and everything the
// CLI then asks (runs here and across ranks, the result's fields, the
// by-key name, the no-solution reason) asks the Job.  The count is the
// brute-force one.
TEST(Job, ARunVisitsItsSpecOnce) {
  const nlohmann::json spec{{"name", "subset-sum"}, {"n", 14}, {"k", 4}, {"s", 30}};
  std::uint64_t brute = 0;
  for (std::uint32_t set = 0; set < (1u << 14); ++set)
    if (std::popcount(set) == 4) {
      int sum = 0;
      for (int v = 1; v <= 14; ++v) sum += (set >> (v - 1) & 1) ? v : 0;
      brute += sum == 30;
    }
  CountingToyFamily::visits = 0;
  const magic::Job job = magic::detail::make_job<std::tuple<CountingToyFamily>>(spec);
  const RunResult r = job.run({.threads = 2, .split_depth = 2});
  const RunResult across = magic::run_loopback(job, {.threads = 1}, 2);
  const nlohmann::json fields = job.result_fields(r);
  EXPECT_EQ(job.by_key_name(), "");
  EXPECT_EQ(job.no_solution_reason(), "");
  EXPECT_EQ(job.problem(), spec);
  EXPECT_EQ(r.unique, brute);
  EXPECT_EQ(across.digest, r.digest);
  EXPECT_EQ(fields.at("counts").at("unique"), brute);
  EXPECT_EQ(CountingToyFamily::visits, 1);
  EXPECT_THROW(magic::detail::make_job<std::tuple<CountingToyFamily>>({{"name", "star"}}), magic::SpecError);
}

TEST(Job, OneJobAnswersWhatItsSpecWouldAndRunsAsOftenAsAsked) {
  const nlohmann::json spec{{"name", "star"}, {"n", 8}};
  const magic::Job job = magic::Job::make(spec);
  EXPECT_EQ(job.problem(), magic::describe_spec(spec).problem);
  EXPECT_EQ(job.by_key_name(), "by_sum");
  EXPECT_EQ(job.no_solution_reason(), "");
  const RunResult once = magic::run_spec(spec, {.threads = 1}).result;
  for (const RunOptions& ro : {RunOptions{.threads = 1}, RunOptions{.threads = 2, .split_depth = 3}}) {
    const RunResult r = job.run(ro);
    EXPECT_EQ(r.unique, once.unique);
    EXPECT_EQ(r.digest, once.digest);
  }
  const RunResult across = magic::run_loopback(job, {.threads = 1}, 2);
  EXPECT_EQ(across.unique, once.unique);
  EXPECT_EQ(across.digest, once.digest);
  EXPECT_EQ(job.result_fields(once).at("counts"), magic::result_fields(magic::describe_spec(spec), once).at("counts"));

  // A completion's defaults and its no-solution reason come with its Job.
  const magic::Job first = magic::Job::make(
      {{"name", "complete"}, {"grid", "[[2,7,6],[9,5,1],[4,3,0]]"}, {"kind", "magic"}, {"mode", "first"}});
  EXPECT_EQ(first.run({.threads = 1}).exhaustive, false);  // limit 1: the spec's default
  const magic::Job impossible = magic::Job::make(
      {{"name", "complete"}, {"grid", "[[0,0,0,0,0,0],[0,0,0,0,0,0],[0,0,0,0,0,0],[0,0,0,0,0,0],[0,0,0,0,0,0],[0,0,0,0,0,0]]"},
       {"kind", "pandiagonal"}, {"mode", "count"}});
  EXPECT_NE(impossible.no_solution_reason(), "");
  EXPECT_THROW(magic::Job::make({{"name", "star"}, {"n", 3}}), magic::SpecError);
  EXPECT_THROW(magic::Job::make({{"name", "nothing"}}), magic::SpecError);
}

}  // namespace
