#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_helpers.hpp"
#include "magic/core/error.hpp"
#include "magic/spec.hpp"
#include "oracle/circle_oracle.hpp"

TEST(CliCircle, BadArgumentsGiveACleanError) {
  EXPECT_CLEAN_ERROR(run_cli("circle"));
  EXPECT_CLEAN_ERROR(run_cli("circle --n 2"));
  EXPECT_CLEAN_ERROR(run_cli("circle --n 41"));
  EXPECT_CLEAN_ERROR(run_cli("circle --n 41 --method multiplier"));
  EXPECT_CLEAN_ERROR(run_cli("circle --n -3"));
  EXPECT_CLEAN_ERROR(run_cli("circle --n x"));
  EXPECT_CLEAN_ERROR(run_cli("circle --n 9 --method bogus"));
  EXPECT_CLEAN_ERROR(run_cli("circle --n 9 --threads 0"));
  EXPECT_CLEAN_ERROR(run_cli("circle --n 9 --shard 2/2"));
}

TEST(CliCircle, HelpNamesTheOptions) {
  const auto h = run_cli("circle --help");
  EXPECT_EQ(h.code, 0);
  for (const char* opt : {"--n", "--method", "--threads", "--split-depth", "--json", "--solutions", "--quiet"})
    EXPECT_NE(h.out.find(opt), std::string::npos) << opt;
}

TEST(CliCircle, PrintsCirclesLikeTheDocument) {
  const auto r = run_cli("circle --n 6 --solutions all");
  ASSERT_EQ(r.code, 0) << r.err;
  // The five circles of seed 003, one line each, in its print form.
  for (const char* line : {"[ 1 2 5 4 6 13 ]", "[ 1 2 7 4 12 5 ]", "[ 1 3 2 7 8 10 ]", "[ 1 3 6 2 5 14 ]",
                           "[ 1 7 3 2 4 14 ]"})
    EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
  EXPECT_NE(r.out.find("unique 5"), std::string::npos);
  EXPECT_NE(r.out.find("total 60"), std::string::npos);
  EXPECT_NE(r.out.find("method=exhaustive"), std::string::npos);
}

TEST(CliCircle, JsonSaysWhichMethodCounted) {
  for (const char* method : {"exhaustive", "multiplier"}) {
    const auto r = run_cli(std::string("circle --n 10 --json - --solutions all -t 2 --method ") + method);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j.at("problem").at("name"), "circle");
    EXPECT_EQ(j.at("problem").at("n"), 10);
    EXPECT_EQ(j.at("problem").at("method"), method);
    EXPECT_EQ(j.at("counts").at("unique"), 6);
    EXPECT_EQ(j.at("counts").at("total"), 120);
    EXPECT_TRUE(j.at("exhaustive").get<bool>());
    ASSERT_EQ(j.at("solutions").size(), 6u);
    for (const auto& s : j.at("solutions")) {
      const auto c = s.get<oracle::Circle>();
      EXPECT_TRUE(oracle::is_magic_circle(c));
      EXPECT_EQ(c, oracle::print_form(c));
    }
  }
  const auto a = nlohmann::json::parse(run_cli("circle --n 12 --json - -t 1").out);
  const auto b = nlohmann::json::parse(run_cli("circle --n 12 --json - -t 2 --method multiplier").out);
  EXPECT_EQ(a.at("digest"), b.at("digest"));
}

// "solver" is the field's name in every family; "method" is the circle's
// old name for it, still read, and kept in the echo (journals hold it).
TEST(CliCircle, SolverIsTheNameAndMethodItsAlias) {
  const auto by_solver = nlohmann::json::parse(run_cli("circle --n 12 --json - -t 1 --solver multiplier").out);
  const auto by_method = nlohmann::json::parse(run_cli("circle --n 12 --json - -t 1 --method multiplier").out);
  EXPECT_EQ(by_solver.at("problem"), by_method.at("problem"));
  EXPECT_EQ(by_solver.at("problem").at("method"), "multiplier");
  EXPECT_EQ(by_solver.at("digest"), by_method.at("digest"));
  EXPECT_CLEAN_ERROR(run_cli("circle --n 9 --solver bogus"));
  const auto both = [](const char* solver, const char* method) {
    return magic::describe_spec({{"name", "circle"}, {"n", 9}, {"solver", solver}, {"method", method}}).problem;
  };
  EXPECT_EQ(both("multiplier", "multiplier").at("method"), "multiplier");
  EXPECT_THROW(both("multiplier", "exhaustive"), magic::SpecError);
}

TEST(CliCircle, NoSolutionIsNotAnError) {
  const auto r = run_cli("circle --n 7 --json -");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out).at("counts").at("unique"), 0);
}

TEST(CliCircle, NoProgressLineWhenStderrIsNotATerminal) {
  // run_cli sends stderr to a file; a run of a few seconds must stay silent.
  const auto r = run_cli("circle --n 14 -t 2");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_NE(r.out.find("unique 20"), std::string::npos);
}

// A checkpointed record run lists its circles like a plain run: from its
// journal when resumed, and by running again the tasks of a journal written
// without them.  The listed circles pass `verify`.
TEST(CliCircle, ACheckpointedRunListsItsCircles) {
  const std::string run = "circle --n 12 -t 2 --json - --solutions all";
  const auto plain = nlohmann::json::parse(run_cli(run).out);
  ASSERT_EQ(plain.at("solutions").size(), 18u);
  const ScratchPath ck("cli_circle_ck"), bare("cli_circle_bare"), result("cli_circle_result");
  const auto first = run_cli(run + " --checkpoint " + ck.str());
  ASSERT_EQ(first.code, 0) << first.err;
  const auto resumed = run_cli(run + " --checkpoint " + ck.str());
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  const auto all_resumed = nlohmann::json::parse(resumed.out);
  EXPECT_EQ(all_resumed.at("run").at("tasks_resumed"), all_resumed.at("run").at("tasks"));
  // A journal without lists: the tasks that found circles run again.
  ASSERT_EQ(run_cli("circle --n 12 -t 2 -q --checkpoint " + bare.str()).code, 0);
  const auto relisted =
      run_cli("circle --n 12 -t 2 --solutions all -q --checkpoint " + bare.str() + " --json " + result.str());
  ASSERT_EQ(relisted.code, 0) << relisted.err;
  for (const auto& got : {nlohmann::json::parse(first.out), all_resumed}) {
    EXPECT_EQ(got.at("solutions"), plain.at("solutions"));
    EXPECT_EQ(got.at("digest"), plain.at("digest"));
  }
  std::ifstream in(result.str());
  const auto again = nlohmann::json::parse(in);
  EXPECT_EQ(again.at("solutions"), plain.at("solutions"));
  EXPECT_LT(again.at("run").at("tasks_resumed").get<int>(), again.at("run").at("tasks").get<int>());
  const auto verified = run_cli("verify " + result.str());
  EXPECT_EQ(verified.code, 0) << verified.out << verified.err;
}
