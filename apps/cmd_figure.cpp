// What the figure's subcommand adds to its table (FigureFamily::command):
// the figure FILE (or stdin) read into the spec, --list and --show.
#include <iostream>
#include <unistd.h>

#include "cli_common.hpp"
#include "cluster.hpp"
#include "commands.hpp"
#include "magic/figure_catalog.hpp"
#include "magic/io.hpp"
#include "magic/spec.hpp"

namespace cli {
namespace {

struct FigureArgs {
  std::string input;
  bool list = false;
  bool show = false;
};

int list_builtins() {
  for (const std::string& name : magic::figure_builtin_names())
    std::cout << name << "  " << magic::builtin_figure_summary(name) << "\n";
  return kOk;
}

// The figure FILE's JSON (stdin for '-'), read on rank 0 and sent to every rank.
nlohmann::json read_figure(const std::string& input) {
  const std::string text = cluster::shared_input([&] {
    if (input == "-" && ::isatty(STDIN_FILENO))
      throw UsageError("no input: give a figure FILE, pipe one into stdin, or use --builtin NAME");
    return magic::read_file(input);
  });
  return magic::parse_json(text, input == "-" ? "figure (stdin)" : "figure " + input);
}

// The figure as the engine reads it, with its symmetry group; with --svg,
// its picture too (its points named, no numbers).
int show(const FamilyCli& cli, const nlohmann::json& spec) {
  const std::string& svg = cli.common().svg;
  if (svg == "-") throw UsageError("--show prints the figure on stdout: give the picture a file, --svg FILE");
  const magic::Job job = cli.make_job(spec);
  if (!svg.empty()) write_svg(svg, job.picture(), job.problem(), {nullptr});
  std::cout << job.problem().dump(2) << "\n";
  return kOk;
}

int run(const FigureArgs& a, const FamilyCli& cli) {
  if (a.list) return list_builtins();
  nlohmann::json spec = cli.spec();
  const bool builtin = spec.contains("builtin");
  if (builtin == !a.input.empty())
    throw UsageError(builtin ? "give a figure FILE or --builtin NAME, not both"
                             : "give a figure FILE ('-' = stdin) or --builtin NAME (see --list)");
  const Common& c = cli.common();
  check_not_input(c, a.input);
  if (!builtin) spec["figure"] = read_figure(a.input);
  if (a.show) return show(cli, spec);
  return cli.execute(spec, c, cli.printer());
}

Extension extend_figure(CLI::App* sub, std::shared_ptr<FamilyCli> cli) {
  auto args = std::make_shared<FigureArgs>();
  sub->add_option("input", args->input, "figure FILE (JSON; '-' = stdin)");
  sub->add_flag("--list", args->list, "list the built-in figures and exit");
  sub->add_flag("--show", args->show,
                "print the figure as the engine reads it, with its symmetry group, and exit without searching "
                "(with --svg: draw it, its points named)");
  return {[args, cli] { return run(*args, *cli); }, {}};
}

const RegisterExtension ext_figure("figure", extend_figure);

}  // namespace
}  // namespace cli
