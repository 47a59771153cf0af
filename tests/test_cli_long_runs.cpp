// Long runs through the real binary: a run killed at any moment (SIGKILL),
// or stopped by SIGINT, SIGTERM or SIGHUP, resumes from its journal to
// exactly the result of a clean run.  star n = 12 on one thread runs about a
// second here, and its count is published (OEIS A200720: 396,930).
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_helpers.hpp"

namespace {

const std::string kRun = "star --n 12 -t 1";
constexpr std::uint64_t kStar12 = 396930;  // OEIS A200720

// Starts magicount with `args` (no shell), output to the given files.
magic::Process spawn(const std::vector<std::string>& args, const std::string& out, const std::string& err) {
  std::vector<std::string> argv{MAGIC_BIN};
  argv.insert(argv.end(), args.begin(), args.end());
  return magic::start_process(argv, {.output_file = out, .error_file = err});
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

nlohmann::json run_json(const std::string& args) {
  const CliRun r = run_cli(args + " --json -");
  EXPECT_EQ(r.code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

void expect_same_result(const nlohmann::json& got, const nlohmann::json& want, const std::string& what) {
  EXPECT_EQ(got.at("counts"), want.at("counts")) << what;
  EXPECT_EQ(got.at("digest"), want.at("digest")) << what;
  EXPECT_TRUE(got.at("exhaustive").get<bool>()) << what;
  const auto& run = got.at("run");
  EXPECT_EQ(run.at("tasks_run").get<std::uint64_t>() + run.at("tasks_resumed").get<std::uint64_t>(),
            run.at("tasks").get<std::uint64_t>())
      << what;
}

const nlohmann::json& clean_run() {
  static const nlohmann::json clean = run_json(kRun);
  return clean;
}

TEST(LongRuns, CleanRunMatchesThePublishedCount) {
  EXPECT_EQ(clean_run().at("counts").at("unique").get<std::uint64_t>(), kStar12);
}

// Before the first task, in the middle, and near the end (if the machine is
// fast the run may already be over; it must then resume to nothing to do).
TEST(LongRuns, SigkillAtAnyMomentResumesToTheCleanResult) {
  for (int ms : {20, 300, 700}) {
    const ScratchPath ck("long_kill_ck"), out("long_kill_out"), err("long_kill_err");
    auto args = split(kRun + " -q --checkpoint-interval 0 --checkpoint " + ck.str());
    magic::Process c = spawn(args, out.str(), err.str());
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    ::kill(c.pid(), SIGKILL);
    c.wait();
    const auto resumed = run_json(kRun + " --checkpoint " + ck.str());
    expect_same_result(resumed, clean_run(), "killed after " + std::to_string(ms) + " ms");
  }
}

TEST(LongRuns, StopSignalsExitWithTheirCodeAndResume) {
  for (const auto& [sig, code] : std::vector<std::pair<int, int>>{{SIGINT, 130}, {SIGTERM, 143}, {SIGHUP, 129}}) {
    const ScratchPath ck("long_sig_ck"), out("long_sig_out"), err("long_sig_err");
    auto args = split(kRun + " --checkpoint-interval 0 --checkpoint " + ck.str() + " --json -");
    magic::Process c = spawn(args, out.str(), err.str());
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::kill(c.pid(), sig);
    const int rc = c.wait();
    if (rc == 0) continue;  // finished before the signal: nothing to check
    EXPECT_EQ(rc, code) << "signal " << sig;
    const std::string e = read_text(err.str());
    EXPECT_NE(e.find("rerun the same command to resume"), std::string::npos) << e;
    // stdout holds a whole JSON document that does not pass for a full result.
    const auto partial = nlohmann::json::parse(read_text(out.str()));
    EXPECT_FALSE(partial.at("exhaustive").get<bool>());
    EXPECT_TRUE(partial.at("interrupted").get<bool>());
    expect_same_result(run_json(kRun + " --checkpoint " + ck.str()), clean_run(), "signal " + std::to_string(sig));
  }
}

TEST(LongRuns, ASecondSigintExitsAtOnceAndTheJournalStaysValid) {
  const ScratchPath ck("long_twice_ck"), out("long_twice_out"), err("long_twice_err");
  // A long run (star n = 14 takes minutes on one thread): only the signals end it.
  magic::Process c = spawn(split("star --n 14 -t 1 -q --checkpoint-interval 0 --checkpoint " + ck.str()), out.str(),
                  err.str());
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  ::kill(c.pid(), SIGINT);
  ::kill(c.pid(), SIGINT);
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(c.wait(), 130);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
  // The journal is read back without complaint (it is then cut short by a SIGINT again).
  magic::Process again = spawn(split("star --n 14 -t 1 -q --checkpoint " + ck.str()), out.str(), err.str());
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  ::kill(again.pid(), SIGINT);
  EXPECT_EQ(again.wait(), 130) << read_text(err.str());
  EXPECT_EQ(read_text(err.str()).find("corrupt"), std::string::npos);
}

}  // namespace

// Adaptive splitting is on by default, echoed in the JSON, and changes no
// count: one task (split depth 1) on two threads still splits.
TEST(LongRuns, AdaptiveSplittingIsEchoedAndChangesNothing) {
  const std::string star = "star --n 10 -t 2 --split-depth 1";
  const auto whole = run_json(star + " --no-adaptive");
  EXPECT_EQ(whole["run"]["adaptive"], false);
  EXPECT_EQ(whole["run"]["pieces"], 0);
  const auto split = run_json(star + " --split-nodes 1");
  EXPECT_EQ(split["run"]["adaptive"], true);
  EXPECT_GT(split["run"]["pieces"].get<std::uint64_t>(), 0u);
  EXPECT_EQ(split["digest"], whole["digest"]);
  EXPECT_EQ(split["counts"], whole["counts"]);
  EXPECT_EQ(split["run"]["nodes"], whole["run"]["nodes"]);
  // One thread has no one to hand work to.
  EXPECT_EQ(run_json("star --n 10 -t 1 --split-nodes 1")["run"]["adaptive"], false);
  for (const char* bad : {"0", "-1", "1e6", "x", "18446744073709551616"}) {
    const CliRun r = run_cli("star --n 8 --split-nodes " + std::string(bad));
    EXPECT_EQ(r.code, 2) << bad;
    EXPECT_NE(r.err.find("--split-nodes"), std::string::npos) << r.err;
  }
}
