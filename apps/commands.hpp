#pragma once
// Subcommands register themselves (one file each, no central list to edit):
//   static const cli::RegisterCommand reg(30, add_star);
// The number orders them in --help.  Where magicount-mpi runs one is not
// the command's to say: a subcommand named after a family (magic::family_names)
// searches, on every rank (they serve rank 0's coordinator); the rest run on
// rank 0 alone (main.cpp).
#include <functional>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

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
}  // namespace cli
