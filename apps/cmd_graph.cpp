// What the graph's subcommand adds to its table (GraphFamily::command): the
// graph FILE (or stdin) read into the spec, --list and --show
// (input_family.hpp).
#include <iostream>

#include "input_family.hpp"
#include "magic/spec.hpp"

namespace cli {
namespace {

Extension extend_graph(CLI::App* sub, std::shared_ptr<FamilyCli> cli) {
  InputFamily f;
  f.noun = "graph";
  f.input_help = "graph FILE: graph6, an edge list or JSON ('-' = stdin)";
  f.show_help =
      "print the graph, its group and the figure the labelling makes, and exit without searching "
      "(with --svg: draw the graph, its vertices named)";
  f.list = [] {
    for (const auto& [shape, help] : magic::graph_builtin_forms()) std::cout << shape << "  " << help << "\n";
  };
  // The engine reads graph6, an edge list or JSON from the text itself.
  f.read = [](nlohmann::json& spec, const std::string& text, const std::string&) { spec["graph"] = text; };
  f.shown = [](const nlohmann::json& spec, const magic::Job& job) {
    nlohmann::json out = job.problem();
    out["as_figure"] = magic::graph_figure_json(spec);  // the labelling as docs/figures.md writes it
    return out;
  };
  return extend_with_input(sub, std::move(cli), std::move(f));
}

const RegisterExtension ext_graph("graph", extend_graph);

}  // namespace
}  // namespace cli
