// The project's structure, held to what it claims: one options table that
// every front end follows, one name for each option, and the layers the
// docs describe.  Each test reads the source tree or runs the program.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_helpers.hpp"
#include "magic/core/error.hpp"
#include "magic/run_options.hpp"
#include "magic/spec.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path kSource = MAGIC_SOURCE_DIR;

// The long flags (--name) a subcommand's --help lists, one per option.
std::set<std::string> help_flags(const std::string& sub) {
  const CliRun r = run_cli(sub + " --help");
  EXPECT_EQ(r.code, 0) << r.err;
  std::set<std::string> out;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    const auto at = line.find("--");
    if (line.rfind("  -", 0) != 0 || at == std::string::npos || at > 6) continue;
    out.insert(line.substr(at, line.find_first_of(" ,=", at) - at));
  }
  return out;
}

std::string first_long_flag(const magic::OptionRow& row) {
  const std::string flags = row.flags;
  return flags.substr(0, flags.find(','));
}

// Every file below `dir` (relative to the source tree) whose name ends in one of `ends`.
std::vector<fs::path> sources(const std::string& dir, const std::vector<std::string>& ends) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(kSource / dir)) {
    if (!e.is_regular_file()) continue;
    const std::string name = e.path().filename().string();
    for (const auto& end : ends)
      if (name.size() >= end.size() && name.compare(name.size() - end.size(), end.size(), end) == 0)
        out.push_back(e.path());
  }
  return out;
}

}  // namespace

// The CLI's common options are the table's rows, no more and no fewer:
// circle's --help lists only them beside its own --n and --solver.
TEST(OptionsTable, TheCliHasEveryRowAndNoOtherCommonOption) {
  std::set<std::string> rows;
  for (const auto& row : magic::kOptions) rows.insert(first_long_flag(row));
  std::set<std::string> common = help_flags("circle");
  for (const char* own : {"--help", "--n", "--solver"}) EXPECT_EQ(common.erase(own), 1u) << own;
  EXPECT_EQ(common, rows);
}

// Each row's help is the CLI's help for it, word for word.
TEST(OptionsTable, TheCliHelpIsTheTablesHelp) {
  const CliRun r = run_cli("star --help");
  std::string flat;  // CLI11 wraps long help: joined, single-spaced
  std::istringstream in(r.out);
  for (std::string w; in >> w;) flat += w + " ";
  for (const auto& row : magic::kOptions) {
    std::string help;
    std::istringstream h(row.help);
    for (std::string w; h >> w;) help += (help.empty() ? "" : " ") + w;
    EXPECT_NE(flat.find(help), std::string::npos) << row.name << ": " << row.help;
  }
}

// docs/cli.md's table of common options names every row.
TEST(OptionsTable, TheDocsTableNamesEveryRow) {
  const std::string doc = read_text(kSource / "docs" / "cli.md");
  for (const auto& row : magic::kOptions)
    EXPECT_NE(doc.find("| `" + first_long_flag(row)), std::string::npos) << first_long_flag(row);
}

// The JSON reader (and with it Python) takes exactly the rows Python has,
// each checked against its row's range; a row Python lacks says why.
TEST(OptionsTable, TheJsonReaderFollowsTheTable) {
  for (const auto& row : magic::kOptions) {
    if (row.not_in_python) {
      EXPECT_GT(std::string(row.not_in_python).size(), 10u) << row.name << ": say why Python lacks it";
      EXPECT_THROW(magic::run_options_from_json({{row.name, "x"}}), magic::SpecError) << row.name;
      continue;
    }
    if (row.type != magic::OptionType::Whole) continue;
    EXPECT_NO_THROW(magic::run_options_from_json({{row.name, row.lo}})) << row.name;
    EXPECT_NO_THROW(magic::run_options_from_json({{row.name, row.hi}})) << row.name;
    EXPECT_NO_THROW(magic::run_options_from_json({{row.name, row.unset}})) << row.name;
    if (row.lo - 1 != row.unset) {
      EXPECT_THROW(magic::run_options_from_json({{row.name, row.lo - 1}}), magic::SpecError) << row.name;
    }
    if (row.hi != magic::kNoBound) {
      EXPECT_THROW(magic::run_options_from_json({{row.name, row.hi + 1}}), magic::SpecError) << row.name;
    }
    EXPECT_THROW(magic::run_options_from_json({{row.name, "1"}}), magic::SpecError) << row.name;
  }
  EXPECT_EQ(magic::run_options_from_json({{"limit", 7}}).limit, 7u);
  EXPECT_EQ(magic::run_options_from_json({{"split_nodes", 4096}}).split_nodes, 4096u);
  EXPECT_EQ(magic::run_options_from_json({{"adaptive", false}}).adaptive, false);
  EXPECT_THROW(magic::run_options_from_json({{"stop_after", 7}}), magic::SpecError);
}

// One name for each option: the limit is `limit` in the library too, and
// no front end keeps a list of option names of its own.
TEST(OptionsTable, EachOptionHasOneName) {
  const std::regex old_name(R"(\bstop_after\b)");
  const std::regex own_list(R"(RUN_OPTIONS\s*=\s*\()");
  for (const std::string dir : {"engine", "apps", "report", "checker", "python"})
    for (const auto& f : sources(dir, {".cpp", ".hpp", ".py", ".pyi"})) {
      const std::string text = read_text(f);
      EXPECT_FALSE(std::regex_search(text, old_name)) << f << " says stop_after: the option is `limit`";
      EXPECT_FALSE(std::regex_search(text, own_list)) << f << " lists the run options again";
    }
}

// The installed face (engine/CMakeLists.txt's MAGIC_FACE_HEADERS) is
// whole: each of its headers includes only headers of the face.
TEST(Layers, TheInstalledFaceIncludesOnlyItself) {
  std::set<std::string> face;
  std::istringstream in(MAGIC_FACE);
  for (std::string h; std::getline(in, h, ',');) face.insert(h);
  ASSERT_TRUE(face.count("job.hpp"));
  const std::regex include(R"re(#include "magic/([a-z_/]+\.hpp)")re");
  for (const auto& h : face) {
    fs::path file = kSource / "engine" / "include" / "magic" / h;
    if (!fs::exists(file)) file = kSource / "engine" / "base" / "include" / "magic" / h;  // magic_base's
    ASSERT_TRUE(fs::exists(file)) << h;
    const std::string text = read_text(file);
    for (std::sregex_iterator it(text.begin(), text.end(), include), end; it != end; ++it)
      EXPECT_TRUE(face.count((*it)[1])) << h << " includes magic/" << (*it)[1] << ", which is not installed";
  }
}

// job.hpp declares nothing another library defines, and brings no thread
// machinery into the files that include it.
TEST(Layers, TheJobFaceDeclaresOnlyWhatTheEngineDefines) {
  const std::string job = read_text(kSource / "engine" / "include" / "magic" / "job.hpp");
  for (const char* word : {"coordinate(", "serve(", "cluster_wire", "<thread>", "<condition_variable>"})
    EXPECT_EQ(job.find(word), std::string::npos) << "job.hpp says " << word;
  const std::string wire = read_text(kSource / "engine" / "include" / "magic" / "cluster_wire.hpp");
  for (const char* word : {"<thread>", "<condition_variable>", "class LoopbackWire"})
    EXPECT_EQ(wire.find(word), std::string::npos) << "cluster_wire.hpp says " << word;
}

// No list of the families outside the registry: a file that names two or
// more of them in string literals is a list that a new family would miss
// (as apps/cluster.hpp's list of searching subcommands once missed
// `figure`).  Each exception says why it is not such a list.  The checker
// is independent of the engine by design: it knows the families itself.
TEST(Families, NoOtherListOfFamilyNames) {
  const std::set<std::string> not_lists = {
      "report/src/records.cpp",        // a star-N figure record checked against the star family's count
      "report/src/report_charts.cpp",  // one chart per family it draws, by name
      "python/magicount/__init__.py",  // docstring examples
  };
  const std::regex family_literal(R"re("(square|star|circle|complete|figure|graph)")re");
  for (const std::string dir : {"apps", "report", "engine", "python"})
    for (const auto& f : sources(dir, {".cpp", ".hpp", ".py", ".pyi"})) {
      const std::string rel = fs::relative(f, kSource).string();
      if (not_lists.count(rel)) continue;
      const std::string text = read_text(f);
      std::set<std::string> named;
      for (std::sregex_iterator it(text.begin(), text.end(), family_literal), end; it != end; ++it)
        named.insert((*it)[1]);
      EXPECT_LE(named.size(), 1u) << rel << " names " << named.size() << " families: a list of them";
    }
}

// A problem searches; how its tasks are scheduled is the engine's
// (core/scheduler.hpp, core/restarts.hpp).  No family's header or source
// names oneTBB or the runner's task context.
TEST(Families, NoProblemNamesTheScheduler) {
  const std::regex scheduler(R"re(\btbb::|\bTaskContext\b|<tbb/)re");
  int files = 0;
  for (const auto& f : sources("engine/src/families", {".cpp", ".hpp", ".inc", ".in"})) {
    ++files;
    const std::string text = read_text(f);
    std::smatch m;
    EXPECT_FALSE(std::regex_search(text, m, scheduler))
        << fs::relative(f, kSource).string() << " names " << m.str() << ": the scheduler is the engine's";
  }
  EXPECT_GT(files, 30);
}

// The CLI's subcommands that search are the registry's families, and an
// unknown name's message lists them all.
TEST(Families, TheSearchingSubcommandsAreTheFamilies) {
  const CliRun help = run_cli("--help");
  for (const std::string& family : magic::family_names())
    EXPECT_NE(help.out.find("\n  " + family + " "), std::string::npos) << family;
  try {
    magic::describe_spec({{"name", "nonesuch"}});
    ADD_FAILURE() << "an unknown family was accepted";
  } catch (const magic::SpecError& e) {
    for (const std::string& family : magic::family_names())
      EXPECT_NE(std::string(e.what()).find(family), std::string::npos) << e.what();
  }
}

// docs/architecture.md tells the truth: every folder its tree names
// exists, every source path it names exists, and it names every family.
TEST(Architecture, TheDocsTreeIsTheTree) {
  const std::string doc = read_text(kSource / "docs" / "architecture.md");
  const auto open = doc.find("```\n");
  const auto close = doc.find("```\n", open + 4);
  ASSERT_NE(close, std::string::npos);
  const std::string tree = doc.substr(open + 4, close - open - 4);
  std::istringstream lines(tree);
  int folders = 0;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string first;
    if (!(words >> first) || first.back() != '/') continue;
    ++folders;
    EXPECT_TRUE(fs::is_directory(kSource / first)) << "docs/architecture.md names " << first;
  }
  EXPECT_GE(folders, 15);
  const std::regex path(R"(\b((apps|report|checker|python|baselines|engine|tests|perf|fuzz)/[A-Za-z0-9_./]+\.(hpp|cpp|md)))");
  for (std::sregex_iterator it(doc.begin(), doc.end(), path), end; it != end; ++it)
    EXPECT_TRUE(fs::exists(kSource / (*it)[1].str())) << "docs/architecture.md names " << (*it)[1];
  for (const std::string& family : magic::family_names())
    EXPECT_TRUE(std::regex_search(tree, std::regex("\\b" + family + "[a-z_*]*\\.hpp"))) << family << ": not in the tree";
}
