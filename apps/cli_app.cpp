// The command line, parsed and run: built into each program (magicount,
// magicount-mpi), because which rank speaks differs between them
// (cluster.hpp), and into the test of a toy family's subcommand.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>
#include <system_error>

#include "cli_common.hpp"
#include "cluster.hpp"
#include "commands.hpp"
#include "magic/core/error.hpp"
#include "magic/result.hpp"

namespace {

// Where errors go.  Every rank of an MPI job parses the same command line,
// so only rank 0 speaks of bad input; another rank speaks only of what
// happened to it alone (I/O, MPI, memory), with its rank.
std::ostream& errors(bool input_error = false) {
  static std::ostream silent(nullptr);
  if (cli::cluster::primary()) return std::cerr << "magicount: ";
  if (input_error) return silent;
  return std::cerr << "magicount: rank " << cli::cluster::rank() << ": ";
}

// The one mapping from what the engine throws to an exit code; `why`
// keeps the error's text (a rank 1.. sends it to rank 0).
int run_action(const cli::Action& action, std::string& why) {
  try {
    return action ? action() : cli::kUsage;
  } catch (const magic::MemoryLimitError& e) {
    errors() << "error: " << (why = e.what()) << " (raise --dedup-memory)\n";
    return cli::kUsage;
  } catch (const magic::SpecError& e) {  // bad input, usage: the same on every rank
    errors(true) << "error: " << (why = e.what()) << "\n";
    return cli::kUsage;
  } catch (const magic::Error& e) {  // I/O, checkpoint, a failed rank
    errors() << "error: " << (why = e.what()) << "\n";
    return cli::kUsage;
  } catch (const std::system_error& e) {  // the file system or the OS refused
    errors() << "error: " << (why = e.what()) << "\n";
    return cli::kUsage;
  } catch (const std::bad_alloc&) {
    errors() << "error: " << (why = "out of memory") << "\n";
    return cli::kUsage;
  } catch (const std::exception& e) {  // a logic_error or worse: a bug, not the user's fault
    errors() << "internal error: " << (why = e.what()) << " (please report it)\n";
    return cli::kInternal;
  }
}

// The family a search names first (`magicount star ...`): only its
// subcommand is built then.  Each has some thirty options, and building
// them all was a third of the instructions of a small completion's whole
// process (perf/results/complete.md).  Anything else (--help, a typo, the
// other subcommands) builds them all.
const magic::FamilyCommand* named_family(int argc, char** argv, const cli::Catalog& catalog) {
  if (argc < 2) return nullptr;
  for (const magic::FamilyCommand& f : catalog.families)
    if (f.name == argv[1]) return &f;
  return nullptr;
}

}  // namespace

int cli::run_command(int argc, char** argv, const Catalog& catalog, std::string& why) {
  // Help, versions and summaries come from rank 0 alone.
  if (!cli::cluster::primary()) std::cout.setstate(std::ios::badbit);
  // Named, so that usage lines (and the man page made from them) say
  // magicount, not the path it was run by.
  CLI::App app{"magicount: exhaustive, parallel enumeration of magic squares, stars, circles and figures",
               "magicount"};
  // The version, the commit it was built from, and the compiler.
  app.set_version_flag("--version", std::string("magicount ") + magic::BuildInfo::version() + " (source " +
                                           magic::BuildInfo::source() + ", " + magic::BuildInfo::compiler() + ")");
  app.require_subcommand(1);
  std::string codes;
  for (const auto& e : cli::kExitCodes)
    codes += (codes.empty() ? "Exit codes: " : "; ") + std::string(e.codes) + " " + e.meaning;
  app.footer(codes + ".");
  cli::Action action;
  if (const magic::FamilyCommand* family = named_family(argc, argv, catalog)) {
    cli::add_family(app, action, *family, catalog);
  } else {
    for (const magic::FamilyCommand& f : catalog.families) cli::add_family(app, action, f, catalog);
    auto commands = cli::command_registry();
    std::stable_sort(commands.begin(), commands.end(),
                     [](const cli::Command& a, const cli::Command& b) { return a.order < b.order; });
    for (const cli::Command& c : commands) c.add(app, action);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    why = msg.substr(0, msg.find('\n'));
    errors(true) << "error: " << why << " (see --help)\n";
    return cli::kUsage;
  }
  // Only the searches run on every rank; the other subcommands on rank 0.
  if (!cli::cluster::primary() && !cli::on_every_rank(app, catalog)) {
    why = "its subcommand runs on rank 0 alone";
    return cli::kOk;
  }
  const int code = run_action(action, why);
  // A summary that never reached stdout (a full disk, /dev/full, a closed
  // pipe) is a failed run, not a silent success.
  std::cout.flush();
  if (code == cli::kOk && cli::cluster::primary() && (std::fflush(stdout) != 0 || std::ferror(stdout))) {
    std::cerr << "magicount: error: cannot write to standard output: " << std::strerror(errno) << "\n";
    return cli::kUsage;
  }
  return code;
}
