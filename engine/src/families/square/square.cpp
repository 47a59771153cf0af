#include "square/square.hpp"

#include "magic/spec_int.hpp"

namespace magic {

namespace {
// A slice's row or column: a list of numbers (checked by the counter).
std::vector<int> line_of(const nlohmann::json& spec, const char* field) {
  std::vector<int> v;
  if (!spec.contains(field)) return v;
  const std::string what = std::string("square ") + field;
  if (!spec.at(field).is_array() || spec.at(field).empty() || spec.at(field).size() > 5)
    throw SpecError(what + " must be a list of 5 numbers");
  for (const auto& x : spec.at(field)) v.push_back(spec_int(x, (what + " value").c_str()));
  return v;
}

void validate_slice(const SquareSpec& s) {
  if ((!s.first_row.empty() || !s.first_column.empty()) &&
      (s.order != 5 || s.kind != SquareKind::Semi || !s.symmetry_breaking))
    throw SpecError("a first_row or first_column slice needs order 5, kind semi and symmetry breaking");
  if (!s.center && s.diagonal.empty()) return;
  if (s.order != 5 || s.kind != SquareKind::Magic || !s.symmetry_breaking)
    throw SpecError("a center or diagonal slice needs order 5, kind magic and symmetry breaking");
  if (!s.center) throw SpecError("a square diagonal slice needs a center");  // the range is checked when read
  if (s.diagonal.empty()) return;
  if (s.diagonal.size() != 8) throw SpecError("square diagonal needs the 8 values beside the centre");
  std::uint32_t seen = 1u << s.center;
  for (int v : s.diagonal) {
    if (v < 1 || v > 25) throw SpecError("square diagonal values must be 1..25, got " + std::to_string(v));
    if (seen >> v & 1) throw SpecError("square diagonal value " + std::to_string(v) + " repeats (or is the centre)");
    seen |= 1u << v;
  }
}
}  // namespace

// Order 5 without symmetry breaking goes to the cell-by-cell solver, which
// walks every orientation: measured with --shard 7/500 on two cores, the
// pandiagonal kind would take about 2 hours, magic and semi far longer.
std::string SquareFamily::too_long(const nlohmann::json& spec) {
  const SquareSpec s = square_spec_from_json(spec);
  if (s.order == 5 && !s.symmetry_breaking && s.kind != SquareKind::Associative)
    return std::string("square order 5 kind ") + to_string(s.kind) +
           " without symmetry breaking would take hours to days (with it: about a minute)";
  return "";
}

bool square_small_handles(const SquareSpec& spec) {
  return (spec.order == 3 || spec.order == 4) && spec.symmetry_breaking && spec.kind != SquareKind::Semi;
}

SquareSpec square_spec_from_json(const nlohmann::json& spec) {
  SquareSpec s;
  check_spec_fields(spec, "square",
                    {"name", "order", "kind", "symmetry_breaking", "center", "diagonal", "first_row", "first_column"});
  try {
    s.order = spec_int(spec.at("order"), "square order");
    const std::string kind = spec.value("kind", "magic");
    const auto k = parse_square_kind(kind);
    if (!k) throw SpecError("unknown square kind '" + kind + "' (use " + kSquareKindNames + ")");
    s.kind = *k;
    s.symmetry_breaking = spec.value("symmetry_breaking", true);
    if (spec.contains("center")) {
      s.center = spec_int(spec.at("center"), "square center");
      if (s.center < 1 || s.center > 25)
        throw SpecError("square center must be 1..25, got " + std::to_string(s.center));
    }
    if (spec.contains("diagonal")) {
      if (!spec.at("diagonal").is_array()) throw SpecError("square diagonal must be an array of 8 values");
      for (const auto& v : spec.at("diagonal")) s.diagonal.push_back(spec_int(v, "square diagonal value"));
    }
    s.first_row = line_of(spec, "first_row");
    s.first_column = line_of(spec, "first_column");
  } catch (const nlohmann::json::exception& e) {
    throw SpecError("malformed square spec " + spec.dump() + ": " + e.what());
  }
  if (s.order == kSquareMostPerfectOrder && s.kind == SquareKind::MostPerfect) {
    if (!s.symmetry_breaking)
      throw SpecError("square order 8 (most-perfect) runs only with symmetry breaking (not every orientation)");
  } else if (s.order > kSquareMaxOrder) {
    throw SpecError("square order must be " + std::to_string(kSquareMinOrder) + ".." + std::to_string(kSquareMaxOrder) +
                    " (or 8 with kind most-perfect), got " + std::to_string(s.order));
  }
  validate_square(s.order, s.kind, kSquareMinOrder, kSquareMostPerfectOrder);
  validate_slice(s);
  return s;
}

// The `square` subcommand (magic/family_command.hpp).
FamilyCommand SquareFamily::command() {
  FamilyCommand c;
  c.summary = "count magic squares of order N (1..N² each once)";
  c.options = {
      {.field = "order", .flags = "--order,-n", .kind = FieldKind::Int,
       .help = "order N, 3..5, or 8 with --kind most-perfect (what finishes, and how long it takes: below)",
       .required = true},
      {.field = "kind", .flags = "--kind", .kind = FieldKind::Choice,
       .help = std::string("constraints: ") + kSquareKindNames, .default_value = "magic"},
      {.field = "symmetry_breaking", .flags = "--all-orientations", .kind = FieldKind::Off,
       .help = "enumerate all 8 orientations and keep the canonical ones, instead of symmetry breaking"},
      {.field = "center", .flags = "--center", .kind = FieldKind::Int,
       .help = "order 5, kind magic: only the squares with this centre value (1..25)"},
      {.field = "first_row", .flags = "--first-row", .kind = FieldKind::IntList,
       .help = "order 5, kind semi: count every square whose first row is these 5 numbers in this order "
               "(no symmetry; e.g. 1,2,13,24,25)"},
      {.field = "first_column", .flags = "--first-column", .kind = FieldKind::IntList,
       .help = "with --first-row: and whose first column is these, starting with the row's first number",
       .needs = "--first-row"},
  };
  c.footer =
      "What finishes, on two cores here (counts up to rotation and reflection):\n"
      "  order 3 and 4: every kind, in under a second\n"
      "  order 5: magic about 50 s, semi about 15 s, pandiagonal about 3 s, associative under a second;\n"
      "  order 8: most-perfect only, under a second (368,640 squares)\n"
      "  order 5 with --all-orientations: associative (1 s); magic, semi and pandiagonal would take hours\n"
      "    to days and are refused whole: give --limit N or --shard i/m to run a part";
  c.text = SolutionText::Grid;
  return c;
}

}  // namespace magic
