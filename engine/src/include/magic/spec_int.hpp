#pragma once
// Whole numbers in a problem spec.  nlohmann's get<int>() casts a float
// (undefined behaviour for 1e300) and wraps an integer that does not fit
// (4294967299 would be read as 3), so spec readers use this instead.
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "magic/core/error.hpp"

namespace magic {

inline int spec_int(const nlohmann::json& v, const std::string& what) {
  constexpr std::int64_t lo = std::numeric_limits<int>::min(), hi = std::numeric_limits<int>::max();
  if (v.is_number_unsigned() && v.get<std::uint64_t>() <= static_cast<std::uint64_t>(hi))
    return static_cast<int>(v.get<std::uint64_t>());
  if (v.is_number_integer() && !v.is_number_unsigned() && v.get<std::int64_t>() >= lo && v.get<std::int64_t>() <= hi)
    return static_cast<int>(v.get<std::int64_t>());
  throw SpecError(what + " must be a whole number of at most 10 digits, got " + v.dump());
}

// A field the family does not read is a mistake (a typo would otherwise
// be ignored): SpecError naming it and the fields there are.  `known`
// holds the fields a result file's problem echoes too.
inline void check_spec_fields(const nlohmann::json& spec, const std::string& family,
                              std::initializer_list<const char*> known) {
  if (!spec.is_object()) throw SpecError(family + " spec must be a JSON object, got " + spec.dump());
  for (const auto& [key, v] : spec.items()) {
    bool ok = false;
    for (const char* k : known) ok = ok || key == k;
    if (ok) continue;
    std::string list;
    for (const char* k : known)
      if (std::string(k) != "name") list += (list.empty() ? "" : ", ") + std::string(k);
    throw SpecError(family + ": unknown spec field \"" + key + "\" (its fields: " + list + ")");
  }
}

inline std::vector<int> spec_ints(const nlohmann::json& v, const std::string& what) {
  if (!v.is_array()) throw SpecError(what + " must be a list of whole numbers, got " + v.dump());
  std::vector<int> out;
  for (const auto& x : v) out.push_back(spec_int(x, what));
  return out;
}

}  // namespace magic
