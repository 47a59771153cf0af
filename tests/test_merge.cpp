// `magicount merge` through the binary: shards 0/m .. m-1/m of a run merge
// to exactly the counts and digest of the whole run, and every merge of
// results that do not make one run is refused with exit 2.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_helpers.hpp"
#include "magic/core/error.hpp"
#include "magic/task_record.hpp"

namespace {

struct MergeCase {
  std::string name;
  std::string run;   // the subcommand and its parameters
  std::string grid;  // complete only: the grid file's text, appended as its path
};
void PrintTo(const MergeCase& c, std::ostream* os) { *os << c.name; }

class Merge : public ::testing::TestWithParam<MergeCase> {
 protected:
  ScratchPath dir{"merge"};
  std::string run;
  void SetUp() override {
    std::filesystem::create_directories(dir.path());
    run = GetParam().run;
    if (!GetParam().grid.empty()) {
      std::ofstream((dir / "grid.txt").string()) << GetParam().grid;
      run += " " + (dir / "grid.txt").string();
    }
  }

  std::string shard(std::uint32_t i, std::uint32_t m, const std::string& extra = "") {
    const std::string path = (dir / ("s" + std::to_string(i) + "of" + std::to_string(m) + ".json")).string();
    const CliRun r = run_cli(run + " -q --shard " + std::to_string(i) + "/" + std::to_string(m) +
                             " --json " + path + extra);
    EXPECT_EQ(r.code, 0) << r.err;
    return path;
  }
};

nlohmann::json parse(const CliRun& r) {
  EXPECT_EQ(r.code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

TEST_P(Merge, ShardsMergeToTheWholeRun) {
  const auto whole = parse(run_cli(run + " --json -"));
  for (std::uint32_t m : {1u, 2u, 3u, 7u}) {
    std::string files;
    for (std::uint32_t i = 0; i < m; ++i) files += " " + shard(i, m);
    std::string cmd = "merge --json -";  // not "..." + files: a GCC 12 false -Wstringop-overflow
    cmd += files;
    const auto merged = parse(run_cli(cmd));
    EXPECT_EQ(merged.at("counts"), whole.at("counts")) << m;
    EXPECT_EQ(merged.at("digest"), whole.at("digest")) << m;
    EXPECT_EQ(merged.at("problem"), whole.at("problem"));
    EXPECT_TRUE(merged.at("exhaustive").get<bool>());
    EXPECT_EQ(merged.at("run").at("shards_merged").size(), m);
    EXPECT_EQ(merged.at("run").at("tasks_run"), whole.at("run").at("tasks_run")) << m;
    EXPECT_EQ(merged.at("run").at("shard"), "0/1");
    EXPECT_EQ(merged.at("run").at("source"), whole.at("run").at("source")) << m;
  }
}

TEST_P(Merge, IncompleteOrOverlappingSetsAreRefused) {
  const auto a = shard(0, 3), b = shard(1, 3), c = shard(2, 3);
  EXPECT_CLEAN_ERROR(run_cli("merge " + a + " " + b));        // 2/3 missing
  EXPECT_CLEAN_ERROR(run_cli("merge " + a + " " + b + " " + b + " " + c));  // 1/3 twice
  const auto partial = parse(run_cli("merge --partial --json - " + a + " " + c));
  EXPECT_FALSE(partial.at("exhaustive").get<bool>());
  EXPECT_FALSE(partial.at("run").contains("shard"));
  // Another shard count or another split of the same problem is another run.
  EXPECT_CLEAN_ERROR(run_cli("merge " + a + " " + b + " " + shard(1, 2)));
  const auto other_split = shard(2, 3, " --split-depth 1");  // no case's default
  EXPECT_CLEAN_ERROR(run_cli("merge " + a + " " + b + " " + other_split));
  shard(2, 3);  // back to the run's own split
  // A merged result is not a shard.
  const std::string whole = (dir / "whole.json").string();
  ASSERT_EQ(run_cli("merge -q --json " + whole + " " + a + " " + b + " " + c).code, 0);
  EXPECT_CLEAN_ERROR(run_cli("merge " + whole));
}

TEST_P(Merge, AShardThatStoppedEarlyNeedsPartial) {
  // complete with a limit searches for first completions in one restarting
  // task: another task list, which merge refuses as another run.
  if (!GetParam().grid.empty()) GTEST_SKIP() << "a limited complete run is another run";
  // The same depth on both: a limited run skips the whole-search probe, so
  // its default depth can differ from the unlimited run's.
  const auto a = shard(0, 2, " --split-depth 2"), b = shard(1, 2, " --split-depth 2 --limit 1");
  EXPECT_CLEAN_ERROR(run_cli("merge " + a + " " + b));
  EXPECT_FALSE(parse(run_cli("merge --partial --json - " + a + " " + b)).at("exhaustive").get<bool>());
}

INSTANTIATE_TEST_SUITE_P(Problems, Merge,
                         ::testing::Values(MergeCase{"square4", "square --order 4"},
                                           MergeCase{"star9", "star --n 9"},
                                           MergeCase{"pentagram_k4", "star --n 5 --numbers 1..10 --equal-lines 4"},
                                           MergeCase{"circle12", "circle --n 12"},
                                           MergeCase{"figure_cube3", "figure --builtin cube-3"},
                                           MergeCase{"complete_empty4", "complete --count", "0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n"}),
                         [](const auto& p) { return p.param.name; });

// Files that are not results of one run.
TEST(MergeInputs, MixedProblemsVersionsAndBadFilesAreRefused) {
  const ScratchPath dir("merge_bad");
  std::filesystem::create_directories(dir.path());
  const std::string sq = (dir / "sq.json").string(), st = (dir / "st.json").string();
  ASSERT_EQ(run_cli("square --order 3 -q --shard 0/2 --json " + sq).code, 0);
  ASSERT_EQ(run_cli("star --n 7 -q --shard 1/2 --json " + st).code, 0);
  EXPECT_CLEAN_ERROR(run_cli("merge " + sq + " " + st));

  auto edited = [&](const std::string& name, auto&& edit) {
    nlohmann::json j = nlohmann::json::parse(std::ifstream(sq));
    edit(j);
    const std::string path = (dir / name).string();
    std::ofstream(path) << j.dump();
    return path;
  };
  const auto other_version = edited("v.json", [](auto& j) {
    j["run"]["version"] = "0.0.0";
    j["run"]["shard"] = "1/2";
  });
  EXPECT_CLEAN_ERROR(run_cli("merge " + sq + " " + other_version));
  // Another revision of the search cuts other tasks (issue 42, row 17).
  for (const bool drop : {false, true}) {
    const auto other_search = edited("search.json", [drop](auto& j) {
      if (drop) j["run"].erase("search");
      else j["run"]["search"] = "square/0";
      j["run"]["shard"] = "1/2";
    });
    const CliRun r = run_cli("merge " + sq + " " + other_search);
    EXPECT_CLEAN_ERROR(r);
    EXPECT_NE(r.err.find("search"), std::string::npos) << r.err;
  }
  // Shards built from other commits merge, and the result names them all.
  const auto other_source = edited("src.json", [](auto& j) {
    j["run"]["source"] = "0123456789ab";
    j["run"]["shard"] = "1/2";
  });
  const auto both = nlohmann::json::parse(run_cli("merge --json - " + sq + " " + other_source).out);
  const std::string own = nlohmann::json::parse(std::ifstream(sq)).at("run").at("source").get<std::string>();
  EXPECT_FALSE(both.at("run").contains("source")) << both.dump();
  EXPECT_EQ(both.at("run").at("sources_merged"), nlohmann::json(std::set<std::string>{own, "0123456789ab"}));
  // Likewise shards that ran other copies of the search code.
  const auto other_kernel = edited("kern.json", [](auto& j) {
    j["run"]["kernel"] = "portable";
    j["run"]["shard"] = "1/2";
  });
  const auto kernels = nlohmann::json::parse(run_cli("merge --json - " + sq + " " + other_kernel).out);
  EXPECT_FALSE(kernels.at("run").contains("kernel")) << kernels.dump();
  EXPECT_EQ(kernels.at("run").at("kernels_merged"), nlohmann::json(std::set<std::string>{"none", "portable"}));
  EXPECT_FALSE(both.at("run").contains("kernels_merged")) << both.dump();
  // A shard's task_sources are summed; a shard without them counts its
  // tasks under its source.
  const auto resumed = edited("ts.json", [](auto& j) {
    j["run"]["task_sources"] = {{"0123456789ab", 2}, {"unrecorded", 1}};
    j["run"]["shard"] = "1/2";
  });
  const auto summed = nlohmann::json::parse(run_cli("merge --json - " + sq + " " + resumed).out);
  const auto sq_tasks = nlohmann::json::parse(std::ifstream(sq)).at("run").at("tasks_run").get<std::uint64_t>();
  EXPECT_EQ(summed.at("run").at("task_sources"),
            (nlohmann::json{{own, sq_tasks}, {"0123456789ab", 2}, {"unrecorded", 1}}));
  EXPECT_FALSE(both.at("run").contains("task_sources"));
  const auto bad_sources = edited("bts.json", [](auto& j) {
    j["run"]["task_sources"] = {{"0123456789ab", -2}};
    j["run"]["shard"] = "1/2";
  });
  EXPECT_CLEAN_ERROR(run_cli("merge " + sq + " " + bad_sources));
  const auto negative = edited("n.json", [](auto& j) {
    j["counts"]["unique"] = -5;
    j["run"]["shard"] = "1/2";
  });
  EXPECT_CLEAN_ERROR(run_cli("merge " + sq + " " + negative));
  const auto bad_shard = edited("b.json", [](auto& j) { j["run"]["shard"] = "3/2"; });
  EXPECT_CLEAN_ERROR(run_cli("merge " + bad_shard));
  const auto no_digest = edited("d.json", [](auto& j) { j.erase("digest"); });
  EXPECT_CLEAN_ERROR(run_cli("merge " + no_digest));

  const std::string deep = (dir / "deep.json").string();
  std::ofstream(deep) << std::string(100000, '[') << std::string(100000, ']');
  EXPECT_CLEAN_ERROR(run_cli("merge " + deep));
  EXPECT_CLEAN_ERROR(run_cli("merge " + (dir / "missing.json").string()));
  EXPECT_CLEAN_ERROR(run_cli("merge"));
  EXPECT_CLEAN_ERROR(run_cli("merge --json '' " + sq));
}

// Issue 42, row 7: sums that pass 2^64 - 1 (or seconds that stop being
// finite) are refused, never wrapped.
TEST(MergeInputs, SumsThatOverflowAreRefused) {
  const ScratchPath dir("merge_overflow");
  std::filesystem::create_directories(dir.path());
  const std::string s0 = (dir / "s0.json").string(), s1 = (dir / "s1.json").string();
  ASSERT_EQ(run_cli("square --order 3 -q --shard 0/2 --json " + s0).code, 0);
  ASSERT_EQ(run_cli("square --order 3 -q --shard 1/2 --json " + s1).code, 0);
  ASSERT_EQ(run_cli("merge -q " + s0 + " " + s1).code, 0);
  const nlohmann::json base0 = nlohmann::json::parse(std::ifstream(s0));
  const nlohmann::json base1 = nlohmann::json::parse(std::ifstream(s1));
  const auto both = [&](auto&& edit) {
    nlohmann::json a = base0, b = base1;
    edit(a);
    edit(b);
    std::ofstream(s0, std::ios::trunc) << a.dump();
    std::ofstream(s1, std::ios::trunc) << b.dump();
    return run_cli("merge --json - " + s0 + " " + s1);
  };
  const std::uint64_t big = 18446744073709551615u;
  for (const char* field : {"unique", "total"}) {
    const CliRun r = both([&](auto& j) { j["counts"][field] = big; });
    EXPECT_CLEAN_ERROR(r);
    EXPECT_NE(r.err.find("2^64"), std::string::npos) << field << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  for (const char* field : {"nodes", "tasks_run"}) EXPECT_CLEAN_ERROR(both([&](auto& j) { j["run"][field] = big; }));
  const CliRun cpu = both([](auto& j) { j["run"]["cpu_seconds"] = 1e308; });
  EXPECT_CLEAN_ERROR(cpu);
  EXPECT_NE(cpu.err.find("finite"), std::string::npos) << cpu.err;
}

// The runner's merger sums task records with the same checks.
TEST(TaskRecordSums, OverflowIsRefused) {
  magic::TaskRecord a, one;
  a.unique = 18446744073709551615u;
  one.unique = 1;
  EXPECT_THROW(a.merge(one), magic::InputError);
  magic::TaskRecord b, key;
  b.by_key[7] = 18446744073709551615u;
  key.by_key[7] = 2;
  EXPECT_THROW(b.merge(key), magic::InputError);
  magic::TaskRecord c, slow;
  c.cpu_seconds = slow.cpu_seconds = 1e308;
  EXPECT_THROW(c.merge(slow), magic::InputError);
}

}  // namespace
