// `magicount verify`: the independent checker accepts the engine's own
// result files for every family and rejects each kind of damage.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_helpers.hpp"
#include "checker/checker.hpp"
#include "magic/core/error.hpp"
#include "temp_path.hpp"

namespace {

using nlohmann::json;

// A scratch file path, removed when it goes out of scope.
class Scratch {
 public:
  explicit Scratch(const std::string& ext) {
    static int seq = 0;
    path_ = unique_temp_path("verify") + "_" + std::to_string(seq++) + ext;
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  const std::string& str() const { return path_; }
  void write(const std::string& text) const { std::ofstream(path_, std::ios::binary) << text; }
  std::string read() const {
    std::ifstream in(path_, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

 private:
  std::string path_;
};

// ---- the damage done to a solution, per family ------------------------------

// The number a test changes: the first point of a star, else the first
// number of the list (or of its first row).
json& a_number(json& sol) {
  if (sol.is_object()) return sol.at("points").at(0);
  return sol.at(0).is_array() ? sol.at(0).at(0) : sol.at(0);
}

json transpose(const json& rows) {
  json t = rows;
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::size_t c = 0; c < rows.size(); ++c) t[c][r] = rows[r][c];
  return t;
}

json reversed(const json& list) {
  json r = json::array();
  for (auto it = list.rbegin(); it != list.rend(); ++it) r.push_back(*it);
  return r;
}

// The star turned by one step: V(i) -> V(i+1), I(j) -> I(j+1), on labels
// (the pentagram's own numbering for n = 5).  The line sums move with the
// lines, so the list of them is dropped; the common sum stays.
json star_turned(const json& sol) {
  const auto& p = sol.at("points");
  const int n = static_cast<int>(p.size()) / 2;
  const int pentagram[10] = {0, 1, 8, 9, 4, 2, 5, 7, 6, 3};
  auto label = [&](int q) { return n == 5 ? pentagram[q] : q; };
  json out = p;
  for (int i = 0; i < n; ++i) {
    out[label((i + 1) % n)] = p[label(i)];
    out[label(n + (i + 1) % n)] = p[label(n + i)];
  }
  return {{"points", out}, {"sum", sol.at("sum")}};
}

json same(const json& sol) { return sol; }

struct Case {
  std::string name;
  std::string args;                        // the engine run (without --json)
  std::function<json(const json&)> image;  // another member of the same symmetry class
  const char* by_key = nullptr;
};

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.name; }

const std::string kGrid3 = "[[0,0,0],[0,5,0],[0,0,0]]";
const std::string kGrid4 = "[[0,0,0,0],[0,0,0,0],[0,0,0,0],[1,0,0,0]]";

// ---- running the binary -----------------------------------------------------

// The engine's result for `args`, with every solution inline; cached per run.
const json& engine_result(const std::string& args) {
  static std::map<std::string, json> cache;
  if (const auto it = cache.find(args); it != cache.end()) return it->second;
  Scratch out(".json");
  const CliRun r = run_cli(args + " --json " + out.str() + " --solutions all -q -t 2");
  EXPECT_EQ(r.code, 0) << args << ": " << r.err;
  return cache[args] = json::parse(out.read());
}

// The grid a complete case reads, written to a scratch file for the run.
CliRun run_case(const Case& c, const std::string& tail) {
  if (c.args.rfind("complete", 0) != 0) return run_cli(c.args + tail);
  Scratch grid(".json");
  grid.write(c.name.find("4") != std::string::npos ? kGrid4 : kGrid3);
  return run_cli(c.args + " " + grid.str() + tail);
}

const json& case_result(const Case& c) {
  static std::map<std::string, json> cache;
  if (const auto it = cache.find(c.name); it != cache.end()) return it->second;
  Scratch out(".json");
  const bool complete = c.args.rfind("complete", 0) == 0;  // its --all already lists every completion
  const CliRun r = run_case(c, " --json " + out.str() + (complete ? "" : " --solutions all") + " -q -t 2");
  EXPECT_EQ(r.code, 0) << c.args << ": " << r.err;
  return cache[c.name] = json::parse(out.read());
}

CliRun verify_text(const std::string& text, const std::string& extra = "") {
  Scratch f(".json");
  f.write(text);
  return run_cli("verify " + f.str() + extra);
}

CliRun verify_json(const json& j, const std::string& extra = "") { return verify_text(j.dump(), extra); }

// Exit 1 with one line on stderr that contains `what`.
#define EXPECT_REJECTED(run, what)                                                   \
  do {                                                                               \
    const CliRun& v_ = (run);                                                        \
    EXPECT_EQ(v_.code, 1) << v_.err;                                                 \
    EXPECT_EQ(std::count(v_.err.begin(), v_.err.end(), '\n'), 1) << v_.err;          \
    EXPECT_NE(v_.err.find(what), std::string::npos) << v_.err;                       \
    EXPECT_TRUE(v_.out.empty()) << v_.out;                                           \
  } while (0)

// ---- every family: accept the engine's output, reject damage ------------------

class VerifyFamily : public ::testing::TestWithParam<Case> {};

TEST_P(VerifyFamily, AcceptsTheEnginesOwnOutput) {
  const json& res = case_result(GetParam());
  const CliRun v = verify_json(res);
  EXPECT_EQ(v.code, 0) << v.err;
  EXPECT_TRUE(v.err.empty()) << v.err;
  EXPECT_EQ(std::count(v.out.begin(), v.out.end(), '\n'), 1) << v.out;
  const std::string count = std::to_string(res.at("counts").at("unique").get<std::uint64_t>());
  EXPECT_EQ(v.out.rfind("verified: " + res.at("problem").at("name").get<std::string>(), 0), 0u) << v.out;
  EXPECT_NE(v.out.find(": " + count + " solution"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("counts and digest agree"), std::string::npos) << v.out;
}

TEST_P(VerifyFamily, RejectsOneChangedNumber) {
  json res = case_result(GetParam());
  const std::size_t k = res.at("solutions").size() / 2;
  json& x = a_number(res.at("solutions").at(k));
  x = x.get<int>() == 1 ? 2 : x.get<int>() - 1;
  EXPECT_REJECTED(verify_json(res), "solution " + std::to_string(k + 1) + " is not a valid solution");
}

TEST_P(VerifyFamily, RejectsADuplicateUpToSymmetry) {
  json res = case_result(GetParam());
  json& sols = res.at("solutions");
  const json twin = GetParam().image(sols.at(0));
  // Keep the listing's length when there is a second solution to replace.
  if (sols.size() >= 2) sols.at(1) = twin;
  else sols.push_back(twin);
  EXPECT_REJECTED(verify_json(res), "solution 2 is the same as solution 1");
}

TEST_P(VerifyFamily, RejectsAChangedCount) {
  json res = case_result(GetParam());
  auto& unique = res.at("counts").at("unique");
  unique = unique.get<std::uint64_t>() + 1;
  EXPECT_REJECTED(verify_json(res), "counts.unique");
  unique = unique.get<std::uint64_t>() - 2;
  EXPECT_REJECTED(verify_json(res), "counts.unique");

  res = case_result(GetParam());
  if (res.at("counts").contains("total")) {
    auto& total = res.at("counts").at("total");
    total = total.get<std::uint64_t>() + 1;
    EXPECT_REJECTED(verify_json(res), "counts.total");
  }
  if (const char* key = GetParam().by_key) {
    res = case_result(GetParam());
    auto& by = res.at("counts").at(key);
    ASSERT_FALSE(by.empty());
    by.begin().value() = by.begin().value().get<std::uint64_t>() + 1;
    EXPECT_REJECTED(verify_json(res), std::string("counts.") + key);
  }
}

TEST_P(VerifyFamily, RejectsAChangedDigest) {
  json res = case_result(GetParam());
  std::string d = res.at("digest");
  d[7] = d[7] == '0' ? '1' : '0';
  res.at("digest") = d;
  EXPECT_REJECTED(verify_json(res), "digest");
}

TEST_P(VerifyFamily, ReadsTheSolutionsFromAJsonLinesFile) {
  const Case& c = GetParam();
  json res = case_result(c);
  Scratch lines(".jsonl");
  ASSERT_EQ(run_case(c, " --solutions-file " + lines.str() + " -q -t 1").code, 0);
  res.erase("solutions");
  Scratch f(".json");
  f.write(res.dump());
  const CliRun ok = run_cli("verify " + f.str() + " --solutions-file " + lines.str());
  EXPECT_EQ(ok.code, 0) << ok.err;
  EXPECT_NE(ok.out.find("counts and digest agree"), std::string::npos) << ok.out;

  // Damage the last line: the failure names it.
  std::string text = lines.read();
  const std::size_t last = text.rfind('\n', text.size() - 2) + 1;
  json sol = json::parse(text.substr(last));
  json& x = a_number(sol);
  x = x.get<int>() == 1 ? 2 : x.get<int>() - 1;
  const std::size_t n = std::count(text.begin(), text.end(), '\n');
  lines.write(text.substr(0, last) + sol.dump() + "\n");
  EXPECT_REJECTED(run_cli("verify " + f.str() + " --solutions-file " + lines.str()),
                  "line " + std::to_string(n) + " of " + lines.str());
}

INSTANTIATE_TEST_SUITE_P(
    Families, VerifyFamily,
    ::testing::Values(Case{"square3", "square --order 3", transpose, "by_center"},
                      Case{"square4", "square --order 4", transpose},
                      Case{"square5_associative", "square --order 5 --kind associative", transpose, "by_center"},
                      Case{"square4_most_perfect", "square --order 4 --kind most-perfect", transpose},
                      Case{"square4_associative_all_orientations",
                           "square --order 4 --kind associative --all-orientations", transpose},
                      // Order-5 semi: listed by classes of 3,600 (a shard of them), and a slice.
                      Case{"square5_semi_shard", "square --order 5 --kind semi --split-depth 2 --shard 3/10000",
                           transpose},
                      Case{"square5_semi_slice",
                           "square --order 5 --kind semi --first-row 1,2,13,24,25 --first-column 1,3,17,21,23", same},
                      // The cell-by-cell solver's order-5 semi squares, not classes.
                      Case{"square5_semi_all_orientations", "square --order 5 --kind semi --all-orientations --limit 5",
                           transpose},
                      Case{"square8_most_perfect", "square --order 8 --kind most-perfect --limit 300", transpose},
                      Case{"star6", "star --n 6", star_turned, "by_sum"},
                      Case{"pentagram_1_12", "star --n 5 --numbers 1..12", star_turned, "by_sum"},
                      Case{"pentagram_4_lines", "star --n 5 --equal-lines 4", star_turned, "by_sum"},
                      Case{"star7_sum30", "star --n 7 --numbers 1..16 --equal-lines 6 --sum 30", star_turned,
                           "by_sum"},
                      Case{"figure_star7", "figure --builtin star-7-2", star_turned, "by_sum"},
                      Case{"figure_pentagram_4_lines", "figure --builtin pentagram --equal-lines 4", star_turned,
                           "by_sum"},
                      Case{"circle8", "circle --n 8", reversed},
                      Case{"circle10_multiplier", "circle --n 10 --method multiplier", reversed},
                      Case{"complete3", "complete --all", same},
                      Case{"complete4_pandiagonal", "complete --all --kind pandiagonal", same}),
    [](const ::testing::TestParamInfo<Case>& p) { return p.param.name; });

// ---- listings that are not the whole result -----------------------------------

TEST(Verify, PartialListingNeedsTheFlag) {
  Scratch out(".json");
  ASSERT_EQ(run_cli("square --order 4 --json " + out.str() + " --solutions 10 -q").code, 0);
  EXPECT_REJECTED(run_cli("verify " + out.str()), "--partial");
  const CliRun ok = run_cli("verify --partial " + out.str());
  EXPECT_EQ(ok.code, 0) << ok.err;
  EXPECT_NE(ok.out.find("10 of 880 solutions"), std::string::npos) << ok.out;
}

// Stopped runs and shards list exactly what they counted; the hash-set and
// all-orientations paths hand out other members of the classes than the
// generator does.  All are checked in full.
TEST(Verify, EveryRunModeIsCheckedOnWhatItCounted) {
  for (const char* args : {"square --order 4 --limit 25", "square --order 4 --shard 1/3", "star --n 6 --limit 7",
                           "square --order 4 --dedup hash-set", "star --n 6 --all-orientations",
                           "star --n 5 --equal-lines 4 --dedup hash-set"}) {
    SCOPED_TRACE(args);
    const CliRun ok = verify_json(engine_result(args));
    EXPECT_EQ(ok.code, 0) << ok.err;
    EXPECT_NE(ok.out.find("counts and digest agree"), std::string::npos) << ok.out;
  }
}

// A slice of the order-5 count: the checker holds every square to the
// problem's centre and diagonal values, not only to the lines.
TEST(Verify, OrderFiveSlicesAreHeldToTheirCentreAndDiagonals) {
  json res = engine_result("square --order 5 --center 20 --limit 30");
  const CliRun ok = verify_json(res);
  EXPECT_EQ(ok.code, 0) << ok.err;
  res.at("problem")["center"] = 19;
  EXPECT_REJECTED(verify_json(res), "the centre holds 20, not 19");
  res.at("problem")["center"] = 20;
  const json& first = res.at("solutions").at(0);
  json diag = json::array();
  for (int i = 0; i < 5; ++i)
    if (i != 2) diag.push_back(first.at(i).at(i)), diag.push_back(first.at(i).at(4 - i));
  diag[0] = first.at(0).at(1);  // a value off the diagonals
  res.at("problem")["diagonal"] = diag;
  EXPECT_REJECTED(verify_json(res), "solution 1 is not a valid solution: the diagonals");
}

// docs/long-runs.md "Shards and merge": the merged result checks against the shards'
// solutions together, and a shard's solutions left out are noticed.
TEST(Verify, AMergedShardRunChecksAgainstAllShardsSolutions) {
  Scratch all(".jsonl"), merged(".json");
  std::vector<std::unique_ptr<Scratch>> files;
  std::string jsons, lines_text, without_last;
  for (int i = 0; i < 3; ++i) {
    const Scratch* json_file = files.emplace_back(std::make_unique<Scratch>(".json")).get();
    const Scratch* lines = files.emplace_back(std::make_unique<Scratch>(".jsonl")).get();
    // Depth 1: at the default depth 4x4 is one task, and two shards would be empty.
    ASSERT_EQ(run_cli("square --order 4 --split-depth 1 --shard " + std::to_string(i) + "/3 --json " + json_file->str() +
                      " --solutions-file " + lines->str() + " -q")
                  .code,
              0);
    jsons += " " + json_file->str();
    if (i == 2) without_last = lines_text;
    lines_text += lines->read();
  }
  const CliRun m = run_cli("merge" + jsons + " --json " + merged.str() + " -q");
  ASSERT_EQ(m.code, 0) << m.err;
  all.write(lines_text);
  const CliRun ok = run_cli("verify " + merged.str() + " --solutions-file " + all.str());
  EXPECT_EQ(ok.code, 0) << ok.err;
  EXPECT_NE(ok.out.find("880 solutions valid and distinct; counts and digest agree"), std::string::npos) << ok.out;
  all.write(without_last);
  EXPECT_REJECTED(run_cli("verify " + merged.str() + " --solutions-file " + all.str()), "counts.unique is 880");
}

TEST(Verify, SolutionsInBothPlacesMustAgree) {
  Scratch out(".json"), lines(".jsonl");
  ASSERT_EQ(run_cli("circle --n 8 --json " + out.str() + " --solutions-file " + lines.str() + " -q").code, 0);
  EXPECT_EQ(run_cli("verify " + out.str() + " --solutions-file " + lines.str()).code, 0);
  std::string text = lines.read();
  lines.write(text.substr(text.find('\n') + 1));  // first line dropped
  EXPECT_REJECTED(run_cli("verify " + out.str() + " --solutions-file " + lines.str()), "differs from solution 1");
}

TEST(Verify, TheStarsLinesMustBeTheLabelling) {
  json res = engine_result("star --n 5 --numbers 1..12");
  ASSERT_TRUE(res.contains("lines"));
  std::swap(res.at("lines")[0], res.at("lines")[1]);
  EXPECT_REJECTED(verify_json(res), "\"lines\"");
}

TEST(Verify, AStarSolutionMustKeepItsStatedSums) {
  json res = engine_result("star --n 6");
  res.at("solutions").at(3).at("sum") = 27;
  EXPECT_REJECTED(verify_json(res), "solution 4 is not a valid solution: \"sum\"");
}

TEST(Verify, ACompletionMustKeepTheGivens) {
  const Case c{"complete4_pandiagonal", "complete --all --kind pandiagonal", same};
  json res = case_result(c);
  res.at("problem").at("grid")[0][0] = res.at("solutions")[0][0][0].get<int>() % 16 + 1;
  EXPECT_REJECTED(verify_json(res), "solution 1 is not a valid solution: cell (1,1) is given as");
}

// ---- files that are not result files: exit 2, one line ------------------------

TEST(Verify, UnreadableOrMalformedFilesExit2) {
  const json good = engine_result("circle --n 6");
  auto broken = [&](const std::function<void(json&)>& f) {
    json j = good;
    f(j);
    return j.dump();
  };
  const std::vector<std::string> texts = {
      "",
      "garbage {",
      std::string(100000, '[') + std::string(100000, ']'),
      "[1,2,3]",
      "{}",
      broken([](json& j) { j.at("problem").at("name") = "hexagon"; }),
      broken([](json& j) { j.at("problem") = json::array(); }),
      broken([](json& j) { j.at("problem").at("n") = "six"; }),
      broken([](json& j) { j.at("problem").at("n") = 2; }),
      broken([](json& j) { j.at("counts") = "many"; }),
      broken([](json& j) { j.at("counts").at("unique") = -1; }),
      broken([](json& j) { j.at("counts").at("total") = 1.5; }),
      broken([](json& j) { j.at("counts").erase("total"); }),
      broken([](json& j) { j.at("digest") = 5; }),
      broken([](json& j) { j.at("digest") = "xyz"; }),
      broken([](json& j) { j.at("exhaustive") = "yes"; }),
      broken([](json& j) { j.at("solutions") = json::object(); }),
      broken([](json& j) { j.erase("solutions"); }),
      broken([](json& j) {
        j.at("problem") = {{"name", "star"}, {"n", 6}, {"numbers", "1..x"}};
      }),
      broken([](json& j) { j.at("problem") = {{"name", "square"}, {"order", 4}, {"kind", "weird"}}; }),
      broken([](json& j) { j.at("problem") = {{"name", "complete"}, {"grid", "[[1]]"}}; }),
  };
  for (const std::string& t : texts) {
    SCOPED_TRACE(t.substr(0, 80));
    EXPECT_CLEAN_ERROR(verify_text(t));
  }
  EXPECT_CLEAN_ERROR(run_cli("verify " + unique_temp_path("verify_no_such_file") + ".json"));
  EXPECT_CLEAN_ERROR(run_cli("verify " + ::testing::TempDir()));
  EXPECT_CLEAN_ERROR(run_cli("verify"));
  EXPECT_CLEAN_ERROR(run_cli("verify a.json --bogus"));

  json bare = good;
  bare.erase("solutions");
  EXPECT_CLEAN_ERROR(verify_json(bare, " --solutions-file " + unique_temp_path("verify_no_such_file") + ".jsonl"));
  Scratch lines(".jsonl");
  for (const std::string& t : {std::string("not json\n"), std::string(100000, '[') + "\n"}) {
    lines.write(t);
    EXPECT_CLEAN_ERROR(verify_json(bare, " --solutions-file " + lines.str()));
  }
}

TEST(Verify, TheLibraryThrowsOnlyMagicErrors) {
  Scratch f(".json");
  for (const std::string& t : {std::string("{\"problem\": 1}"), std::string("{\"problem\": {\"name\": []}}"),
                               std::string(100000, '{'), std::string("{\"problem\":{\"name\":\"circle\",\"n\":[]}}")}) {
    f.write(t);
    EXPECT_THROW(magic::checker::verify({f.str(), "", false}), magic::Error) << t.substr(0, 40);
  }
}

TEST(Verify, HelpNamesTheOptionsAndExitCodes) {
  const CliRun h = run_cli("verify --help");
  EXPECT_EQ(h.code, 0);
  for (const char* s : {"--solutions-file", "--partial", "counts.unique", "digest", "Exit codes"})
    EXPECT_NE(h.out.find(s), std::string::npos) << s;
}

// The checker must not lean on the solvers it checks: none of their headers
// (nor the engine's digest) is included anywhere under checker/.
TEST(Verify, TheCheckerIncludesNoSolverHeader) {
  namespace fs = std::filesystem;
  const std::vector<std::string> banned = {"square.hpp", "star.hpp", "circle.hpp", "complete.hpp", "registry.hpp",
                                           "runner.hpp", "sum_groups.hpp", "digest.hpp", "problem.hpp"};
  for (const auto& e : fs::recursive_directory_iterator(fs::path(MAGIC_SOURCE_DIR) / "checker")) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path());
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("#include", 0) != 0) continue;
      for (const std::string& h : banned)
        EXPECT_EQ(line.find("/" + h), std::string::npos) << e.path() << ": " << line;
    }
  }
}

// run_cli's captured output: a run_cli that names it cli_<pid>_<n>.out/.err
// leaves it behind, so this process removes its own at the end.
class RemoveCliOutput : public ::testing::Environment {
 public:
  void TearDown() override {
    const std::string mine = "cli_" + std::to_string(::getpid()) + "_";
    std::error_code ec;
    std::vector<std::filesystem::path> found;  // listed first, removed after
    for (const auto& e : std::filesystem::directory_iterator(::testing::TempDir(), ec))
      if (e.path().filename().string().rfind(mine, 0) == 0) found.push_back(e.path());
    for (const auto& p : found) std::filesystem::remove(p, ec);
  }
};
[[maybe_unused]] ::testing::Environment* const kRemoveCliOutput =
    ::testing::AddGlobalTestEnvironment(new RemoveCliOutput);

TEST(Verify, LeavesNoScratchFiles) {
  const std::string mine = "verify_" + std::to_string(::getpid());
  for (const auto& e : std::filesystem::directory_iterator(::testing::TempDir()))
    EXPECT_EQ(e.path().filename().string().rfind(mine, 0), std::string::npos) << e.path();
}

}  // namespace
