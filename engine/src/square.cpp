#include "magic/square.hpp"

#include "magic/spec_int.hpp"

namespace magic {

SquareSpec square_spec_from_json(const nlohmann::json& spec) {
  SquareSpec s;
  try {
    s.order = spec_int(spec.at("order"), "square order");
    const std::string kind = spec.value("kind", "magic");
    const auto k = parse_square_kind(kind);
    if (!k) throw SpecError("unknown square kind '" + kind + "' (use " + kSquareKindNames + ")");
    s.kind = *k;
    s.symmetry_breaking = spec.value("symmetry_breaking", true);
  } catch (const nlohmann::json::exception& e) {
    throw SpecError("malformed square spec " + spec.dump() + ": " + e.what());
  }
  validate_square(s.order, s.kind, kSquareMinOrder, kSquareMaxOrder);
  return s;
}

}  // namespace magic
