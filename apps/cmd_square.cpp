#include <iostream>
#include <vector>

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
  std::vector<int> first_row, first_column;
  Common common;
};

void add_square(CLI::App& app, Action& action) {
  auto args = std::make_shared<SquareArgs>();
  CLI::App* sub = app.add_subcommand("square", "count magic squares of order N (1..N² each once)");
  sub->add_option("--order,-n", args->order, "order N, 3..5, or 8 with --kind most-perfect (what finishes, and how long it takes: below)")
      ->required()
      ->transform(whole_number());
  sub->add_option("--kind", args->kind, "constraints: " + magic::field_values("square", "kind"))
      ->capture_default_str();
  sub->add_flag("--all-orientations", args->all_orientations,
                "enumerate all 8 orientations and keep the canonical ones, instead of symmetry breaking");
  sub->add_option("--center", args->center,
                  "order 5, kind magic: only the squares with this centre value (1..25)")
      ->transform(whole_number());
  sub->add_option("--first-row", args->first_row,
                  "order 5, kind semi: count every square whose first row is these 5 numbers in this order "
                  "(no symmetry; e.g. 1,2,13,24,25)")
      ->delimiter(',');
  sub->add_option("--first-column", args->first_column,
                  "with --first-row: and whose first column is these, starting with the row's first number")
      ->delimiter(',')
      ->needs("--first-row");
  add_common(sub, args->common, magic::split_levels("square"));
  sub->footer(
      "What finishes, on two cores here (counts up to rotation and reflection):\n"
      "  order 3 and 4: every kind, in under a second\n"
      "  order 5: magic about 50 s, semi about 15 s, pandiagonal about 3 s, associative under a second;\n"
      "  order 8: most-perfect only, under a second (368,640 squares)\n"
      "  order 5 with --all-orientations: associative (1 s); magic, semi and pandiagonal would take hours\n"
      "    to days and are refused whole: give --limit N or --shard i/m to run a part");
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
      if (!args->first_row.empty()) spec["first_row"] = args->first_row;
      if (!args->first_column.empty()) spec["first_column"] = args->first_column;
      return execute(spec, args->common, pr);
    };
  });
}

const RegisterCommand reg_square(10, add_square);

}  // namespace
}  // namespace cli
