// The graph family: every labelling kind against the brute-force oracle on
// small graphs, the published theorems and dualities, the three input
// formats, and bad files (the published sequences are rows of
// data/known_counts.json, run by test_known_counts).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "cli_helpers.hpp"
#include "magic/spec.hpp"
#include "oracle/graph_oracle.hpp"
#include "temp_path.hpp"

namespace {

using oracle::GraphLabeling;

struct KindCase {
  GraphLabeling kind;
  const char* name;
  bool vertices, edges;
};
const KindCase kKinds[] = {
    {GraphLabeling::EdgeMagicTotal, "edge-magic-total", true, true},
    {GraphLabeling::VertexMagicTotal, "vertex-magic-total", true, true},
    {GraphLabeling::SuperEdgeMagicTotal, "super-edge-magic-total", true, true},
    {GraphLabeling::SuperVertexMagicTotal, "super-vertex-magic-total", true, true},
    {GraphLabeling::VertexMagicEdge, "vertex-magic-edge", false, true},
    {GraphLabeling::EdgeMagicVertex, "edge-magic-vertex", true, false},
    {GraphLabeling::DistanceMagic, "distance-magic", true, false},
};

nlohmann::json graph_of(int n, const std::vector<std::pair<int, int>>& edges) {
  nlohmann::json es = nlohmann::json::array();
  for (const auto& [u, v] : edges) es.push_back({u, v});
  return {{"vertices", n}, {"edges", es}};
}

magic::RunResult run_graph(const nlohmann::json& graph, const std::string& labeling, unsigned threads = 1,
                           bool breaking = true) {
  nlohmann::json spec{{"name", "graph"}, {"graph", graph}, {"labeling", labeling}};
  if (!breaking) spec["symmetry_breaking"] = false;
  return magic::run_spec(spec, {.threads = threads}).result;
}

// Every kind on every small graph of the oracle's list with at most 10
// labelled elements: counts.unique, counts.total and by_sum agree, with
// symmetry breaking and with every image enumerated.
TEST(Graph, TheOracleAgreesOnEveryKindOfEverySmallGraph) {
  int graphs = 0, compared = 0;
  for (const oracle::SmallGraph& g : oracle::small_graphs()) {
    ++graphs;
    for (const KindCase& k : kKinds) {
      const int elements = (k.vertices ? g.n : 0) + (k.edges ? static_cast<int>(g.edges.size()) : 0);
      if (elements == 0 || elements > 10) continue;
      const oracle::GraphCounts want = oracle::count_graph_labelings(g.n, g.edges, k.kind);
      for (bool breaking : {true, false}) {
        const magic::RunResult got = run_graph(graph_of(g.n, g.edges), k.name, 2, breaking);
        const std::string what = g.name + " " + k.name + (breaking ? "" : " (every image)");
        EXPECT_EQ(got.unique, want.unique) << what;
        EXPECT_EQ(got.total, want.total) << what;
        std::map<std::int64_t, std::uint64_t> by_sum(got.by_key.begin(), got.by_key.end());
        EXPECT_EQ(by_sum, want.by_sum) << what;
      }
      ++compared;
    }
  }
  EXPECT_GE(graphs, 30);
  EXPECT_GE(compared, 150);
}

// Kotzig and Rosa (1970): K_n has an edge-magic total labelling only for
// n = 1, 2, 3, 5, 6.
TEST(Graph, CompleteGraphsAreEdgeMagicForOneTwoThreeFiveAndSixOnly) {
  for (int n = 1; n <= 6; ++n) {
    const magic::RunResult r = magic::run_spec(
        {{"name", "graph"}, {"builtin", "complete-" + std::to_string(n)}, {"labeling", "edge-magic-total"}},
        {.threads = 2}).result;
    EXPECT_EQ(r.unique > 0, n != 4) << "K_" << n;
  }
}

// Every vertex-magic total labelling of C_n is an edge-magic total
// labelling of C_n with the roles of the vertices and edges swapped (each
// vertex's weight is the weight of an edge of the same cycle), so the
// counts agree.
TEST(Graph, VertexMagicAndEdgeMagicCyclesAreDual) {
  for (int n = 3; n <= 9; ++n) {
    const nlohmann::json c{{"name", "graph"}, {"builtin", "cycle-" + std::to_string(n)}};
    nlohmann::json vmt = c, emt = c;
    vmt["labeling"] = "vertex-magic-total";
    emt["labeling"] = "edge-magic-total";
    const magic::RunResult a = magic::run_spec(vmt, {.threads = 2}).result, b = magic::run_spec(emt, {.threads = 2}).result;
    EXPECT_EQ(a.unique, b.unique) << n;
    EXPECT_EQ(a.total, b.total) << n;
  }
}

// graph6, an edge list (in another order, with comments) and JSON of one
// graph: the same result, digest and canonical form included.
TEST(Graph, TheThreeFormatsOfOneGraphGiveOneResult) {
  const ScratchPath dir("graph_formats");
  std::filesystem::create_directories(dir.path());
  // The bull: a triangle 0 1 2 with pendant vertices 3 (at 0) and 4 (at 1).
  const std::map<std::string, std::string> files = {
      {"bull.g6", "D{O\n"},  // edges in graph6's order: 01 02 12 03 | 13 23 04 14 | 24 34
      {"bull.txt", "# the bull\n1 4\n0 1\n2 0   # the triangle's third edge\n1 2\n0 3\n"},
      {"bull.json", R"({"vertices": [0, 1, 2, 3, 4], "edges": [[0, 1], [1, 2], [0, 2], [0, 3], [1, 4]]})"},
  };
  std::vector<nlohmann::json> results;
  for (const auto& [name, text] : files) {
    std::ofstream(dir.path() / name) << text;
    const CliRun r = run_cli("graph " + (dir.path() / name).string() +
                             " --labeling edge-magic-total -t 2 -q --solutions all --json -");
    ASSERT_EQ(r.code, 0) << name << ": " << r.err;
    nlohmann::json j = nlohmann::json::parse(r.out);
    results.push_back({{"counts", j.at("counts")},
                       {"digest", j.at("digest")},
                       {"canonical", j.at("problem").at("canonical_graph6")},
                       {"edges", j.at("problem").at("graph").at("edges")},
                       {"solutions", j.at("solutions")}});
  }
  EXPECT_EQ(results[0], results[1]);
  EXPECT_EQ(results[0], results[2]);
  EXPECT_GT(results[0].at("counts").at("unique").get<int>(), 0);
  // The canonical form does not depend on the numbering either.
  const CliRun relabelled = run_cli("graph - --labeling edge-magic-total -t 1 -q --json -", "a b\nb c\nc a\nc d\nb e\n");
  ASSERT_EQ(relabelled.code, 0) << relabelled.err;
  EXPECT_EQ(nlohmann::json::parse(relabelled.out).at("problem").at("canonical_graph6"), results[0].at("canonical"));
}

TEST(Graph, ASuperLabellingPutsTheSmallestNumbersOnTheVertices) {
  const CliRun r = run_cli("graph --builtin path-4 --labeling super-edge-magic-total -t 1 -q --solutions all --json -");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_GT(j.at("solutions").size(), 0u);
  for (const auto& s : j.at("solutions")) {
    for (const auto& v : s.at("vertices")) EXPECT_LE(v.get<int>(), 5) << s.dump();
    for (const auto& e : s.at("edges")) EXPECT_GT(e.get<int>(), 5) << s.dump();
  }
}

// A result passes the independent checker, which finds the automorphisms
// itself; a labelling tampered with does not.
TEST(Graph, VerifyChecksEveryKind) {
  const ScratchPath dir("graph_verify");
  std::filesystem::create_directories(dir.path());
  for (const KindCase& k : kKinds) {
    const std::string file = (dir.path() / (std::string(k.name) + ".json")).string();
    const CliRun r =
        run_cli(std::string("graph --builtin fan-4 --labeling ") + k.name + " -t 2 -q --solutions all --json " + file);
    ASSERT_EQ(r.code, 0) << k.name << ": " << r.err;
    const CliRun v = run_cli("verify " + file);
    EXPECT_EQ(v.code, 0) << k.name << ": " << v.out << v.err;
  }
  const std::string file = (dir.path() / "edge-magic-total.json").string();
  nlohmann::json j = nlohmann::json::parse(read_text(file));
  ASSERT_GT(j.at("solutions").size(), 0u);
  auto& edges = j.at("solutions")[0].at("edges");
  std::swap(edges[0], edges[1]);
  std::ofstream(file) << j.dump();
  EXPECT_NE(run_cli("verify " + file).code, 0);
}

// Bad graphs: exit 2 with one line, nothing else written.
TEST(Graph, BadGraphsExitTwoWithOneLine) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"0 0\n", "self-loop"},
      {"0 1\n1 0\n", "repeats edge"},
      {R"({"vertices": ["a", "b"], "edges": [["a", "c"]]})", "unknown vertex"},
      {"Dx\n", "graph6"},
      {"A~~\n", "graph6"},
      {"0 1 2\n", "two vertices"},
      {"", "empty"},
      {":Fa@x^\n", "sparse6"},
  };
  for (const auto& [text, says] : bad) {
    const CliRun r = run_cli("graph - --labeling edge-magic-total -q", text);
    EXPECT_EQ(r.code, 2) << text;
    EXPECT_NE(r.err.find(says), std::string::npos) << text << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.out, "") << text;
  }
  // No labelling named.
  const CliRun none = run_cli("graph --builtin cycle-5 -q");
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.err.find("labeling"), std::string::npos) << none.err;
  // More than the engine's 64 elements, vertices or edges.
  for (const std::string& args : {std::string("--builtin complete-12 --labeling edge-magic-vertex"),
                                  std::string("--builtin cycle-40 --labeling edge-magic-total"),
                                  std::string("--builtin cycle-2 --labeling edge-magic-total"),
                                  std::string("--builtin nonesuch-3 --labeling edge-magic-total"),
                                  std::string("--builtin path-3 --labeling magic")}) {
    const CliRun r = run_cli("graph " + args + " -q");
    EXPECT_EQ(r.code, 2) << args << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ": " << r.err;
  }
}

TEST(Graph, ShowAndListSearchNothing) {
  const CliRun list = run_cli("graph --list");
  ASSERT_EQ(list.code, 0) << list.err;
  for (const char* form : {"cycle-N", "path-N", "wheel-N", "complete-N", "star-N", "fan-N", "friendship-N",
                           "prism-N", "grid-RxC", "complete-bipartite-MxN", "petersen"})
    EXPECT_NE(list.out.find(form), std::string::npos) << form;
  const CliRun show = run_cli("graph --builtin petersen --labeling vertex-magic-total --show");
  ASSERT_EQ(show.code, 0) << show.err;
  const nlohmann::json j = nlohmann::json::parse(show.out);
  EXPECT_EQ(j.at("group").at("order"), 120);
  EXPECT_EQ(j.at("group").at("automorphisms"), 120);
  EXPECT_EQ(j.at("as_figure").at("points").size(), 25u);
  EXPECT_EQ(j.at("as_figure").at("lines").size(), 10u);
  // The Petersen graph as the literature's graph6 writes it (another
  // numbering): the same canonical form.
  const CliRun other = run_cli("graph - --labeling vertex-magic-total --show", "IheA@GUAo\n");
  ASSERT_EQ(other.code, 0) << other.err;
  EXPECT_EQ(nlohmann::json::parse(other.out).at("canonical_graph6"), j.at("canonical_graph6"));
  EXPECT_EQ(nlohmann::json::parse(other.out).at("group").at("automorphisms"), 120);
}

// Symmetry none counts every labelling; the unique count then is the total.
TEST(Graph, SymmetryNoneCountsEveryLabelling) {
  const magic::RunResult all =
      magic::run_spec({{"name", "graph"}, {"builtin", "cycle-6"}, {"labeling", "vertex-magic-total"}, {"symmetry", "none"}},
                      {.threads = 2}).result;
  EXPECT_EQ(all.unique, 20u * 12u);  // A145692's 20, times the 12 symmetries of C_6
}

// A group of one's own (the rotations of C_6, no reflection) and a fixed sum.
TEST(Graph, GeneratorsAndAFixedSum) {
  const nlohmann::json rot{{"name", "graph"}, {"builtin", "cycle-6"}, {"labeling", "vertex-magic-total"},
                           {"symmetry", {{"generators", {{"1", "2", "3", "4", "5", "0"}}}}}};
  const magic::RunResult r = magic::run_spec(rot, {.threads = 2}).result;
  EXPECT_EQ(r.total, 240u);
  EXPECT_EQ(r.unique, 40u);
  nlohmann::json bad = rot;
  bad["symmetry"]["generators"][0] = {"1", "0", "2", "3", "4", "5"};  // not an automorphism of C_6
  EXPECT_THROW(magic::run_spec(bad, {.threads = 1}), magic::SpecError);
  const CliRun fixed = run_cli("graph --builtin cycle-5 --labeling vertex-magic-total --sum 14 -t 1 -q --json -");
  ASSERT_EQ(fixed.code, 0) << fixed.err;
  EXPECT_EQ(nlohmann::json::parse(fixed.out).at("counts").at("by_sum"), nlohmann::json({{"14", 1}}));
}

// The picture: a circle and a label per vertex, a label per edge.
TEST(Graph, TheSvgDrawsTheLabelledGraph) {
  const ScratchPath dir("graph_svg");
  std::filesystem::create_directories(dir.path());
  const std::string svg = (dir.path() / "c5.svg").string();
  const CliRun r = run_cli("graph --builtin cycle-5 --labeling vertex-magic-total -t 1 -q --solutions 1 --svg " + svg);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string text = read_text(svg);
  auto count = [&](const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  const std::size_t panels = count("<circle") / 5;  // --svg draws up to four solutions
  EXPECT_GE(panels, 1u);
  EXPECT_EQ(count("<circle"), 5 * panels);
  EXPECT_EQ(count("<line"), 5 * panels);
  EXPECT_EQ(count("<text"), 1 + 11 * panels);  // the title; each panel's vertices, edges and constant
  EXPECT_NE(text.find("magic constant 14"), std::string::npos);
}

}  // namespace
