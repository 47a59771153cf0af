#include <iostream>

#include "cli_common.hpp"
#include "commands.hpp"
#include "magic/spec.hpp"

namespace cli {
namespace {

struct SquareArgs {
  int order = 3;
  std::string kind = "magic";
  bool all_orientations = false;
  int center = -1;  // -1: not given
  Common common;
};

void add_square(CLI::App& app, Action& action) {
  auto args = std::make_shared<SquareArgs>();
  CLI::App* sub = app.add_subcommand("square", "count magic squares of order N (1..N² each once)");
  sub->add_option("--order,-n", args->order, "order N, 3..5 (order 5: about a minute on two cores)")
      ->required()
      ->transform(whole_number());
  sub->add_option("--kind", args->kind, "constraints: " + magic::field_values("square", "kind"))
      ->capture_default_str();
  sub->add_flag("--all-orientations", args->all_orientations,
                "enumerate all 8 orientations and keep the canonical ones, instead of symmetry breaking");
  sub->add_option("--center", args->center,
                  "order 5, kind magic: only the squares with this centre value (1..25)")
      ->transform(whole_number());
  add_common(sub, args->common, magic::split_levels("square"));
  add_svg_option(sub, args->common);
  sub->callback([args, &action] {
    action = [args]() -> int {
      if (!magic::is_field_value("square", "kind", args->kind))
        throw UsageError("unknown --kind '" + args->kind + "' (use " + magic::field_values("square", "kind") + ")");
      Printer pr;
      pr.human_solution = print_grid;
      nlohmann::json spec{{"name", "square"},
                          {"order", args->order},
                          {"kind", args->kind},
                          {"symmetry_breaking", !args->all_orientations}};
      if (args->center != -1) spec["center"] = args->center;
      return execute(spec, args->common, pr);
    };
  });
}

const RegisterCommand reg_square(10, add_square);

}  // namespace
}  // namespace cli
