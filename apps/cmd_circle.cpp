#include <iostream>

#include "cli_common.hpp"
#include "commands.hpp"
#include "magic/spec.hpp"

namespace cli {
namespace {

struct CircleArgs {
  int n = 0;
  std::string solver = "exhaustive";
  Common common;
};

// As the document prints them: "[ 1 3 10 2 5 ]".
void print_circle(std::ostream& os, const nlohmann::json& c) {
  os << "[";
  for (const auto& v : c) os << " " << v.get<int>();
  os << " ]\n";
}

void add_circle(CLI::App& app, Action& action) {
  auto args = std::make_shared<CircleArgs>();
  CLI::App* sub = app.add_subcommand(
      "circle", "count magic circles (魔円陣): n numbers whose arcs sum to 1..n(n-1) once each");
  sub->add_option("--n,-n", args->n, "numbers on the circle, 3..40 (exhaustive: n=17 takes minutes)")
      ->required()
      ->transform(whole_number());
  sub->add_option("--solver,--method", args->solver,
                  std::string("exhaustive (no number theory) or multiplier (difference sets fixed by "
                              "the multipliers p | n-1; reaches n = 40)"))
      ->capture_default_str();
  add_common(sub, args->common, magic::split_levels("circle"));
  add_svg_option(sub, args->common);
  sub->callback([args, &action] {
    action = [args]() -> int {
      if (!magic::is_field_value("circle", "solver", args->solver))
        throw UsageError("unknown --solver '" + args->solver + "' (use " + magic::field_values("circle", "solver") +
                         ")");
      Printer pr;
      pr.human_solution = print_circle;
      return execute({{"name", "circle"}, {"n", args->n}, {"solver", args->solver}}, args->common, pr);
    };
  });
}

const RegisterCommand reg_circle(40, add_circle);

}  // namespace
}  // namespace cli
