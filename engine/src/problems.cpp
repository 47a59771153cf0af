#include "magic/problems.hpp"

#include <stdexcept>

#include "magic/circle.hpp"
#include "magic/complete.hpp"
#include "magic/square.hpp"
#include "magic/star.hpp"

namespace magic {
namespace {

template <class P>
SpecRun run_problem(const P& p, const RunOptions& ro) {
  return {p.describe(), run(p, ro)};
}

SpecRun run_square(const nlohmann::json& spec, const RunOptions& ro) {
  const int order = spec.at("order").get<int>();
  const auto kind = parse_square_kind(spec.value("kind", "magic"));
  if (!kind) throw std::invalid_argument("unknown square kind in " + spec.dump());
  const SquareSpec s{order, *kind, spec.value("symmetry_breaking", true)};
  validate_square(order, *kind, kSquareMinOrder, kSquareMaxOrder);
  switch (order) {
    case 3: return run_problem(SquareProblem<3>(s), ro);
    case 4: return run_problem(SquareProblem<4>(s), ro);
    case 5: return run_problem(SquareProblem<5>(s), ro);
  }
  throw std::invalid_argument("unsupported square order");
}

}  // namespace

SpecRun run_spec(const nlohmann::json& spec, const RunOptions& ro) {
  const std::string name = spec.value("name", "");
  if (name == "square") return run_square(spec, ro);
  if (name == "circle") return run_circle_spec(spec, ro);
  if (name == "star") return run_star(spec, ro);
  if (name == "complete") return run_complete(spec, ro);
  throw std::invalid_argument("unknown problem '" + name + "' in " + spec.dump());
}

std::string by_key_name(const nlohmann::json& problem) {
  return problem.value("name", "") == "star" ? "by_sum" : "";
}

}  // namespace magic
