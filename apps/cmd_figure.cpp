// What the figure's subcommand adds to its table (FigureFamily::command):
// the figure FILE (or stdin) read into the spec, --list and --show
// (input_family.hpp).
#include <iostream>

#include "input_family.hpp"
#include "magic/figure_catalog.hpp"
#include "magic/io.hpp"

namespace cli {
namespace {

Extension extend_figure(CLI::App* sub, std::shared_ptr<FamilyCli> cli) {
  InputFamily f;
  f.noun = "figure";
  f.input_help = "figure FILE (JSON; '-' = stdin)";
  f.show_help =
      "print the figure as the engine reads it, with its symmetry group, and exit without searching "
      "(with --svg: draw it, its points named)";
  f.list = [] {
    for (const std::string& name : magic::figure_builtin_names())
      std::cout << name << "  " << magic::builtin_figure_summary(name) << "\n";
  };
  f.read = [](nlohmann::json& spec, const std::string& text, const std::string& input) {
    spec["figure"] = magic::parse_json(text, input == "-" ? "figure (stdin)" : "figure " + input);
  };
  f.shown = [](const nlohmann::json&, const magic::Job& job) { return job.problem(); };
  return extend_with_input(sub, std::move(cli), std::move(f));
}

const RegisterExtension ext_figure("figure", extend_figure);

}  // namespace
}  // namespace cli
