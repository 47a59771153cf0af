#pragma once
// Subcommands register themselves (one file each, no central list to edit):
//   static const cli::RegisterCommand reg(30, add_star, cli::Ranks::Every);
// The number orders them in --help; the ranks say where magicount-mpi
// runs it: a search on every rank (they serve rank 0's coordinator), the
// rest on rank 0 alone.
#include <functional>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

namespace cli {
using Action = std::function<int()>;
using AddCommand = void (*)(CLI::App& app, Action& action);

enum class Ranks { Every, First };
struct Command {
  int order;
  AddCommand add;
  Ranks ranks;
};

std::vector<Command>& command_registry();
struct RegisterCommand {
  RegisterCommand(int order, AddCommand add, Ranks ranks) { command_registry().push_back({order, add, ranks}); }
};
}  // namespace cli
