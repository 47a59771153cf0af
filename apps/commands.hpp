#pragma once
// Subcommands register themselves (one file each, no central list to edit):
//   static const cli::RegisterCommand reg(30, add_star);
// The number orders them in --help.
#include <functional>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

namespace cli {
using Action = std::function<int()>;
using AddCommand = void (*)(CLI::App& app, Action& action);

std::vector<std::pair<int, AddCommand>>& command_registry();
struct RegisterCommand {
  RegisterCommand(int order, AddCommand add) { command_registry().push_back({order, add}); }
};
}  // namespace cli
