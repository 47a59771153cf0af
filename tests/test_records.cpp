// `magicount reproduce --records` on records made here from small counts:
// a finished record agrees (rerun, journal sum, verify); a result or a
// journal that was changed is caught; a record still under way is reported
// as running, not as a failure.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_helpers.hpp"
#include "magic/core/error.hpp"
#include "report/records.hpp"
#include "magic/result.hpp"

namespace {

namespace fs = std::filesystem;

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p) << text;
}
// A record folder made the way data/records/ is: its COMMAND, run once.
void make_record(const fs::path& dir, const std::string& args, bool journal) {
  fs::create_directories(dir);
  std::string outputs = " --json " + (dir / "result.json").string();
  if (journal) outputs += " --checkpoint " + (dir / "journal.jsonl").string();
  write(dir / "COMMAND", "# a record made by the test\nbuild/bin/magicount " + args + " --threads 2 \\\n   " +
                             outputs + " -q\n");
  const CliRun r = run_cli(args + " --threads 2" + outputs + " -q");
  ASSERT_EQ(r.code, 0) << r.err;
}

// The task count a journal's header gives (the planner's, not an oracle).
std::string journal_tasks(const fs::path& journal) {
  std::ifstream in(journal);
  std::string header;
  std::getline(in, header);
  return std::to_string(nlohmann::json::parse(header).at("tasks").get<std::uint64_t>());
}

CliRun check(const ScratchPath& records, const ScratchPath& out) {
  return run_cli("reproduce --records --records-dir " + records.str() + " --out " + out.str() + " -q");
}

TEST(Records, AFinishedRecordAgreesByRerunJournalAndVerify) {
  const ScratchPath records("records_ok"), out("records_out");
  make_record(records / "star-9", "star --n 9", true);
  make_record(records / "circle-10", "circle --n 10 --solutions all", false);
  const CliRun r = check(records, out);
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("star-9: agrees"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("circle-10: agrees"), std::string::npos) << r.out;
  const std::string tasks = journal_tasks(records / "star-9" / "journal.jsonl");
  EXPECT_NE(r.out.find("journal: its " + tasks + " task records"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("verify: verified"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rerun: the same counts, digest and nodes"), std::string::npos) << r.out;
}

TEST(Records, AChangedResultOrJournalIsCaught) {
  const ScratchPath records("records_bad"), out("records_bad_out");
  make_record(records / "star-9", "star --n 9", true);
  // One more star in the result: the rerun and the journal both disagree.
  auto doc = nlohmann::json::parse(read_text(records / "star-9" / "result.json"));
  doc["counts"]["unique"] = doc["counts"]["unique"].get<std::uint64_t>() + 1;
  write(records / "star-9" / "result.json", doc.dump());
  CliRun r = check(records, out);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("star-9: differs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("DIFFERS: journal: unique"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("DIFFERS: rerun: unique"), std::string::npos) << r.out;

  // A journal record edited by hand fails its checksum.
  make_record(records / "star-8", "star --n 8", true);
  std::string j = read_text(records / "star-8" / "journal.jsonl");
  const auto at = j.find("\"nodes\":") + 8;
  j.insert(at, "1");
  write(records / "star-8" / "journal.jsonl", j);
  r = check(records, out);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("star-8: differs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("checksum mismatch"), std::string::npos) << r.out;
}

TEST(Records, AFasterSearchSinceStillAgrees) {
  // A record made by an older search: the same counts and digest, other
  // nodes.  The rerun reports the change and agrees; other figures still fail.
  const ScratchPath records("records_older"), out("records_older_out");
  make_record(records / "circle-10", "circle --n 10 --solutions all", false);
  auto doc = nlohmann::json::parse(read_text(records / "circle-10" / "result.json"));
  const auto nodes = doc["run"]["nodes"].get<std::uint64_t>();
  doc["run"]["nodes"] = nodes * 3;
  write(records / "circle-10" / "result.json", doc.dump());
  CliRun r = check(records, out);
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("circle-10: agrees"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(std::to_string(nodes) + " nodes against the record's " + std::to_string(nodes * 3) +
                       ": the search has changed since"),
            std::string::npos)
      << r.out;
  doc["digest"] = "0123456789abcdef0123456789abcdef";
  write(records / "circle-10" / "result.json", doc.dump());
  r = check(records, out);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("DIFFERS: rerun: digest"), std::string::npos) << r.out;
}

TEST(Records, ARunStillUnderWayIsReportedNotFailed) {
  const ScratchPath records("records_running"), out("records_running_out");
  make_record(records / "star-9", "star --n 9", true);
  auto doc = nlohmann::json::parse(read_text(records / "star-9" / "result.json"));
  fs::remove(records / "star-9" / "result.json");
  // Keep the header and the first 100 tasks, as a run stopped early leaves it.
  std::ifstream in(records / "star-9" / "journal.jsonl");
  std::string kept, line;
  for (int i = 0; i < 101 && std::getline(in, line); ++i) kept += line + "\n";
  write(records / "star-9" / "journal.jsonl", kept);
  const CliRun r = check(records, out);
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("star-9: running"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("100 of " + journal_tasks(records / "star-9" / "journal.jsonl") + " tasks journalled"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(std::string("(tasks per build: ") + magic::BuildInfo::source() + ": 100)"), std::string::npos)
      << r.out;
  // A stretch stopped by Ctrl-C also leaves a result.json, not exhaustive.
  doc["exhaustive"] = false;
  doc["interrupted"] = true;
  write(records / "star-9" / "result.json", doc.dump());
  const CliRun s = check(records, out);
  EXPECT_EQ(s.code, 0) << s.out << s.err;
  EXPECT_NE(s.out.find("star-9: running"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("stretch that was stopped"), std::string::npos) << s.out;
}

// Running is no excuse: a running record whose journal or CROSSCHECK is
// broken fails the check.
TEST(Records, ARunningRecordWithABrokenJournalOrCrossCheckFails) {
  const ScratchPath records("records_running_bad"), out("records_running_bad_out");
  make_record(records / "star-9", "star --n 9", true);
  fs::remove(records / "star-9" / "result.json");
  write(records / "star-9" / "CROSSCHECK", "record ../elsewhere\n");
  CliRun r = check(records, out);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("star-9: differs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("DIFFERS: cross-check: "), std::string::npos) << r.out;

  fs::remove(records / "star-9" / "CROSSCHECK");
  std::string j = read_text(records / "star-9" / "journal.jsonl");
  j.insert(j.find("\"nodes\":") + 8, "1");
  write(records / "star-9" / "journal.jsonl", j);
  r = check(records, out);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("star-9: differs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("checksum mismatch"), std::string::npos) << r.out;
}

// A CROSSCHECK names an independent computation of the same count: another
// record made with another split, or a command that shares no search code.
TEST(Records, ACrossCheckMustGiveTheSameCountsAndDigest) {
  const ScratchPath records("records_cross"), out("records_cross_out");
  make_record(records / "star-9", "star --n 9 --split-depth 2", true);
  make_record(records / "star-9-second", "star --n 9 --split-depth 3", true);
  write(records / "star-9-second" / "CROSSCHECK", "# the first run\nrecord star-9\n");
  make_record(records / "circle-10", "circle --n 10 --solutions all", false);
  write(records / "circle-10" / "CROSSCHECK", "build/bin/magicount circle --n 10 --method multiplier\n");
  CliRun r = check(records, out);
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("star-9-second: agrees"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cross-check: the record star-9 gives the same counts and digest (split depth 3 against 2"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("cross-check: `magicount circle --n 10 --method multiplier` gives the same counts and digest"),
            std::string::npos)
      << r.out;

  // Another count, another problem, the same split, the record's own
  // command, or a file that names no record: each fails its record.
  auto doc = nlohmann::json::parse(read_text(records / "star-9" / "result.json"));
  const auto digest = doc["digest"];
  doc["digest"] = "0123456789abcdef0123456789abcdef";
  write(records / "star-9" / "result.json", doc.dump());
  write(records / "circle-10" / "CROSSCHECK", "build/bin/magicount circle --n 11 --method multiplier\n");
  r = check(records, out);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("star-9-second: differs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("DIFFERS: cross-check: the record star-9: digest"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("circle-10: differs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("counts another problem"), std::string::npos) << r.out;

  doc["digest"] = digest;
  doc["run"]["split_depth"] = 3;
  write(records / "star-9" / "result.json", doc.dump());
  write(records / "circle-10" / "CROSSCHECK", read_text(records / "circle-10" / "COMMAND"));
  r = check(records, out);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("not a second run"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("DIFFERS: cross-check: it is the record's own command"), std::string::npos) << r.out;

  for (const char* bad : {"record ../star-9\n", "record\n", "record star-9 star-8\n", "rm -rf /\n"}) {
    write(records / "star-9-second" / "CROSSCHECK", bad);
    r = check(records, out);
    EXPECT_EQ(r.code, 1) << bad << r.out;
    EXPECT_NE(r.out.find("DIFFERS: cross-check: "), std::string::npos) << bad << r.out;
  }
  write(records / "star-9-second" / "CROSSCHECK", "record star-7\n");
  r = check(records, out);
  EXPECT_NE(r.out.find("DIFFERS: cross-check: the record star-7 has no result.json"), std::string::npos) << r.out;
}

// The figure solver's {n/2} star is the star family's problem: each can
// cross-check the other (another search altogether); another star is not.
TEST(Records, TheFigureSolversStarCrossChecksTheStarFamily) {
  const ScratchPath records("records_figure_star"), out("records_figure_star_out");
  make_record(records / "star-9", "star --n 9", true);
  make_record(records / "star-9-figure", "figure --builtin star-9-2", true);
  write(records / "star-9-figure" / "CROSSCHECK", "# the star family's search\nrecord star-9\n");
  CliRun r = check(records, out);
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("star-9-figure: agrees"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cross-check: the record star-9 gives the same counts and digest"), std::string::npos) << r.out;

  make_record(records / "star-9-3", "figure --builtin star-9-3", true);
  write(records / "star-9-3" / "CROSSCHECK", "record star-9\n");
  r = check(records, out);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("star-9-3: differs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("counts another problem"), std::string::npos) << r.out;
}

TEST(Records, CommandFilesAreReadAsTheShellWould) {
  EXPECT_EQ(magic::record_command("# note\nbuild/bin/magicount star --n 15 \\\n    --json x.json -q\n"),
            (std::vector<std::string>{"build/bin/magicount", "star", "--n", "15", "--json", "x.json", "-q"}));
  // A record folder made before the rename names the old program.
  EXPECT_EQ(magic::record_command("magic-enum circle --n 8\n"),
            (std::vector<std::string>{"magic-enum", "circle", "--n", "8"}));
  EXPECT_THROW(magic::record_command("rm -rf /\n"), magic::SpecError);
  EXPECT_THROW(magic::record_command("# only a comment\n"), magic::SpecError);
  const CliRun r = run_cli("reproduce --records --records-dir /nonexistent-records -q");
  EXPECT_CLEAN_ERROR(r);
}

// Issue 42, row 17: scripts/check-journal-shards.py compares shards with a
// journal of the same search only; a result of another search (another
// task tree) is refused with exit 2, not reported as DIFFER.
TEST(Records, ShardsOfAnotherSearchAreNotCompared) {
  const ScratchPath dir("records_shards");
  fs::create_directories(dir.path());
  const std::string journal = (dir / "j.jsonl").string(), shard = (dir / "s0.json").string();
  ASSERT_EQ(run_cli("star --n 8 -t 1 -q --split-depth 2 --checkpoint " + journal).code, 0);
  ASSERT_EQ(run_cli("star --n 8 -t 1 -q --split-depth 2 --shard 0/3 --json " + shard).code, 0);
  const std::string script = "python3 " + std::string(MAGIC_SOURCE_DIR) + "/scripts/check-journal-shards.py ";
  const auto compare = [&](const std::string& journal_path) {
    return run_cli_raw(script + journal_path + " " + shard);
  };
  CliRun r = compare(journal);
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("agree: shard 0/3"), std::string::npos) << r.out;

  auto doc = nlohmann::json::parse(read_text(shard));
  doc["run"]["search"] = "star/1";
  write(shard, doc.dump());
  r = compare(journal);
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("search star/2, the result by search star/1"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("DIFFER"), std::string::npos) << r.out;

  // A journal and a result from before search revisions, of two trees.
  doc["run"].erase("search");
  doc["run"]["tasks"] = doc["run"]["tasks"].get<std::uint64_t>() + 1;
  write(shard, doc.dump());
  std::ifstream in(journal);
  std::string header, rest;
  std::getline(in, header);
  rest.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  in.close();
  auto h = nlohmann::json::parse(header);
  h.erase("search");
  write(journal, h.dump() + "\n" + rest);
  r = compare(journal);
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("other task trees"), std::string::npos) << r.err;
}

// Issue 42, row 17: every record folder names the commit to build to resume
// its journal or rerun its command with the search that wrote it.
TEST(Records, EachFolderNamesTheCommitToBuild) {
  const fs::path records = fs::path(MAGIC_SOURCE_DIR) / "data" / "records";
  int folders = 0;
  for (const auto& e : fs::directory_iterator(records)) {
    if (!e.is_directory()) continue;
    ++folders;
    const std::string command = read_text(e.path() / "COMMAND");
    const auto at = command.find("# build commit ");
    ASSERT_NE(at, std::string::npos) << e.path() << ": COMMAND names no commit\n" << command;
    const std::string sha = command.substr(at + 15, command.find_first_not_of("0123456789abcdef", at + 15) - at - 15);
    EXPECT_GE(sha.size(), 7u) << e.path();
    // In a clone with its history, the commit is there to check out.
    if (fs::exists(fs::path(MAGIC_SOURCE_DIR) / ".git") && run_shell_status("git --version") == 0) {
      const std::string probe = "git -C " + std::string(MAGIC_SOURCE_DIR) + " cat-file -e " + sha +
                                "^{commit} 2>/dev/null";
      const int code = run_shell_status(probe);
      if (code != 0 && run_shell_status("git -C " + std::string(MAGIC_SOURCE_DIR) +
                                        " rev-parse --is-shallow-repository 2>/dev/null | grep -q true") != 0)
        ADD_FAILURE() << e.path() << ": commit " << sha << " is not in this repository";
    }
  }
  EXPECT_GE(folders, 7);
}

// The committed records: each finished one adds up to its journal, (for
// circles) verifies, and agrees with its cross-check (the circles' multiplier
// method takes 0.1 s); none is rerun here (--records runs them in minutes).
TEST(Records, TheCommittedRecordsAddUp) {
  const ScratchPath out("records_committed_out");
  fs::create_directories(out.path());
  magic::RecordsOptions ro;
  ro.dir = std::string(MAGIC_SOURCE_DIR) + "/data/records";
  ro.self = MAGIC_BIN;
  ro.out_dir = out.str();
  ro.rerun_seconds = 0;  // never rerun in the unit suite
  const auto checks = magic::check_records(ro);
  EXPECT_GE(checks.size(), 4u);
  for (const auto& c : checks) {
    std::string lines;
    for (const auto& l : c.checks) lines += l + "\n";
    EXPECT_NE(c.status, "differs") << c.name << "\n" << lines;
    if (fs::exists(fs::path(ro.dir) / c.name / "CROSSCHECK") && c.status == "agrees") {
      EXPECT_NE(lines.find("gives the same counts and digest"), std::string::npos) << c.name << "\n" << lines;
    }
  }
}

}  // namespace
