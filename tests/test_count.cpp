// Counting without enumerating (--count: figure/figure_join.hpp) against
// the brute-force oracle and the enumeration, the additive digest against
// its definition, the memory budget, and what a counting run refuses.  The
// runner's guarantees for counting tasks are in test_contract.cpp
// (ContractCount).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "cli_helpers.hpp"
#include "figure/figure_join.hpp"
#include "graph/graph.hpp"
#include "magic/core/error.hpp"
#include "magic/digest.hpp"
#include "magic/result_file.hpp"
#include "magic/spec.hpp"
#include "oracle/graph_oracle.hpp"
#include "temp_path.hpp"

namespace {

using oracle::GraphLabeling;

struct Kind {
  GraphLabeling kind;
  const char* name;
};
const Kind kKinds[] = {
    {GraphLabeling::EdgeMagicTotal, "edge-magic-total"},
    {GraphLabeling::VertexMagicTotal, "vertex-magic-total"},
    {GraphLabeling::SuperEdgeMagicTotal, "super-edge-magic-total"},
    {GraphLabeling::SuperVertexMagicTotal, "super-vertex-magic-total"},
    {GraphLabeling::VertexMagicEdge, "vertex-magic-edge"},
    {GraphLabeling::EdgeMagicVertex, "edge-magic-vertex"},
};

magic::RunResult run(nlohmann::json spec, bool count, unsigned threads = 2) {
  if (count) spec["count"] = true;
  return magic::run_spec(spec, {.threads = threads}).result;
}

// Whether the labelling's figure is a ring or chain the join takes.
bool joinable(const nlohmann::json& spec) {
  const magic::GraphProblem p(magic::graph_spec_from_json(spec));
  return magic::join_shape(p.figure()).why_not.empty();
}

void expect_count_is_enumeration(const nlohmann::json& spec, const std::string& what) {
  const magic::RunResult e = run(spec, false), c = run(spec, true);
  EXPECT_EQ(c.unique, e.unique) << what;
  EXPECT_EQ(c.total, e.total) << what;
  EXPECT_EQ(c.by_key, e.by_key) << what;
  ASSERT_TRUE(e.has_additive) << what;
  EXPECT_EQ(c.digest, e.additive) << what;
  EXPECT_EQ(c.digest_kind, "additive") << what;
}

// Every labelling kind on the oracle's small graphs that are a ring or a
// chain (the cycles and paths among them, and K2):
// the oracle's counts, and the enumeration's additive digest.
TEST(Count, TheOracleAndTheEnumerationAgreeOnEverySmallRingAndChain) {
  int compared = 0;
  for (const oracle::SmallGraph& g : oracle::small_graphs()) {
    nlohmann::json es = nlohmann::json::array();
    for (const auto& [u, v] : g.edges) es.push_back({u, v});
    for (const Kind& k : kKinds) {
      const int elements = oracle::labelled_elements(g.n, g.edges.size(), k.kind);
      if (elements == 0 || elements > 10) continue;
      const nlohmann::json spec{
          {"name", "graph"}, {"graph", {{"vertices", g.n}, {"edges", es}}}, {"labeling", k.name}};
      if (!joinable(spec)) continue;
      const std::string what = g.name + " " + k.name;
      const oracle::GraphCounts want = oracle::count_graph_labelings(g.n, g.edges, k.kind);
      const magic::RunResult c = run(spec, true);
      EXPECT_EQ(c.unique, want.unique) << what;
      EXPECT_EQ(c.total, want.total) << what;
      const std::map<std::int64_t, std::uint64_t> by_sum(c.by_key.begin(), c.by_key.end());
      EXPECT_EQ(by_sum, want.by_sum) << what;
      expect_count_is_enumeration(spec, what);
      ++compared;
    }
  }
  EXPECT_GE(compared, 20);
}

// The published sequences' small terms, every kind, both symmetry
// settings, and the rings and chains whose halves differ (odd lengths).
TEST(Count, CyclesAndPathsOfEveryKindEqualTheEnumeration) {
  for (int n = 3; n <= 9; ++n)
    for (const Kind& k : kKinds)
      for (const char* symmetry : {"automorphisms", "none"}) {
        for (const char* shape : {"cycle-", "path-"}) {
          const nlohmann::json spec{{"name", "graph"},
                                    {"builtin", shape + std::to_string(n)},
                                    {"labeling", k.name},
                                    {"symmetry", symmetry}};
          if (!joinable(spec)) continue;
          expect_count_is_enumeration(spec, spec.dump());
        }
      }
}

// unique = total / |G| exactly: no labelling is fixed by a symmetry.
TEST(Count, UniqueIsTotalOverTheGroupOrder) {
  for (int n = 4; n <= 10; ++n) {
    const nlohmann::json spec{{"name", "graph"}, {"builtin", "cycle-" + std::to_string(n)}, {"labeling", "vertex-magic-total"}};
    const magic::RunResult c = run(spec, true);
    EXPECT_EQ(c.total, c.unique * 2 * static_cast<std::uint64_t>(n)) << n;
    EXPECT_GT(c.unique, 0u);
  }
}

// The additive digest, by its definition: over every labelling listed by
// an enumeration with no symmetry, the sum of point_hash(point, label).
TEST(Count, TheAdditiveDigestIsItsDefinition) {
  for (const char* g : {"cycle-6", "path-5"}) {
    const nlohmann::json spec{{"name", "graph"}, {"builtin", g}, {"labeling", "edge-magic-total"}};
    nlohmann::json every = spec;
    every["symmetry"] = "none";
    magic::Digest want;
    std::uint64_t listed = 0;
    magic::RunOptions ro{.threads = 2};
    ro.solutions = ~std::uint64_t{0};
    ro.on_solution = [&](const nlohmann::json& s) {
      std::uint32_t p = 0;  // the figure's points: vertices, then edges
      for (const char* part : {"vertices", "edges"})
        for (const auto& v : s.at(part)) want.merge(magic::point_hash(p++, v.get<std::uint32_t>()));
      ++listed;
    };
    const magic::RunResult all = magic::run_spec(every, ro).result;
    EXPECT_EQ(listed, all.total) << g;
    EXPECT_EQ(all.additive, want) << g;
    EXPECT_EQ(run(spec, false).additive, want) << g << ": summed over the group from one labelling an orbit";
    EXPECT_EQ(run(spec, true).digest, want) << g << ": counted";
  }
}

// Rings and chains the figure family reads from a file: lines of unequal
// length (no rotation maps the ring onto itself, so every joint anchors),
// and a chain with no reversal.
TEST(Count, IrregularRingsAndChainsEqualTheEnumeration) {
  const auto figure = [](std::vector<std::vector<std::string>> lines, int points) {
    nlohmann::json ps = nlohmann::json::array();
    for (int i = 0; i < points; ++i) ps.push_back("p" + std::to_string(i));
    return nlohmann::json{{"name", "figure"}, {"figure", {{"points", ps}, {"lines", lines}}}};
  };
  // A ring of four lines with 1, 2, 1, 0 private points.
  const nlohmann::json ring = figure({{"p0", "p4", "p1"}, {"p1", "p5", "p6", "p2"}, {"p2", "p7", "p3"}, {"p3", "p0"}}, 8);
  // A chain of three lines: 2, 1 and 3 private points.
  const nlohmann::json chain = figure({{"p0", "p1", "p2"}, {"p2", "p3", "p4"}, {"p4", "p5", "p6", "p7"}}, 8);
  // The perimeter triangles: a ring with a rotation.
  for (const nlohmann::json& spec : {ring, chain, nlohmann::json{{"name", "figure"}, {"builtin", "triangle-3"}},
                                     nlohmann::json{{"name", "figure"}, {"builtin", "triangle-4"}}}) {
    const magic::RunResult e = run(spec, false), c = run(spec, true);
    EXPECT_GT(e.unique, 0u) << spec.dump();
    EXPECT_EQ(c.unique, e.unique) << spec.dump();
    EXPECT_EQ(c.total, e.total) << spec.dump();
    EXPECT_EQ(c.by_key, e.by_key) << spec.dump();
    EXPECT_EQ(c.digest, e.additive) << spec.dump();
  }
  EXPECT_EQ(magic::join_shape(magic::figure_spec_from_json(ring)).anchors.size(), 4u);
  EXPECT_EQ(magic::join_shape(magic::figure_spec_from_json(chain)).anchors.size(), 2u);
}

// A sum and its dual (v -> min + max - v) are counted by one task: no task
// of a sum past its dual, the pair's counts equal, and figures whose ranges
// are not symmetric (super labellings) count every sum themselves.
TEST(Count, ASumAndItsDualAreCountedByOneTask) {
  const auto problem = [](const char* graph, const char* labeling) {
    const magic::GraphProblem g(
        magic::graph_spec_from_json({{"name", "graph"}, {"builtin", graph}, {"labeling", labeling}}));
    return magic::FigureJoinProblem(g.figure(), g.group_order(), g.describe());
  };
  for (const char* graph : {"cycle-7", "cycle-8", "path-6", "path-7"}) {
    const magic::FigureJoinProblem p = problem(graph, graph[0] == 'c' ? "vertex-magic-total" : "edge-magic-total");
    const int dual = p.shape().dual;
    ASSERT_GT(dual, 0) << graph;
    std::set<int> sums;
    magic::TaskRecord all;
    p.cut(1, [&](const magic::JoinTask& t, bool) {
      sums.insert(t.sum);
      all.merge(p.count_task(t));
    });
    EXPECT_LE(*sums.rbegin(), dual - *sums.rbegin()) << graph;  // no task past its dual
    EXPECT_GT(all.by_key.size(), 1u) << graph;
    for (const auto& [k, n] : all.by_key) {
      ASSERT_TRUE(all.by_key.count(dual - k)) << graph << " " << k;
      EXPECT_EQ(all.by_key.at(dual - k), n) << graph << " " << k;
    }
  }
  EXPECT_EQ(problem("path-6", "super-edge-magic-total").shape().dual, 0);
  EXPECT_EQ(problem("cycle-6", "super-vertex-magic-total").shape().dual, 0);
}

// A table past the budget splits its task into passes, with the same
// counts: a ring and a chain joined with themselves (even), and a chain of
// two arms (odd).
TEST(Count, AMemoryBudgetSplitsTasksIntoPassesWithTheSameCounts) {
  const std::pair<const char*, std::uint64_t> cases[] = {{"cycle-8", 282}, {"path-8", 23408}, {"path-7", 5344}};
  for (const auto& [graph, want] : cases) {
    const char* labeling = graph[0] == 'c' ? "vertex-magic-total" : "edge-magic-total";
    const magic::GraphProblem g(
        magic::graph_spec_from_json({{"name", "graph"}, {"builtin", graph}, {"labeling", labeling}}));
    const magic::FigureJoinProblem roomy(g.figure(), g.group_order(), g.describe());
    const magic::FigureJoinProblem tight(g.figure(), g.group_order(), g.describe(), 1);  // 1 byte: the smallest table
    magic::TaskRecord a, b;
    magic::JoinStats sa, sb;
    std::uint64_t tasks = 0;
    roomy.cut(1, [&](const magic::JoinTask& t, bool) {
      a.merge(roomy.count_task(t, &sa));
      b.merge(tight.count_task(t, &sb));
      ++tasks;
    });
    EXPECT_EQ(a.unique, want) << graph;  // OEIS A145692, A237426
    EXPECT_EQ(b.unique, want) << graph;
    EXPECT_EQ(a.total, b.total) << graph;
    EXPECT_EQ(a.digest, b.digest) << graph;
    EXPECT_EQ(a.by_key, b.by_key) << graph;
    EXPECT_EQ(sa.passes, tasks * roomy.shape().anchors.size()) << graph;  // one pass an anchor
    EXPECT_GT(sb.passes, 2 * tasks) << graph;
    EXPECT_LE(sb.max_entries, 64u) << graph;
    EXPECT_GT(sa.max_entries, 64u) << graph;
    EXPECT_EQ(sa.hits, sb.hits) << graph;
  }
}

// The run reports what its tables took: one table an anchor of each task,
// the same for one thread or two, and nothing for an enumeration.
TEST(Count, TheRunReportsItsTables) {
  const nlohmann::json spec{{"name", "graph"}, {"builtin", "path-8"}, {"labeling", "edge-magic-total"}};
  const magic::RunResult one = run(spec, true, 1), two = run(spec, true, 2);
  const magic::GraphProblem g(magic::graph_spec_from_json(spec));
  const magic::FigureJoinProblem p(g.figure(), g.group_order(), g.describe());
  std::uint64_t tasks = 0;
  p.cut(1, [&](const magic::JoinTask&, bool) { ++tasks; });
  EXPECT_EQ(one.tables.passes, tasks * p.shape().anchors.size());
  EXPECT_EQ(one.tables, two.tables);
  EXPECT_GT(one.tables.max_entries, 0u);
  EXPECT_GE(one.tables.max_bytes, 2 * one.tables.max_entries * 32);  // half full at most, 32-byte entries
  EXPECT_GT(one.tables.hits, 0u);
  EXPECT_LE(one.tables.hits, one.tables.lookups);
  EXPECT_TRUE(run(spec, false).tables.empty());
  const CliRun cli = run_cli("graph --builtin path-8 -l edge-magic-total --count -t 1");
  EXPECT_NE(cli.out.find("tables: " + std::to_string(one.tables.passes) + " filled"), std::string::npos) << cli.out;
}

TEST(Count, TheCommandLineRefusesWhatACountCannotDo) {
  // A figure that is no ring or chain names why.
  const CliRun star = run_cli("figure --builtin pentagram --count");
  EXPECT_CLEAN_ERROR(star);
  EXPECT_NE(star.err.find("no counting method"), std::string::npos) << star.err;
  EXPECT_CLEAN_ERROR(run_cli("graph --builtin cycle-5 -l vertex-magic-total --count --solutions 3"));
  EXPECT_CLEAN_ERROR(run_cli("graph --builtin cycle-5 -l vertex-magic-total --count --limit 3"));
  EXPECT_CLEAN_ERROR(run_cli("graph --builtin cycle-5 -l vertex-magic-total --memory 10"));
  EXPECT_CLEAN_ERROR(run_cli("graph --builtin cycle-5 -l vertex-magic-total --count --memory 0"));
  EXPECT_CLEAN_ERROR(run_cli("graph --builtin complete-4 -l vertex-magic-total --count"));
  // The echo and the result say what was counted and how.
  const CliRun ok = run_cli("graph --builtin cycle-7 -l vertex-magic-total --count -t 2");
  EXPECT_EQ(ok.code, 0) << ok.err;
  EXPECT_NE(ok.out.find("unique 118"), std::string::npos) << ok.out;
  EXPECT_NE(ok.out.find("additive digest "), std::string::npos) << ok.out;
}

TEST(Count, VerifyAndMergeRefuseToMixTheDigests) {
  const ScratchPath dir("count_files");
  std::filesystem::create_directories(dir.path());
  const std::string c0 = dir.str() + "/c0.json", c1 = dir.str() + "/c1.json", e1 = dir.str() + "/e1.json";
  const std::string g = "graph --builtin cycle-7 -l vertex-magic-total -q -t 1 ";
  ASSERT_EQ(run_cli(g + "--count --shard 0/2 --json " + c0).code, 0);
  ASSERT_EQ(run_cli(g + "--count --shard 1/2 --json " + c1).code, 0);
  ASSERT_EQ(run_cli(g + "--shard 1/2 --json " + e1).code, 0);
  const CliRun merged = run_cli("merge --json - " + c0 + " " + c1);
  ASSERT_EQ(merged.code, 0) << merged.err;
  const nlohmann::json m = nlohmann::json::parse(merged.out);
  EXPECT_EQ(m.at("counts").at("unique"), 118);
  EXPECT_EQ(m.at("digest_kind"), "additive");
  // The merge's tables are the shards' together.
  magic::TableStats both = magic::read_result(c0).tables;
  both.merge(magic::read_result(c1).tables);
  EXPECT_FALSE(both.empty());
  EXPECT_EQ(magic::table_stats_from_json(m.at("run").at("tables")), both);
  EXPECT_CLEAN_ERROR(run_cli("merge --json - " + c0 + " " + e1));
  const CliRun verify = run_cli("verify " + c0);
  EXPECT_CLEAN_ERROR(verify);
  EXPECT_NE(verify.err.find("without enumerating"), std::string::npos) << verify.err;
}

}  // namespace
