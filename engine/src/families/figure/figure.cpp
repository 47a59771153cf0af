// The figure family's echo and command line (figure/figure.hpp).
#include "figure/figure.hpp"

namespace magic {

std::string FigureFamily::echo(const nlohmann::json& problem) {
  if (!problem.contains("figure") || !problem.at("figure").is_object()) return "";  // the plain echo
  const nlohmann::json& f = problem.at("figure");
  std::string s = "figure " + f.value("name", std::string("?")) + " points=" + std::to_string(f.at("points").size()) +
                  " lines=" + std::to_string(f.at("lines").size()) + " numbers=" + f.value("numbers", std::string("?"));
  if (f.contains("sum")) s += " sum=" + f.at("sum").dump();
  s += " equal_lines=" + problem.value("equal_lines", nlohmann::json()).dump();
  if (problem.contains("group"))
    s += " group=" + problem.at("group").value("source", std::string("?")) + ":" +
         problem.at("group").value("order", nlohmann::json()).dump();
  if (problem.contains("symmetry_breaking")) s += " symmetry_breaking=" + problem.at("symmetry_breaking").dump();
  if (problem.contains("count") && problem.at("count").is_string()) s += " count=" + problem.at("count").get<std::string>();
  return s;
}

// The `figure` subcommand's fields (magic/family_command.hpp); the CLI
// adds the figure file, --list and --show (apps/cmd_figure.cpp).
FamilyCommand FigureFamily::command() {
  FamilyCommand c;
  c.summary =
      "count the magic labellings of any figure of points and lines, read from a file (docs/figures.md) or built "
      "in, up to the figure's symmetry";
  c.options = {
      {.field = "builtin", .flags = "--builtin,-b", .kind = FieldKind::Text,
       .help = "a built-in figure instead of a file (see --list)"},
      {.field = "numbers", .flags = "--numbers", .kind = FieldKind::Text,
       .help = "numbers to choose from, such as 1..12 or 1,2,4,5..9 (default: the figure's)"},
      {.field = "equal_lines", .flags = "--equal-lines,-k", .kind = FieldKind::Int,
       .help = "at least K lines share the common sum; more than half the lines (default: all)",
       .positive_needs = "more than half the lines"},
      {.field = "sum", .flags = "--sum", .kind = FieldKind::Int,
       .help = "fix the common sum (default: the figure's, or every feasible sum)"},
      {.field = "count", .flags = "--count", .kind = FieldKind::On,
       .help = "count without enumerating: join the halves of a ring or chain of lines (no solutions listed; "
               "the digest is the additive one, docs/json.md)"},
      {.field = "memory", .flags = "--memory", .kind = FieldKind::Int, .help = "MiB the counting tables may take "
               "in all (default: half the machine's); a task past it splits into passes", .needs = "--count"},
      {.field = "symmetry_breaking", .flags = "--all-orientations", .kind = FieldKind::Off,
       .help = "enumerate every labelling and keep the canonical ones, instead of symmetry breaking"},
  };
  c.text = SolutionText::PointsAndSums;
  return c;
}

}  // namespace magic
