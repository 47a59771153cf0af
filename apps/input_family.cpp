// The input FILE, --list and --show of a family that reads one (input_family.hpp).
#include "input_family.hpp"

#include <iostream>
#include <unistd.h>

#include "cli_common.hpp"
#include "cluster.hpp"
#include "magic/io.hpp"

namespace cli {
namespace {

struct InputArgs {
  std::string input;
  bool list = false;
  bool show = false;
};

// The problem as the engine reads it; with --svg, its picture too (its
// points or vertices named, no numbers).
int show(const InputFamily& f, const FamilyCli& cli, const nlohmann::json& spec) {
  const std::string& svg = cli.common().svg;
  if (svg == "-")
    throw UsageError("--show prints the " + f.noun + " on stdout: give the picture a file, --svg FILE");
  const magic::Job job = cli.make_job(spec);
  if (!svg.empty()) write_svg(svg, job.picture(), job.problem(), {nullptr});
  std::cout << f.shown(spec, job).dump(2) << "\n";
  return kOk;
}

int run(const InputFamily& f, const InputArgs& a, const FamilyCli& cli) {
  if (a.list) {
    f.list();
    return kOk;
  }
  nlohmann::json spec = cli.spec();
  const bool builtin = spec.contains("builtin");
  if (builtin == !a.input.empty())
    throw UsageError(builtin ? "give a " + f.noun + " FILE or --builtin NAME, not both"
                             : "give a " + f.noun + " FILE ('-' = stdin) or --builtin NAME (see --list)");
  const Common& c = cli.common();
  check_not_input(c, a.input);
  if (!builtin) {
    const std::string text = cluster::shared_input([&] {
      if (a.input == "-" && ::isatty(STDIN_FILENO))
        throw UsageError("no input: give a " + f.noun + " FILE, pipe one into stdin, or use --builtin NAME");
      return magic::read_file(a.input);
    });
    f.read(spec, text, a.input);
  }
  if (a.show) return show(f, cli, spec);
  return cli.execute(spec, c, cli.printer());
}

}  // namespace

Extension extend_with_input(CLI::App* sub, std::shared_ptr<FamilyCli> cli, InputFamily family) {
  auto args = std::make_shared<InputArgs>();
  auto f = std::make_shared<InputFamily>(std::move(family));
  sub->add_option("input", args->input, f->input_help);
  sub->add_flag("--list", args->list, "list the built-in " + f->noun + "s and exit");
  sub->add_flag("--show", args->show, f->show_help);
  return {[args, cli, f] { return run(*f, *args, *cli); }, {}};
}

}  // namespace cli
