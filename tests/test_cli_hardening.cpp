// Bad input that must not be accepted: numbers that would wrap, output
// paths that collide or are not plain files, forged checkpoints, broken
// stdout.  Each gets one error line and exit 2, and destroys nothing.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>
#include <csignal>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "cli_helpers.hpp"
#include "magic/canonical_set.hpp"
#include "magic/journal.hpp"

namespace {

namespace fs = std::filesystem;

class Hardening : public ::testing::Test {
 protected:
  ScratchPath dir{"hardening"};
  void SetUp() override { fs::create_directories(dir.path()); }
  std::string at(const std::string& name) const { return (dir / name).string(); }
};

TEST_F(Hardening, NumbersAreTakenAsWrittenWithoutWrapping) {
  for (const char* shard : {"0/4294967297", "0/-1", "0/1e30", "0/18446744073709551616", "+0/2", "0/2x", "1/1", "0/0"})
    EXPECT_CLEAN_ERROR(run_cli(std::string("square --order 3 --shard ") + shard));
  for (const char* limit : {"-1", "1000000000000000000000000000000", "1e3", "+5", "0x10"})
    EXPECT_CLEAN_ERROR(run_cli(std::string("square --order 3 --limit ") + limit));
  EXPECT_CLEAN_ERROR(run_cli("square --order 3 --threads 4294967297"));
  EXPECT_CLEAN_ERROR(run_cli("square --order 3 --dedup-memory -1"));
  const CliRun big = run_cli("star --numbers 1..1000000000");
  EXPECT_CLEAN_ERROR(big);
  EXPECT_NE(big.err.find("at most"), std::string::npos) << big.err;
  EXPECT_EQ(run_cli("square --order 3 --shard 4294967294/4294967295 -q").code, 0);  // the largest shard works
}

// Issue 42, rows 6, 10 and 11: whole numbers are decimal in every option
// (CLI11 alone reads a leading zero as octal and takes hex), and the
// journal's sync interval must be a finite number of seconds.
TEST_F(Hardening, WholeNumbersAreDecimalAndSecondsFinite) {
  const auto problem = [](const std::string& args) {
    const CliRun r = run_cli(args + " -q --json -");
    EXPECT_EQ(r.code, 0) << args << ": " << r.err;
    return r.code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
  };
  EXPECT_EQ(problem("star --n 010 -t 1").at("problem").at("n"), 10);
  EXPECT_EQ(problem("star --n 7 --sum 030 -t 1").at("problem").at("sum"), 30);
  EXPECT_EQ(problem("circle --n 010 -t 1").at("problem").at("n"), 10);
  EXPECT_EQ(problem("square --order 03 -t 010").at("run").at("threads"), 10);
  EXPECT_EQ(problem("square --order 4 -t 1 --limit 010").at("counts").at("unique"), 10);
  for (const char* args : {"star --n 0x10", "star --n 5 --sum 0x1e", "circle --n 0x0a", "square --order 0x3",
                           "square --order 5 --center -1", "square --order 5 --center 0x10", "star --n ''",
                           "star --n 7 --equal-lines 0x6", "star --n 5 --sum ''"})
    EXPECT_CLEAN_ERROR(run_cli(std::string(args) + " -t 1"));
  for (const char* s : {"nan", "inf", "-inf", "1e400", "-1", "3601", "''"})
    EXPECT_CLEAN_ERROR(run_cli("star --n 5 -q --checkpoint " + at("ck") + " --checkpoint-interval " + s));
  EXPECT_FALSE(std::filesystem::exists(at("ck")));
  EXPECT_EQ(run_cli("star --n 5 -q --checkpoint " + at("ck") + " --checkpoint-interval 0.5").code, 0);
}

TEST_F(Hardening, OutputPathsAreCheckedBeforeAnyWork) {
  const std::string x = at("x.json");
  EXPECT_CLEAN_ERROR(run_cli("square --order 3 --json " + x + " --checkpoint " + x));
  EXPECT_CLEAN_ERROR(run_cli("square --order 3 --json " + x + " --solutions-file " + at("../" + dir.path().filename().string() + "/x.json")));
  EXPECT_CLEAN_ERROR(run_cli("square --order 3 --json " + x + " --svg " + x));
  EXPECT_CLEAN_ERROR(run_cli("square --order 3 --json - --solutions-file -"));
  EXPECT_CLEAN_ERROR(run_cli("square --order 3 --json - --svg -"));
  EXPECT_CLEAN_ERROR(run_cli("square --order 3 --checkpoint -"));
  for (const char* opt : {"--json", "--svg", "--checkpoint", "--solutions-file"})
    EXPECT_CLEAN_ERROR(run_cli(std::string("square --order 3 ") + opt + " ''"));
  EXPECT_CLEAN_ERROR(run_cli("square --order 3 --checkpoint " + dir.str()));
  EXPECT_CLEAN_ERROR(run_cli("square --order 3 --json " + dir.str()));
  EXPECT_CLEAN_ERROR(run_cli("square --order 3 --limit 2 --checkpoint " + at("ck")));
  EXPECT_CLEAN_ERROR(run_cli("circle --n 8 --svg " + at("ck") + " --checkpoint " + at("ck")));
  EXPECT_FALSE(fs::exists(x));
  EXPECT_FALSE(fs::exists(at("ck")));
  // --svg - alone on stdout: the summary steps aside, so stdout is one SVG.
  const CliRun svg = run_cli("square --order 3 --svg -");
  EXPECT_EQ(svg.code, 0) << svg.err;
  EXPECT_EQ(svg.out.rfind("<?xml", 0), 0u) << svg.out.substr(0, 80);
}

TEST_F(Hardening, StdoutJsonIsWholeOrAbsentAfterAnError) {
  const CliRun r = run_cli("square --order 4 --kind semi --dedup hash-set --dedup-memory 1 --json -");
  EXPECT_CLEAN_ERROR(r);
  EXPECT_EQ(r.out, "");
}

TEST_F(Hardening, ForgedCheckpointsAreRefused) {
  const std::string ck = at("ck.jsonl");
  ASSERT_EQ(run_cli("circle --n 10 -q --checkpoint-interval 0 --checkpoint " + ck).code, 0);
  std::istringstream lines(read_text(ck));
  std::string header, first;
  std::getline(lines, header);
  std::getline(lines, first);
  auto forged = [&](const std::string& key, const nlohmann::json& v, bool fix_sum) {
    nlohmann::json j = nlohmann::json::parse(first);
    j[key] = v;
    if (fix_sum) {
      j.erase("sum");
      j["sum"] = magic::Journal::checksum(header, j);
    }
    std::ofstream(ck, std::ios::trunc) << header << "\n" << j.dump() << "\n";
    return run_cli("circle --n 10 -q --checkpoint " + ck);
  };
  EXPECT_CLEAN_ERROR(forged("unique", 5, false));  // a forged count: the checksum no longer holds
  EXPECT_CLEAN_ERROR(forged("unique", -5, true));
  EXPECT_CLEAN_ERROR(forged("task", 999999, true));
  EXPECT_CLEAN_ERROR(forged("task", -1, true));
  EXPECT_CLEAN_ERROR(forged("digest", "00", true));
  std::ofstream(ck, std::ios::trunc) << std::string(100000, '[') << std::string(100000, ']') << "\n";
  EXPECT_CLEAN_ERROR(run_cli("circle --n 10 -q --checkpoint " + ck));
}

// Issue 42, row 2: another run's records under this run's header (the
// numbers 2..17, whose sums differ) are refused, not summed into a count.
TEST_F(Hardening, RecordsOfAnotherRunUnderThisHeaderAreRefused) {
  const std::string a = at("a.jsonl"), b = at("b.jsonl"), j = at("j.jsonl");
  ASSERT_EQ(run_cli("star --n 8 -t 1 -q --split-depth 2 --checkpoint " + a).code, 0);
  ASSERT_EQ(run_cli("star --n 8 --numbers 2..17 -t 1 -q --split-depth 2 --checkpoint " + b).code, 0);
  const std::string ours = read_text(a), theirs = read_text(b);
  const std::string spliced = ours.substr(0, ours.find('\n') + 1) + theirs.substr(theirs.find('\n') + 1);
  std::ofstream(j, std::ios::binary) << spliced;
  const CliRun r = run_cli("star --n 8 -t 1 --split-depth 2 --checkpoint " + j);
  EXPECT_CLEAN_ERROR(r);
  EXPECT_NE(r.err.find("checksum mismatch"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(read_text(j), spliced);
}

// Issue 42, row 8: two signals while the result is being written to a
// slow stdout (a pipe nobody reads yet) end the run after the document, not
// in the middle of it: stdout holds all of it.
TEST_F(Hardening, ASecondSignalDuringTheFinalWriteLeavesAWholeDocument) {
  const std::string err = at("err");
  // Some 600 KB of JSON on a pipe: far more than a pipe holds.
  magic::Process p = magic::start_process(
      {MAGIC_BIN, "star", "--n", "10", "-t", "1", "-q", "--json", "-", "--solutions", "all"}, {.error_file = err});
  const pid_t pid = p.pid();
  // The first bytes mean the search is over and the write has begun; the
  // pipe then fills, and the write waits for a reader.
  pollfd wait_for{p.out_fd(), POLLIN, 0};
  ASSERT_EQ(::poll(&wait_for, 1, 120000), 1) << "no output in 2 minutes";
  ::usleep(200000);
  ::kill(pid, SIGINT);
  ::usleep(200000);
  ::kill(pid, SIGINT);
  ::usleep(200000);
  const std::string out = p.read_out();
  EXPECT_EQ(p.wait(), 128 + SIGINT) << read_text(err);
  ASSERT_GT(out.size(), std::size_t{1} << 17) << "the document should not fit in a pipe";
  const auto doc = nlohmann::json::parse(out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << out.size() << " bytes that are not one JSON document; stderr: " << read_text(err);
  EXPECT_EQ(doc.at("solutions").size(), doc.at("counts").at("unique").get<std::size_t>());
}

TEST_F(Hardening, StaleTempFilesOfDeadRunsAreRemoved) {
  magic::Process gone = magic::start_process({"/bin/true"});
  const pid_t dead = gone.pid();
  gone.wait();
  const std::string out = at("out.json");
  const std::string stale = at(".out.json.magic-tmp-" + std::to_string(dead) + "-abcdef");
  const std::string live = at(".out.json.magic-tmp-" + std::to_string(getpid()) + "-abcdef");
  std::ofstream(stale) << "";
  std::ofstream(live) << "";
  ASSERT_EQ(run_cli("square --order 3 -q --json " + out).code, 0);
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(live));  // its process (this test) is alive
  EXPECT_TRUE(fs::exists(out));
}

TEST_F(Hardening, LinksAndFifosAreWrittenThroughNotReplaced) {
  const std::string target = at("real.json"), link = at("link.json");
  fs::create_symlink("real.json", link);
  ASSERT_EQ(run_cli("square --order 3 -q --json " + link).code, 0);
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_NE(read_text(target).find("\"digest\""), std::string::npos);

  const std::string fifo = at("fifo"), got = at("got.json");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const std::string cmd = "cat " + fifo + " > " + got + " & " + MAGIC_BIN + " square --order 3 -q --json " + fifo +
                          " ; wait";
  ASSERT_EQ(run_shell_status(cmd), 0);
  struct stat st {};
  ASSERT_EQ(lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_NE(read_text(got).find("\"digest\""), std::string::npos);
}

// A journal must be a file a later run can resume from: a FIFO (or a
// device) is refused before it is read, and left as it was.
TEST_F(Hardening, ACheckpointThatIsNotAFileIsRefused) {
  const std::string fifo = at("ck.fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const CliRun r = run_cli("circle --n 8 -q --checkpoint " + fifo);
  EXPECT_CLEAN_ERROR(r);
  EXPECT_NE(r.err.find("not a regular file"), std::string::npos) << r.err;
  struct stat st {};
  ASSERT_EQ(lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST_F(Hardening, AFullStdoutIsAnError) {
  const std::string err = at("err");
  for (const char* args : {"square --order 3", "square --order 3 --json -", "square --order 3 --svg -"}) {
    const std::string cmd = std::string(MAGIC_BIN) + " " + args + " >/dev/full 2>" + err;
    EXPECT_EQ(run_shell_status(cmd), 2) << args;
    const std::string e = read_text(err);
    EXPECT_EQ(std::count(e.begin(), e.end(), '\n'), 1) << e;
  }
}

// Issue 42, row 12: a closed stdout is refused before the search starts
// (no journal is opened), unless nothing is written there.
TEST_F(Hardening, AClosedStdoutIsRefusedBeforeTheSearch) {
  const std::string err = at("err"), journal = at("ck.jsonl"), json = at("r.json");
  for (const std::string redirect : {">&-", "1</dev/null"}) {
    for (const char* args : {"star --n 13 -t 1", "star --n 13 -t 1 -q --json -"}) {
      const std::string cmd = std::string(MAGIC_BIN) + " " + args + " --checkpoint " + journal + " " + redirect +
                              " 2>" + err;
      EXPECT_EQ(run_shell_status(cmd), 2) << cmd;
      const std::string e = read_text(err);
      EXPECT_NE(e.find("standard output is closed"), std::string::npos) << e;
      EXPECT_EQ(std::count(e.begin(), e.end(), '\n'), 1) << e;
      EXPECT_FALSE(fs::exists(journal)) << cmd;
    }
  }
  const std::string quiet = std::string(MAGIC_BIN) + " square --order 3 -q --json " + json + " >&- 2>" + err;
  EXPECT_EQ(run_shell_status(quiet), 0) << read_text(err);
  EXPECT_TRUE(fs::exists(json));
}

// Issue 42, row 14: a file name of up to 255 bytes is written, though its
// temporary name would be longer; no temporary file is left beside it.
TEST_F(Hardening, LongFileNamesAreWritten) {
  for (const std::size_t n : {235u, 255u}) {
    const std::string json = at(std::string(n, 'M')), list = at(std::string(n - 1, 'L'));
    const CliRun r = run_cli("circle --n 8 -q --json " + json + " --solutions-file " + list);
    EXPECT_EQ(r.code, 0) << n << ": " << r.err;
    EXPECT_EQ(nlohmann::json::parse(read_text(json)).at("counts").at("unique"), 6) << n;
    EXPECT_FALSE(read_text(list).empty()) << n;
  }
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir.path())) files += e.path().filename().string()[0] != '.';
  EXPECT_EQ(files, 4u);
  for (const auto& e : fs::directory_iterator(dir.path()))
    EXPECT_NE(e.path().filename().string()[0], '.') << e.path();
}

// Issue 42, row 16: the message names what was written, not a value it
// became on the way.
TEST_F(Hardening, MessagesNameWhatWasWritten) {
  const CliRun range = run_cli("star --n 5 --numbers 1-10");
  EXPECT_CLEAN_ERROR(range);
  EXPECT_NE(range.err.find("A..B"), std::string::npos) << range.err;
  const std::string grid = at("big.json");
  std::ofstream(grid) << "[[0,0,0],[0,0,0],[0,0,9223372036854775808]]";
  const CliRun big = run_cli("complete " + grid);
  EXPECT_CLEAN_ERROR(big);
  EXPECT_NE(big.err.find("9223372036854775808 is far too large"), std::string::npos) << big.err;
  const CliRun help = run_cli("--help");
  EXPECT_NE(help.out.find("141"), std::string::npos) << "the exit codes in --help";
}

// Issue 42, row 5: an output that names an input (the same path, another
// spelling of it, or a hard link) is refused, and the input kept.
TEST_F(Hardening, AnOutputThatIsAnInputIsRefused) {
  const std::string k0 = at("k0.json"), k1 = at("k1.json");
  ASSERT_EQ(run_cli("square --order 3 -q --shard 0/2 --json " + k0).code, 0);
  ASSERT_EQ(run_cli("square --order 3 -q --shard 1/2 --json " + k1).code, 0);
  const std::string shard0 = read_text(k0);
  for (const std::string& out : {k0, dir.str() + "/./k0.json"}) {
    const CliRun r = run_cli("merge " + k0 + " " + k1 + " --json " + out);
    EXPECT_CLEAN_ERROR(r);
    EXPECT_NE(r.err.find("is the input"), std::string::npos) << r.err;
    EXPECT_EQ(read_text(k0), shard0);
  }
  const std::string grid = at("g.json"), link = at("h.json");
  const std::string givens = "[[2,7,6],[9,5,1],[4,3,0]]";
  std::ofstream(grid) << givens;
  ASSERT_EQ(::link(grid.c_str(), link.c_str()), 0);
  for (const std::string& args : {"--json " + grid, "--solutions-file " + grid, "--svg " + grid, "--json " + link}) {
    const CliRun r = run_cli("complete " + grid + " -q " + args);
    EXPECT_CLEAN_ERROR(r);
    EXPECT_EQ(read_text(grid), givens) << args;
  }
}

// Issue 42, row 1: a link is followed to the file it names even when that
// file does not exist yet, so a dangling link to the journal or to another
// output is the same file, refused before any work.
TEST_F(Hardening, ALinkToAFileNotYetWrittenIsThatFile) {
  fs::create_directories(at("sub"));
  fs::create_symlink("../j.jsonl", at("sub/res.json"));
  fs::create_symlink("../r.json", at("sub/l"));
  for (const std::string& args : {"--checkpoint " + at("j.jsonl") + " --json " + at("sub/res.json"),
                                  "--json " + at("r.json") + " --solutions-file " + at("sub/l")}) {
    const CliRun r = run_cli("circle --n 8 -t 1 -q " + args);
    EXPECT_CLEAN_ERROR(r);
    EXPECT_NE(r.err.find("name the same file"), std::string::npos) << r.err;
  }
  EXPECT_FALSE(fs::exists(at("j.jsonl")));
  EXPECT_FALSE(fs::exists(at("r.json")));
  EXPECT_TRUE(fs::is_symlink(at("sub/res.json")));  // the links are left as they were
  EXPECT_TRUE(fs::is_symlink(at("sub/l")));
}

// Issue 42, row 3: stdout under another name (/dev/stdout, /dev/fd/1, the
// file it is redirected to) is stdout: two outputs there, or one beside the
// summary, or the journal there, are refused.
TEST_F(Hardening, StdoutUnderAnotherNameIsStdout) {
  const std::string out = at("f.out"), err = at("err");
  const auto status_of = [&](const std::string& args) {
    const std::string cmd = std::string(MAGIC_BIN) + " " + args + " >" + out + " 2>" + err;
    return run_shell_status(cmd);
  };
  for (const std::string& args : std::vector<std::string>{"circle --n 8 -t 1 -q --json - --solutions-file /dev/stdout",
                                 "circle --n 8 -t 1 -q --json /dev/fd/1 --svg -",
                                 "circle --n 8 -t 1 --json /dev/stdout",
                                 "circle --n 8 -t 1 --checkpoint /dev/stdout",
                                 "circle --n 8 -t 1 -q --json - --solutions-file " + out}) {
    EXPECT_EQ(status_of(args), 2) << args;
    const std::string e = read_text(err);
    EXPECT_EQ(std::count(e.begin(), e.end(), '\n'), 1) << args << ": " << e;
  }
  // Alone and quiet, /dev/stdout is a plain output.
  EXPECT_EQ(status_of("circle --n 8 -t 1 -q --json /dev/stdout"), 0) << read_text(err);
  EXPECT_EQ(nlohmann::json::parse(read_text(out)).at("counts").at("unique"), 6);
}

// Issue 42, row 9: a file the user could not write in place (read-only, or
// another user's) is refused, not replaced.  Root writes anything, so as
// root the command runs as `nobody` (runuser), or the test skips.
TEST_F(Hardening, AFileTheUserCannotWriteIsNotReplaced) {
  std::string as_user;
  if (::geteuid() == 0) {
    fs::permissions(dir.path(), fs::perms::all);  // nobody may create files here
    const std::string reach = "runuser -u nobody -- test -w " + dir.str() + " >/dev/null 2>&1 && runuser -u nobody -- " +
                              MAGIC_BIN + " --version >/dev/null 2>&1";
    if (run_shell_status(reach) != 0)
      GTEST_SKIP() << "nobody cannot run " << MAGIC_BIN << " in " << dir.str() << " (a parent directory is private?)";
    as_user = "runuser -u nobody -- ";
  }
  const std::string ro = at("ro.json"), err = at("err");
  std::ofstream(ro) << "keep";
  fs::permissions(ro, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  const std::string cmd =
      as_user + std::string(MAGIC_BIN) + " circle --n 8 -t 1 -q --json " + ro + " >/dev/null 2>" + err;
  EXPECT_EQ(run_shell_status(cmd), 2) << read_text(err);
  EXPECT_NE(read_text(err).find("read-only"), std::string::npos) << read_text(err);
  EXPECT_EQ(read_text(ro), "keep");
  fs::permissions(ro, fs::perms::owner_write, fs::perm_options::add);
}

// Issue 42: the exit-code table (docs/json.md) lists the codes --help gives
// (main's one table, cli::kExitCodes), no more and no fewer, and the
// codes the common cases give are the ones both name.
TEST(ExitCodes, TheReadmeTableIsMainsTable) {
  const auto numbers = [](const std::string& text) {
    std::set<int> out;
    for (std::size_t i = 0; i < text.size();) {
      if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
        ++i;
        continue;
      }
      std::size_t end = i;
      while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
      out.insert(std::stoi(text.substr(i, end - i)));
      i = end;
    }
    return out;
  };
  // docs/json.md: the first cell of each row of the table under "## Exit codes".
  std::istringstream readme(read_text(fs::path(MAGIC_SOURCE_DIR) / "docs" / "json.md"));
  std::set<int> in_readme;
  bool in_section = false;
  for (std::string line; std::getline(readme, line);) {
    if (line.rfind("## ", 0) == 0) in_section = line == "## Exit codes";
    if (!in_section || line.rfind("| ", 0) != 0 || line.rfind("| code", 0) == 0) continue;
    const auto cell = numbers(line.substr(2, line.find(" |", 2) - 2));
    in_readme.insert(cell.begin(), cell.end());
  }
  // --help: "Exit codes: 0 success; 1 ...; 129, 130, 143 stopped ...".
  const CliRun help = run_cli("--help");
  ASSERT_EQ(help.code, 0);
  const auto at = help.out.find("Exit codes: ");
  ASSERT_NE(at, std::string::npos) << help.out;
  std::set<int> in_help;
  std::istringstream parts(help.out.substr(at + 12));
  for (std::string part; std::getline(parts, part, ';');) {
    const auto first_word = part.find_first_not_of(" 0123456789,");
    const auto cell = numbers(part.substr(0, first_word));
    in_help.insert(cell.begin(), cell.end());
  }
  EXPECT_EQ(in_readme, (std::set<int>{0, 1, 2, 3, 70, 129, 130, 141, 143}));
  EXPECT_EQ(in_help, in_readme);
  EXPECT_EQ(run_cli("square --order 3 -q").code, 0);
  EXPECT_EQ(run_cli("complete -q -", "[[1,2,0],[0,0,0],[0,0,0]]").code, 1);
  EXPECT_EQ(run_cli("square --order 0").code, 2);
  EXPECT_EQ(run_cli("--no-such-flag").code, 2);
}

// Issue 43 item 5: docs/cli.md's table of common options names the options
// a search subcommand's --help gives, no more and no fewer, with the
// defaults --help prints (which come from magic::RunOptions).
TEST(Options, TheDocsTableIsTheHelp) {
  const CliRun help = run_cli("circle --help");
  ASSERT_EQ(help.code, 0);
  std::map<std::string, std::string> in_help;  // flag -> default ("" if none is printed)
  std::istringstream lines(help.out);
  for (std::string line; std::getline(lines, line);) {
    const auto at = line.find("--");
    if (line.rfind("  -", 0) != 0 || at == std::string::npos || at > 6) continue;
    const auto end = line.find_first_of(" ,", at);
    const std::string flag = line.substr(at, end - at);
    const std::string head = line.substr(0, line.find("  ", at));  // the flag's column, not its help
    const auto eq = head.rfind('=');
    in_help[flag] = eq == std::string::npos ? "" : head.substr(eq + 1);
  }
  for (const char* own : {"--help", "--n", "--solver"}) EXPECT_EQ(in_help.erase(own), 1u) << own;

  std::istringstream doc(read_text(fs::path(MAGIC_SOURCE_DIR) / "docs" / "cli.md"));
  std::map<std::string, std::string> in_docs;  // flag -> its row
  bool in_table = false;
  for (std::string line; std::getline(doc, line);) {
    if (line == "| option | meaning |") in_table = true;
    else if (in_table && line.rfind("|", 0) != 0) break;
    else if (in_table && line.rfind("| `--", 0) == 0) {
      const auto end = line.find_first_of(" `", 3);
      in_docs[line.substr(3, end - 3)] = line;
    }
  }
  std::set<std::string> help_flags, doc_flags;
  for (const auto& [flag, d] : in_help) help_flags.insert(flag);
  for (const auto& [flag, row] : in_docs) doc_flags.insert(flag);
  EXPECT_EQ(doc_flags, help_flags);
  for (const auto& [flag, d] : in_help) {
    if (d.empty() || !in_docs.count(flag)) continue;
    EXPECT_NE(in_docs[flag].find("default " + d), std::string::npos) << flag << " prints default " << d << "; docs: " << in_docs[flag];
  }
  EXPECT_EQ(in_help.at("--split-nodes"), "1048576");
}

TEST_F(Hardening, TrailingDataAfterAGridIsRefused) {
  const std::string grid = at("grid.json");
  std::ofstream(grid, std::ios::binary) << std::string("[[2,7,6],[9,5,1],[4,3,0]]\0junk", 30);
  EXPECT_CLEAN_ERROR(run_cli("complete " + grid));
  std::ofstream(grid, std::ios::trunc) << std::string(100000, '[') << std::string(100000, ']');
  EXPECT_CLEAN_ERROR(run_cli("complete " + grid));
}

// Issue 65, round three.  Each test below reproduces one row of the probe.

// A figure of n disjoint lines a_i b_i, on the given numbers.
nlohmann::json disjoint_lines(int n, const std::string& numbers) {
  nlohmann::json points = nlohmann::json::array(), lines = nlohmann::json::array();
  for (int i = 0; i < n; ++i) {
    points.push_back("a" + std::to_string(i));
    points.push_back("b" + std::to_string(i));
    lines.push_back({"a" + std::to_string(i), "b" + std::to_string(i)});
  }
  return {{"points", points}, {"lines", lines}, {"numbers", numbers}};
}

// Row 1: 16 disjoint lines of 2 points on 1..34 have 28,795,115,120,099,328,000
// labellings, past 2^64: a count that wraps inside a task was printed with
// exit 0.  Every addition of counts is checked, in a task and across tasks.
TEST_F(Hardening, ACountPast2To64IsAnErrorNotAWrappedNumber) {
  std::ofstream(at("p16.json")) << disjoint_lines(16, "1..34").dump();
  for (const char* split : {"", " --split-depth 8", " --split-depth 0"}) {
    const CliRun r = run_cli("figure " + at("p16.json") + split + " -t 2 --json " + at("p16-out.json"));
    EXPECT_CLEAN_ERROR(r);
    EXPECT_NE(r.err.find("passes 2^64 - 1"), std::string::npos) << split << ": " << r.err;
    EXPECT_FALSE(fs::exists(at("p16-out.json"))) << split;
  }
}

// Row 2: verify took the group from the file, so the 960 labellings of a
// "symmetry": "none" run passed as the builtin hexagram's count with the
// group relabelled to order 1.  The group is now made from the figure, and
// a builtin's figure is the catalog's.
TEST_F(Hardening, VerifyRecomputesTheGroupAndTheBuiltinsFigure) {
  ASSERT_EQ(run_cli("figure --builtin hexagram --solutions all -q --json " + at("h.json")).code, 0);
  EXPECT_EQ(run_cli("verify " + at("h.json")).code, 0);
  const CliRun show = run_cli("figure --builtin hexagram --show");
  nlohmann::json figure = nlohmann::json::parse(show.out).at("figure");
  figure["symmetry"] = "none";
  std::ofstream(at("none.json")) << figure.dump();
  ASSERT_EQ(run_cli("figure " + at("none.json") + " --solutions all -q --json " + at("n.json")).code, 0);
  const nlohmann::json none = nlohmann::json::parse(read_text(at("n.json")));
  ASSERT_EQ(none.at("counts").at("unique"), 960);
  nlohmann::json forged = nlohmann::json::parse(read_text(at("h.json")));
  for (const char* key : {"solutions", "counts", "digest"}) forged[key] = none.at(key);
  forged["problem"]["group"]["order"] = 1;
  forged["problem"]["group"]["generators"] = nlohmann::json::array();
  std::ofstream(at("forged.json")) << forged.dump();
  CliRun r = run_cli("verify " + at("forged.json"));
  EXPECT_CLEAN_ERROR(r);
  EXPECT_NE(r.err.find("order says 1"), std::string::npos) << r.err;
  // The same with the builtin's figure relabelled "none" too: not the builtin.
  forged["problem"]["figure"]["symmetry"] = "none";
  std::ofstream(at("forged.json"), std::ios::trunc) << forged.dump();
  r = run_cli("verify " + at("forged.json"));
  EXPECT_CLEAN_ERROR(r);
  EXPECT_NE(r.err.find("not the built-in figure hexagram"), std::string::npos) << r.err;
  // Without the builtin's name, it is the "none" figure's honest result.
  forged["problem"].erase("builtin");
  std::ofstream(at("forged.json"), std::ios::trunc) << forged.dump();
  EXPECT_EQ(run_cli("verify " + at("forged.json")).code, 0);
  // A file figure's incidence group is found by the checker itself.
  ASSERT_EQ(run_cli("figure --builtin triangle-4 --solutions all -q --json " + at("t.json")).code, 0);
  nlohmann::json t = nlohmann::json::parse(read_text(at("t.json")));
  ASSERT_EQ(t.at("problem").at("group").at("order"), 48);
  EXPECT_EQ(run_cli("verify " + at("t.json")).code, 0);
  t["problem"]["group"]["order"] = 6;
  std::ofstream(at("t.json"), std::ios::trunc) << t.dump();
  EXPECT_CLEAN_ERROR(run_cli("verify " + at("t.json")));
}

// Row 4: a name cut at 64 bytes (a description at 400) in the middle of a
// UTF-8 character made the JSON writer throw (exit 70).  Row 13 (a): the
// 40-character limit on point names counted bytes.
TEST_F(Hardening, LongNamesAreCutBetweenCharacters) {
  std::string e40;
  for (int i = 0; i < 40; ++i) e40 += "\u00e9";
  std::ofstream(at("n.json")) << R"({"name":"a)" << e40 << R"(","description":"a)" << e40 << e40 << e40 << e40 << e40
                              << R"(","points":["a","b","c"],"lines":[["a","b"],["b","c"]]})";
  const CliRun r = run_cli("figure " + at("n.json") + " --show");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_LE(j.at("figure").at("name").get<std::string>().size(), 64u);
  EXPECT_EQ(run_cli("figure " + at("n.json") + " -q --json -").code, 0);
  std::string accented;
  for (int i = 0; i < 40; ++i) accented += "\u00e9";
  std::ofstream(at("p.json")) << R"({"points":[")" << accented << R"(","b"],"lines":[[")" << accented << R"(","b"]]})";
  EXPECT_EQ(run_cli("figure " + at("p.json") + " --show").code, 0) << "40 characters of 2 bytes each";
}

// Row 6: point names went into <text> unescaped, and coordinates of ±1e308
// drew at NaN; --show --svg - wrote the picture and the JSON both to stdout.
TEST_F(Hardening, SvgEscapesNamesAndKeepsHugeCoordinatesFinite) {
  std::ofstream(at("x.json")) << R"({"points":[{"name":"<b>","x":-1e308,"y":1e308},{"name":"a&b","x":1e308,"y":0},)"
                              << R"({"name":"<script>alert(1)</script>","x":0,"y":-1e308}],)"
                              << R"("lines":[["<b>","a&b"],["a&b","<script>alert(1)</script>"]]})";
  ASSERT_EQ(run_cli("figure " + at("x.json") + " --show --svg " + at("x.svg")).code, 0);
  const std::string svg = read_text(at("x.svg"));
  EXPECT_EQ(svg.find("<b>"), std::string::npos);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_NE(svg.find("&lt;script&gt;"), std::string::npos);
  EXPECT_EQ(svg.find("nan\""), std::string::npos);  // cx="-nan" ("dominant" holds "nan" too)
  EXPECT_EQ(svg.find("inf\""), std::string::npos);
  EXPECT_EQ(run_shell_status("xmllint --noout " + at("x.svg")), 0);
  EXPECT_CLEAN_ERROR(run_cli("figure " + at("x.json") + " --show --svg -"));
}

// Row 12: "symmetry": "none" computed the incidence group for the echo and
// refused a figure whose incidence group passes 2^62.  Row 13 (d):
// "equal_lines": 0 in a file was taken as "all lines".
TEST_F(Hardening, ANoneFigureWithAHugeIncidenceGroupRuns) {
  nlohmann::json points = nlohmann::json::array(), lines = nlohmann::json::array();
  for (int i = 0; i < 64; ++i) points.push_back("p" + std::to_string(i));
  for (int i = 0; i < 64; ++i) {
    nlohmann::json line = nlohmann::json::array();
    for (int j = 0; j < 64; ++j)
      if (j != i) line.push_back("p" + std::to_string(j));
    lines.push_back(line);
  }
  std::ofstream(at("big.json")) << nlohmann::json{{"points", points}, {"lines", lines}, {"symmetry", "none"}, {"sum", 1}}.dump();
  const CliRun r = run_cli("figure " + at("big.json") + " --show");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(nlohmann::json::parse(r.out).at("group").at("incidence_order").is_null());
  std::ofstream(at("k0.json")) << R"({"points":["a","b","c"],"lines":[["a","b"],["b","c"]],"equal_lines":0})";
  EXPECT_CLEAN_ERROR(run_cli("figure " + at("k0.json") + " --show"));
}

// Row 13 (b): verify listed every element of the group, so it refused the
// tool's own result for 8 disjoint lines of 2 points (2^8 * 8! = 10,321,920
// symmetries).  It now counts under a stabilizer chain of its own.
TEST_F(Hardening, VerifyTakesAGroupTooLargeToList) {
  std::ofstream(at("p8.json")) << disjoint_lines(8, "1..17").dump();
  ASSERT_EQ(run_cli("figure " + at("p8.json") + " --solutions all -q --json " + at("p8-out.json")).code, 0);
  const nlohmann::json r = nlohmann::json::parse(read_text(at("p8-out.json")));
  ASSERT_EQ(r.at("problem").at("group").at("order"), 10321920);
  ASSERT_GT(r.at("counts").at("unique").get<int>(), 1);
  const CliRun v = run_cli("verify " + at("p8-out.json"));
  EXPECT_EQ(v.code, 0) << v.err;
  EXPECT_NE(v.out.find("counts and digest agree"), std::string::npos) << v.out;
}

// Row 13 (c): a full row with the wrong sum is bad input (exit 2, as
// docs/cli.md now says) at every order, the wide solver's 9..16 too.
TEST_F(Hardening, AFullRowWithTheWrongSumIsBadInputAtEveryOrder) {
  for (int n : {3, 4, 5, 9, 12, 16}) {
    std::string grid;
    for (int r = 0; r < n; ++r) {
      for (int c = 0; c < n; ++c) grid += (c ? " " : "") + std::to_string(r == 0 ? c + 1 : 0);
      grid += "\n";
    }
    const CliRun run = run_cli("complete -", grid);
    EXPECT_CLEAN_ERROR(run);
    EXPECT_NE(run.err.find("row 1 is full but sums to"), std::string::npos) << n << ": " << run.err;
  }
}

// The hash set refuses to grow past its budget before it allocates.
TEST(CanonicalSetBudget, NeverAllocatesPastItsLimit) {
  const std::size_t limit = std::size_t{1} << 20;
  magic::CanonicalSet set(16, limit);
  std::uint64_t form[2] = {0, 0};
  try {
    for (;; ++form[0]) {
      set.insert(form);
      ASSERT_LE(set.bytes(), limit);
    }
  } catch (const magic::MemoryLimitError&) {
  }
  EXPECT_LE(set.bytes(), limit);
  EXPECT_GT(set.size(), 1000u);
}

}  // namespace
