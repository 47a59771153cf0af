#pragma once
// What the figure's and the graph's subcommands add to their tables: an
// input FILE ('-' = stdin) or --builtin NAME, --list and --show.  Each says
// what it lists, how a file goes into the spec and what --show prints.
#include <functional>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "magic/job.hpp"

namespace cli {

struct InputFamily {
  std::string noun;          // "figure": "give a figure FILE ..."
  std::string input_help;    // the FILE argument's help
  std::string show_help;     // --show's help
  std::function<void()> list;  // prints the built-ins
  // The file's text (read on rank 0, sent to every rank) into the spec.
  std::function<void(nlohmann::json& spec, const std::string& text, const std::string& input)> read;
  // What --show prints (the Job's problem, and more if the family wants).
  std::function<nlohmann::json(const nlohmann::json& spec, const magic::Job& job)> shown;
};

Extension extend_with_input(CLI::App* sub, std::shared_ptr<FamilyCli> cli, InputFamily family);

}  // namespace cli
