#include "magic/square.hpp"

#include "magic/spec_int.hpp"

namespace magic {

namespace {
void validate_slice(const SquareSpec& s) {
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

bool square_small_handles(const SquareSpec& spec) {
  return (spec.order == 3 || spec.order == 4) && spec.symmetry_breaking && spec.kind != SquareKind::Semi;
}

SquareSpec square_spec_from_json(const nlohmann::json& spec) {
  SquareSpec s;
  check_spec_fields(spec, "square", {"name", "order", "kind", "symmetry_breaking", "center", "diagonal"});
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
  } catch (const nlohmann::json::exception& e) {
    throw SpecError("malformed square spec " + spec.dump() + ": " + e.what());
  }
  validate_square(s.order, s.kind, kSquareMinOrder, kSquareMaxOrder);
  validate_slice(s);
  return s;
}

}  // namespace magic
