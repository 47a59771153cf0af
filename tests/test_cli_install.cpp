// What an installed magicount carries besides the program: its man page
// and its bash completion, both made from the options table (so they say
// what --help says), and where it finds its data.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <vector>

#include "cli_helpers.hpp"

namespace {

// The subcommands as --help lists them.
std::vector<std::string> subcommands() {
  const CliRun r = run_cli("--help");
  std::vector<std::string> out;
  std::istringstream in(r.out);
  bool on = false;
  for (std::string line; std::getline(in, line);) {
    if (line == "Subcommands:") on = true;
    else if (on && line.size() > 2 && line.rfind("  ", 0) == 0 && line[2] != ' ')
      out.push_back(line.substr(2, line.find(' ', 2) - 2));
    else if (on && line.empty()) on = false;
  }
  return out;
}

// The man page's source with roff's escapes undone, as lines.
std::set<std::string> man_lines() {
  std::string text = read_text(MAGIC_MAN_PAGE);
  std::string plain;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) {
      const char c = text[i + 1];
      if (c == 'e' || c == '\\') plain += '\\', ++i;
      else if (c == '-') plain += '-', ++i;
      else if (c == '&') ++i;  // a zero-width guard before a leading dot
      else plain += text[i];
    } else {
      plain += text[i];
    }
  }
  std::set<std::string> out;
  std::istringstream in(plain);
  for (std::string line; std::getline(in, line);) out.insert(line);
  return out;
}

TEST(Man, EveryLineOfEverySubcommandsHelpIsInTheManPage) {
  const auto subs = subcommands();
  ASSERT_GE(subs.size(), 9u) << "--help lists the subcommands";
  const auto man = man_lines();
  ASSERT_GT(man.size(), 100u) << MAGIC_MAN_PAGE << " is missing or short (help2man: scripts/deps.sh)";
  for (const auto& s : subs) {
    const CliRun r = run_cli(s + " --help");
    ASSERT_EQ(r.code, 0) << s;
    std::istringstream in(r.out);
    int lines = 0;
    for (std::string line; std::getline(in, line); ++lines)
      EXPECT_TRUE(line.empty() || man.count(line)) << "magicount " << s << " --help says\n  " << line
                                                   << "\nbut the man page does not";
    EXPECT_GT(lines, 3) << s;
    EXPECT_TRUE(man.count(".SS \"magicount " + s + "\"")) << s;
  }
}

TEST(Man, NamesTheVersion) {
  const CliRun v = run_cli("--version");
  ASSERT_EQ(v.code, 0);
  const std::string version = v.out.substr(0, v.out.find(' ', std::string("magicount ").size()));
  const std::string man = read_text(MAGIC_MAN_PAGE);
  EXPECT_NE(man.find(".TH MAGICOUNT \"1\""), std::string::npos);
  EXPECT_NE(man.find(version), std::string::npos) << version;
}

TEST(Version, SaysVersionSourceAndCompiler) {
  const CliRun v = run_cli("--version");
  ASSERT_EQ(v.code, 0);
  EXPECT_EQ(v.out.rfind("magicount 0.", 0), 0u) << v.out;
  EXPECT_NE(v.out.find("(source "), std::string::npos) << v.out;
  EXPECT_TRUE(v.out.find("GNU ") != std::string::npos || v.out.find("Clang ") != std::string::npos) << v.out;
}

// The old name, magic-enum, runs the same program for one release, with
// one line on stderr naming the new one.
TEST(Version, TheOldNameRunsTheProgramAndNamesTheNewOne) {
  const std::string bin = MAGIC_BIN;
  const std::string old = bin.substr(0, bin.find_last_of('/') + 1) + "magic-enum";
  const CliRun now = run_cli("star --n 8 -q --json -");
  const CliRun then = run_cli_raw(old + " star --n 8 -q --json -");
  ASSERT_EQ(then.code, 0) << then.err;
  EXPECT_EQ(now.err, "");
  EXPECT_EQ(then.err, "magic-enum: the program is now called magicount; the name magic-enum goes away in the next "
                      "release\n");
  const auto counts = [](const std::string& json) { return json.substr(0, json.find("\"run\"")); };
  EXPECT_EQ(counts(then.out), counts(now.out));
  EXPECT_NE(then.out.find("\"unique\": 112"), std::string::npos) << then.out;
}

// Completes `words` (the last is the word being typed) with the script.
std::string complete(const std::string& words) {
  const ScratchPath script("completion");
  const CliRun gen = run_cli("completion bash > " + script.str());
  EXPECT_EQ(gen.code, 0) << gen.err;
  std::istringstream in(words);
  std::vector<std::string> w;
  for (std::string x; in >> x;) w.push_back(x);
  if (words.back() == ' ') w.push_back("");
  std::string arr;
  for (const auto& x : w) arr += " '" + x + "'";
  const CliRun r = run_cli_raw("bash -c \". " + script.str() + "; COMP_WORDS=(" + arr + "); COMP_CWORD=" +
                               std::to_string(w.size() - 1) + "; _magicount; printf '%s\\n' \\\"\\${COMPREPLY[@]}\\\"\"");
  EXPECT_EQ(r.code, 0) << r.err;
  return r.out;
}

TEST(Completion, OffersSubcommandsAndTheirOptions) {
  EXPECT_EQ(complete("magicount sq"), "square\n");
  EXPECT_EQ(complete("magicount figure --bu"), "--builtin\n");
  const std::string star = complete("magicount star --");
  EXPECT_NE(star.find("--checkpoint\n"), std::string::npos) << star;
  EXPECT_NE(star.find("--threads\n"), std::string::npos) << star;
  EXPECT_EQ(star.find("--builtin"), std::string::npos) << star;  // figure's, not star's
}

TEST(Completion, CoversTheOldName) {
  const ScratchPath script("completion_old");
  ASSERT_EQ(run_cli("completion bash > " + script.str()).code, 0);
  const CliRun r = run_cli_raw("bash -c \". " + script.str() + "; complete -p magic-enum\"");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("-F _magicount magic-enum"), std::string::npos) << r.out;
}

TEST(Completion, RefusesAnUnknownShell) { EXPECT_CLEAN_ERROR(run_cli("completion fish")); }

TEST(Data, ReproduceRefusesADataDirThatIsNotOne) {
  const ScratchPath file("not_a_dir");
  { std::ofstream(file.str()) << "{}"; }
  const CliRun r = run_cli("reproduce -q --records --data " + file.str());
  EXPECT_CLEAN_ERROR(r);
  EXPECT_NE(r.err.find("--documents"), std::string::npos) << r.err;
  EXPECT_CLEAN_ERROR(run_cli("reproduce -q --records --data " + file.str() + "-missing"));
}

// Run from the build tree, the records are the source tree's, wherever the
// program is started from.
TEST(Data, ReproduceFindsTheSourceTreesRecordsFromAnyDirectory) {
  const ScratchPath out("records_out");
  const CliRun r = run_cli_raw("cd / && " + std::string(MAGIC_BIN) + " reproduce -q --records --rerun-under 0 --out " +
                               out.str());
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("star-16: agrees"), std::string::npos) << r.out;
  std::filesystem::remove_all(out.str());
}

}  // namespace

namespace {

// The progress line is redrawn in place with "\r\033[K" (and cleared so at
// the end): on a terminal only, and not with NO_COLOR set.  `script` gives
// the run a terminal.
std::string on_a_terminal(const std::string& env) {
  const CliRun r = run_cli_raw(env + " script -qec '" + std::string(MAGIC_BIN) + " circle --n 8' /dev/null");
  EXPECT_EQ(r.code, 0) << r.err;
  return r.out;
}

TEST(Progress, OnATerminalUnlessNoColor) {
  EXPECT_NE(on_a_terminal("").find("\033[K"), std::string::npos);
  EXPECT_EQ(on_a_terminal("NO_COLOR=1").find("\033[K"), std::string::npos);
  EXPECT_NE(on_a_terminal("NO_COLOR=").find("\033[K"), std::string::npos);  // set but empty: no-color.org
  const CliRun piped = run_cli("circle --n 8");
  EXPECT_EQ(piped.err.find("\033[K"), std::string::npos);
}

}  // namespace
