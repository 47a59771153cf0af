// Adding a family is one folder and one entry in Families: a toy family,
// given to the CLI as its catalog, gets its subcommand and --help, the
// echo, the JSON result, the MPI dispatch and a picture, with no edit to
// the CLI, the report or the cluster.  (The program's catalog is the
// library's; run_command takes any.)
#include <gtest/gtest.h>

#include <bit>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_helpers.hpp"
#include "commands.hpp"
#include "magic/cluster_spec.hpp"
#include "magic/registry.hpp"
#include "temp_path.hpp"
#include "toy_problem.hpp"

namespace {

// Sets of k numbers from 1..n that sum to s, as a family would give them:
// its own name, its solutions as the numbers (drawn around a circle).
struct ToySubsets : SubsetSum {
  nlohmann::json describe() const { return {{"name", "subsets"}, {"n", n}, {"k", k}, {"s", s}}; }
  nlohmann::json to_json(const Solution& x) const {
    nlohmann::json out = nlohmann::json::array();
    for (int v = 1; v <= n; ++v)
      if (x >> v & 1) out.push_back(v);
    return out;
  }
};
static_assert(magic::Problem<ToySubsets>);

struct ToyFamily {
  static constexpr const char* kName = "subsets";
  static constexpr magic::Picture kPicture = magic::Picture::Circle;
  static std::string levels_help() { return "a level is one chosen number"; }
  static magic::FamilyCommand command() {
    magic::FamilyCommand c;
    c.summary = "count the sets of K numbers from 1..N with sum S";
    c.options = {
        {.field = "n", .flags = "--n,-n", .kind = magic::FieldKind::Int, .help = "numbers 1..N", .required = true},
        {.field = "k", .flags = "--k", .kind = magic::FieldKind::Int, .help = "numbers in a set",
         .default_value = "3", .positive_needs = "at least 1"},
        {.field = "s", .flags = "--s", .kind = magic::FieldKind::Int, .help = "their sum", .required = true},
    };
    c.text = magic::SolutionText::Numbers;
    return c;
  }
  template <class F>
  static decltype(auto) visit(const nlohmann::json& spec, F&& f) {
    return f(ToySubsets{{spec.at("n").get<int>(), spec.at("k").get<int>(), spec.at("s").get<int>()}});
  }
};
using Toys = std::tuple<ToyFamily>;

const cli::Catalog& toys() {
  static const cli::Catalog c{magic::detail::family_commands<Toys>(),
                              [](const nlohmann::json& spec) { return magic::detail::make_job<Toys>(spec); }};
  return c;
}

// run_command over the toy catalog, its stdout kept.
struct Ran {
  int code;
  std::string out;
};
Ran run_toys(std::vector<std::string> args) {
  args.insert(args.begin(), "magicount");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  std::ostringstream out;
  std::streambuf* was = std::cout.rdbuf(out.rdbuf());
  std::string why;
  const int code = cli::run_command(static_cast<int>(argv.size()), argv.data(), toys(), why);
  std::cout.rdbuf(was);
  return {code, out.str()};
}

std::uint64_t brute_count(int n, int k, int s) {
  std::uint64_t count = 0;
  for (std::uint32_t set = 0; set < (1u << n); ++set) {
    if (std::popcount(set) != k) continue;
    int sum = 0;
    for (int v = 1; v <= n; ++v) sum += (set >> (v - 1) & 1) ? v : 0;
    count += sum == s;
  }
  return count;
}

}  // namespace

TEST(FamilyRecipe, AToyFamilyGetsItsSubcommandAndHelp) {
  const Ran help = run_toys({"--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("subsets "), std::string::npos) << help.out;
  const Ran sub = run_toys({"subsets", "--help"});
  EXPECT_EQ(sub.code, 0);
  for (const char* text : {"--n", "--k", "--s", "--threads", "--svg", "a level is one chosen number"})
    EXPECT_NE(sub.out.find(text), std::string::npos) << text << "\n" << sub.out;
  // Bad input: the table's checks, exit 2.
  EXPECT_EQ(run_toys({"subsets", "--n", "9"}).code, 2);                     // --s is required
  EXPECT_EQ(run_toys({"subsets", "--n", "9", "--s", "9", "--k", "0"}).code, 2);  // positive
}

TEST(FamilyRecipe, AToyFamilyGetsTheEchoTheJsonAndAPicture) {
  const ScratchDir dir("family-recipe");
  const std::string json = (dir / "r.json").string(), svg = (dir / "r.svg").string();
  const Ran r = run_toys({"subsets", "--n", "14", "--k", "4", "--s", "30", "-t", "2", "--split-depth", "2",
                          "--solutions", "3", "--json", json, "--svg", svg});
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find(">> subsets k=4 n=14 s=30  threads=2 split-depth=2"), std::string::npos) << r.out;
  const nlohmann::json result = nlohmann::json::parse(read_text(json));
  EXPECT_EQ(result.at("problem"), (nlohmann::json{{"name", "subsets"}, {"n", 14}, {"k", 4}, {"s", 30}}));
  EXPECT_EQ(result.at("counts").at("unique").get<std::uint64_t>(), brute_count(14, 4, 30));
  ASSERT_EQ(result.at("solutions").size(), 3u);
  EXPECT_EQ(result.at("solutions")[0].size(), 4u);  // the toy's own form: the four numbers
  const std::string picture = read_text(svg);
  EXPECT_NE(picture.find("<svg"), std::string::npos);
  EXPECT_NE(picture.find("<circle"), std::string::npos) << "drawn as the family's Picture::Circle";
  // The default --k (3) is sent in the spec.
  const Ran k3 = run_toys({"subsets", "--n", "10", "--s", "15", "-q", "--json", json});
  ASSERT_EQ(k3.code, 0);
  EXPECT_EQ(nlohmann::json::parse(read_text(json)).at("counts").at("unique").get<std::uint64_t>(),
            brute_count(10, 3, 15));
}

// Its subcommand searches, so magicount-mpi runs it on every rank; across
// ranks (the loopback wire, as under MPI) it gives the one-process digest.
TEST(FamilyRecipe, AToyFamilyRunsAcrossRanks) {
  CLI::App app{"toys"};
  cli::Action action;
  cli::add_family(app, action, toys().families.at(0), toys());
  std::vector<std::string> args = {"toys", "subsets", "--n", "12", "--s", "20"};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  app.parse(static_cast<int>(argv.size()), argv.data());
  EXPECT_TRUE(cli::on_every_rank(app, toys()));
  EXPECT_FALSE(cli::on_every_rank(app, cli::library_catalog()));
  const magic::Job job = toys().make_job({{"name", "subsets"}, {"n", 12}, {"k", 3}, {"s", 20}});
  const magic::RunResult one = job.run({.threads = 2, .split_depth = 2});
  const magic::RunResult across = magic::run_loopback(job, {.threads = 1, .split_depth = 2}, 2);
  EXPECT_EQ(one.unique, brute_count(12, 3, 20));
  EXPECT_EQ(across.unique, one.unique);
  EXPECT_EQ(across.digest, one.digest);
}
