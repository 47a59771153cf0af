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
  std::string builtin;
  std::string numbers;
  int equal_lines = 0;
  int sum = 0;
  bool list = false;
  bool show = false;
  bool all_orientations = false;
  Common common;
};

int list_builtins() {
  for (const std::string& name : magic::figure_builtin_names())
    std::cout << name << "  " << magic::builtin_figure_summary(name) << "\n";
  return kOk;
}

// The figure the arguments name, as the engine's spec.
nlohmann::json figure_spec(const FigureArgs& a, bool has_numbers, bool has_k, bool has_sum) {
  nlohmann::json spec{{"name", "figure"}};
  if (!a.builtin.empty()) {
    spec["builtin"] = a.builtin;
  } else {
    const std::string text = cluster::shared_input([&] {
      if (a.input == "-" && ::isatty(STDIN_FILENO))
        throw UsageError("no input: give a figure FILE, pipe one into stdin, or use --builtin NAME");
      return magic::read_file(a.input);
    });
    const std::string what = a.input == "-" ? "figure (stdin)" : "figure " + a.input;
    spec["figure"] = magic::parse_json(text, what);
  }
  if (has_numbers) spec["numbers"] = a.numbers;
  if (has_k) spec["equal_lines"] = a.equal_lines;
  if (has_sum) spec["sum"] = a.sum;
  if (a.all_orientations) spec["symmetry_breaking"] = false;
  return spec;
}

void add_figure(CLI::App& app, Action& action) {
  auto args = std::make_shared<FigureArgs>();
  CLI::App* sub = app.add_subcommand(
      "figure", "count the magic labellings of any figure of points and lines, read from a file (docs/figures.md) "
                "or built in, up to the figure's symmetry");
  sub->add_option("input", args->input, "figure FILE (JSON; '-' = stdin)");
  sub->add_option("--builtin,-b", args->builtin, "a built-in figure instead of a file (see --list)");
  sub->add_flag("--list", args->list, "list the built-in figures and exit");
  sub->add_flag("--show", args->show,
                "print the figure as the engine reads it, with its symmetry group, and exit without searching "
                "(with --svg: draw it, its points named)");
  auto* numbers = sub->add_option("--numbers", args->numbers,
                                  "numbers to choose from, such as 1..12 or 1,2,4,5..9 (default: the figure's)");
  auto* k = sub->add_option("--equal-lines,-k", args->equal_lines,
                            "at least K lines share the common sum; more than half the lines (default: all)")
                ->transform(whole_number());
  auto* sum = sub->add_option("--sum", args->sum, "fix the common sum (default: the figure's, or every feasible sum)")
                  ->transform(whole_number());
  sub->add_flag("--all-orientations", args->all_orientations,
                "enumerate every labelling and keep the canonical ones, instead of symmetry breaking");
  add_common(sub, args->common, magic::split_levels("figure"));
  add_svg_option(sub, args->common);
  sub->callback([args, numbers, k, sum, &action] {
    const bool has_numbers = numbers->count() > 0, has_k = k->count() > 0, has_sum = sum->count() > 0;
    action = [args, has_numbers, has_k, has_sum]() -> int {
      if (args->list) return list_builtins();
      if (args->builtin.empty() == args->input.empty())
        throw UsageError(args->builtin.empty() ? "give a figure FILE ('-' = stdin) or --builtin NAME (see --list)"
                                               : "give a figure FILE or --builtin NAME, not both");
      if (has_k && args->equal_lines <= 0) throw UsageError("--equal-lines must be more than half the lines");
      if (!args->input.empty())
        for (const auto& [flag, out] : {std::pair<const char*, const std::string&>{"--json", args->common.json},
                                        {"--solutions-file", args->common.solutions_file},
                                        {"--svg", args->common.svg},
                                        {"--checkpoint", args->common.checkpoint}})
          if (args->input != "-") check_not_input(flag, out, args->input);
      const nlohmann::json spec = figure_spec(*args, has_numbers, has_k, has_sum);
      if (args->show && args->common.svg == "-")
        throw UsageError("--show prints the figure on stdout: give the picture a file, --svg FILE");
      if (args->show) {
        const nlohmann::json problem = magic::describe_spec(spec).problem;
        // With --svg, the figure's picture: its points named, no numbers.
        if (!args->common.svg.empty()) write_svg(args->common.svg, problem, {nullptr});
        std::cout << problem.dump(2) << "\n";
        return kOk;
      }
      Printer pr;
      pr.human_solution = print_points_and_sums;
      return execute(spec, args->common, pr);
    };
  });
}

const RegisterCommand reg_figure(45, add_figure);

}  // namespace
}  // namespace cli
