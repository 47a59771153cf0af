#include <iostream>

#include "cli_common.hpp"
#include "commands.hpp"
#include "magic/star_geometry.hpp"

namespace cli {
namespace {

struct StarArgs {
  int n = 5;
  std::string numbers;
  int equal_lines = 0;
  int sum = 0;
  std::string solver = "auto";
  bool all_orientations = false;
  Common common;
};

void add_star(CLI::App& app, Action& action) {
  auto args = std::make_shared<StarArgs>();
  CLI::App* sub = app.add_subcommand(
      "star", "count magic stars {n/2}: numbers on the 2n points, at least K of the n lines with one sum");
  sub->add_option("--n,-n", args->n, "points of the star, 5..24 (5 = pentagram, 6 = hexagram)")
      ->transform(whole_number())
      ->capture_default_str();
  auto* numbers = sub->add_option("--numbers", args->numbers,
                  "numbers to choose from: a range or list such as 1..12 or 1,2,4,5..9 (default 1..2n); "
                  "2n of them are placed")
      ->default_str("1..2n");
  auto* k = sub->add_option("--equal-lines,-k", args->equal_lines,
                  "at least K lines share the common sum; K > n/2 (default n: a magic star)")
      ->transform(whole_number());
  auto* sum = sub->add_option("--sum", args->sum, "fix the common sum")->transform(whole_number());
  sub->add_option("--solver", args->solver,
                  "search: auto (chain for K = n, kept-lines for K < n), chain (all lines equal only), kept-lines "
                  "or partial-sums; all give the same result")
      ->check(CLI::IsMember({"auto", "chain", "kept-lines", "partial-sums"}))
      ->capture_default_str();
  sub->add_flag("--all-orientations", args->all_orientations,
                "enumerate all 2n orientations and keep the canonical ones, instead of symmetry breaking");
  add_common(sub, args->common,
             std::string(magic::kStarChainLevels) + " (kept-lines: " + magic::kStarKeptLevels +
                 "; partial-sums: " + magic::kStarPointLevels + ")");
  add_svg_option(sub, args->common);
  sub->callback([args, sum, k, numbers, &action] {
    const bool has_sum = sum->count() > 0, has_k = k->count() > 0, has_numbers = numbers->count() > 0;
    action = [args, has_sum, has_k, has_numbers]() -> int {
      if (has_k && args->equal_lines <= 0)
        throw UsageError("--equal-lines must be more than n/2, got " + std::to_string(args->equal_lines));
      nlohmann::json spec{{"name", "star"},
                          {"n", args->n},
                          {"symmetry_breaking", !args->all_orientations},
                          {"solver", args->solver}};
      if (has_numbers) spec["numbers"] = args->numbers;
      if (has_k) spec["equal_lines"] = args->equal_lines;
      if (has_sum) spec["sum"] = args->sum;
      Printer pr;
      pr.human_solution = print_points_and_sums;
      return execute(spec, args->common, pr);
    };
  });
}

const RegisterCommand reg_star(30, add_star);

}  // namespace
}  // namespace cli
