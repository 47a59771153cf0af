#pragma once
// The subcommands.  A family's is built from what the family says of its
// command line (magic::FamilyCommand, apps/cmd_family.cpp): adding a
// family adds its subcommand, with no edit here.  The rest register
// themselves, one file each (no central list to edit):
//   static const cli::RegisterCommand reg(70, add_merge);
// The number orders them in --help, after the families.  Where
// magicount-mpi runs one is not the command's to say: a family's
// subcommand searches, on every rank (they serve rank 0's coordinator);
// the rest run on rank 0 alone (cli_app.cpp).
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli_common.hpp"
#include "magic/family_command.hpp"
#include "magic/job.hpp"

namespace cli {
using Action = std::function<int()>;
using AddCommand = void (*)(CLI::App& app, Action& action);

struct Command {
  int order;
  AddCommand add;
};

std::vector<Command>& command_registry();
struct RegisterCommand {
  RegisterCommand(int order, AddCommand add) { command_registry().push_back({order, add}); }
};

// What the CLI knows of the families: their command lines, and how a
// spec becomes a Job.  The program's is the library's (magic::Families);
// a test gives its own toy families.
struct Catalog {
  std::vector<magic::FamilyCommand> families;
  std::function<magic::Job(const nlohmann::json&)> make_job;
};
const Catalog& library_catalog();

// One family's subcommand as parsed: the spec its table's options make,
// and the run.
class FamilyCli {
 public:
  FamilyCli(const magic::FamilyCommand& family, const Catalog& catalog) : family_(family), catalog_(catalog) {}
  void add_fields(CLI::App* sub);          // the table's options
  void add_common_options(CLI::App* sub);  // the common ones, and --svg where the family draws
  const magic::FamilyCommand& family() const { return family_; }
  Common& common() { return common_; }
  const Common& common() const { return common_; }
  // {"name": ..., and every field given or with a default}.  UsageError for
  // a value the family does not take.
  nlohmann::json spec() const;
  Printer printer() const;  // prints solutions as the family says
  magic::Job make_job(const nlohmann::json& spec) const { return catalog_.make_job(spec); }
  int execute(const nlohmann::json& spec, const Common& c, const Printer& pr) const;

 private:
  struct Given {
    const magic::FieldOption* row;
    CLI::Option* option;
    std::string text;
    std::vector<std::string> list;
    bool flag = false;
  };
  const magic::FamilyCommand& family_;
  const Catalog& catalog_;
  std::vector<std::unique_ptr<Given>> given_;
  Common common_;
};

// What a family's subcommand needs that its table cannot say (a file read
// into the spec, modes, its own exit codes): one file each, registered by
// the family's name.  It is called after the table's options are added
// and before the common ones; it may add options to `sub`, and returns
// the run (which may call cli.execute; none: the subcommand runs its
// spec) and what it changes in the common options once they are there.
struct Extension {
  Action run;
  std::function<void(CLI::App* sub)> after_common;
};
using Extend = Extension (*)(CLI::App* sub, std::shared_ptr<FamilyCli> cli);
struct RegisterExtension {
  RegisterExtension(const char* family, Extend extend);
};

// The family's subcommand (cmd_family.cpp), with its extension if it has one.
void add_family(CLI::App& app, Action& action, const magic::FamilyCommand& family, const Catalog& catalog);

// Whether the parsed subcommand searches, and so runs on every rank of
// magicount-mpi: it is one of the catalog's families.
bool on_every_rank(const CLI::App& app, const Catalog& catalog);
// The command line parsed and run, over the catalog's families; `why`
// says why it failed, if it did (cli_app.cpp, built into each program).
int run_command(int argc, char** argv, const Catalog& catalog, std::string& why);
}  // namespace cli
