#include <algorithm>

#include "magic/core/error.hpp"
#include "rules.hpp"

namespace magic::checker {

std::unique_ptr<Rules> make_rules(const nlohmann::json& problem) {
  if (!problem.is_object()) throw SpecError("\"problem\" is not an object");
  const std::string name = string_field(problem, "name", "problem", "");
  if (name == "square" || name == "complete") return make_grid_rules(problem);
  if (name == "star") return make_star_rules(problem);
  if (name == "circle") return make_circle_rules(problem);
  throw SpecError("unknown problem '" + name + "' (the checker knows square, star, circle, complete)");
}

Orbit orbit_of(const std::vector<int>& values, const std::vector<Perm>& perms) {
  std::vector<std::vector<int>> images;
  images.reserve(perms.size());
  for (const Perm& p : perms) {
    std::vector<int> img(values.size());
    for (std::size_t c = 0; c < values.size(); ++c) img[c] = values[static_cast<std::size_t>(p[c])];
    images.push_back(std::move(img));
  }
  std::sort(images.begin(), images.end());
  Orbit o;
  o.size = static_cast<std::uint64_t>(std::unique(images.begin(), images.end()) - images.begin());
  o.least = images.front();
  return o;
}

std::string bytes_u8(const std::vector<int>& values) {
  std::string out;
  for (int v : values) out.push_back(static_cast<char>(static_cast<std::uint8_t>(v)));
  return out;
}

std::string bytes_u16le(const std::vector<int>& values, std::size_t slots) {
  std::string out(2 * slots, '\0');
  for (std::size_t i = 0; i < values.size() && i < slots; ++i) {
    const auto v = static_cast<std::uint16_t>(values[i]);
    out[2 * i] = static_cast<char>(v & 0xff);
    out[2 * i + 1] = static_cast<char>(v >> 8);
  }
  return out;
}

std::int64_t int_field(const nlohmann::json& obj, const std::string& key, const std::string& what) {
  const auto v = optional_int(obj, key, what);
  if (!v) throw SpecError(what + " has no \"" + key + "\"");
  return *v;
}

std::optional<std::int64_t> optional_int(const nlohmann::json& obj, const std::string& key,
                                         const std::string& what) {
  if (!obj.is_object() || !obj.contains(key) || obj.at(key).is_null()) return std::nullopt;
  const nlohmann::json& v = obj.at(key);
  if (v.is_number_unsigned()) {
    if (v.get<std::uint64_t>() > std::uint64_t{1} << 62) throw SpecError(what + "." + key + " is out of range");
    return static_cast<std::int64_t>(v.get<std::uint64_t>());
  }
  if (v.is_number_integer()) return v.get<std::int64_t>();
  throw SpecError(what + "." + key + " is not a whole number (got " + v.type_name() + ")");
}

std::string string_field(const nlohmann::json& obj, const std::string& key, const std::string& what,
                         const std::string& fallback) {
  if (!obj.is_object() || !obj.contains(key)) {
    if (!fallback.empty()) return fallback;
    throw SpecError(what + " has no \"" + key + "\"");
  }
  const nlohmann::json& v = obj.at(key);
  if (!v.is_string()) throw SpecError(what + "." + key + " is not a string (got " + v.type_name() + ")");
  return v.get<std::string>();
}

std::optional<std::vector<int>> int_list(const nlohmann::json& j, std::size_t size, std::int64_t lo, std::int64_t hi,
                                         std::string& why) {
  if (!j.is_array()) {
    why = std::string("expected a list of ") + std::to_string(size) + " numbers, got " + j.type_name();
    return std::nullopt;
  }
  if (j.size() != size) {
    why = "expected " + std::to_string(size) + " numbers, got " + std::to_string(j.size());
    return std::nullopt;
  }
  std::vector<int> out;
  for (const nlohmann::json& x : j) {
    if (!x.is_number_integer()) {
      why = "expected a whole number, got " + x.dump().substr(0, 24);
      return std::nullopt;
    }
    // Unsigned values beyond int64 compare as too large, not as negatives.
    const bool huge = x.is_number_unsigned() && x.get<std::uint64_t>() > static_cast<std::uint64_t>(hi);
    const std::int64_t v = huge ? hi + 1 : x.get<std::int64_t>();
    if (v < lo || v > hi) {
      why = "number " + x.dump().substr(0, 24) + " is outside " + std::to_string(lo) + ".." + std::to_string(hi);
      return std::nullopt;
    }
    out.push_back(static_cast<int>(v));
  }
  return out;
}

}  // namespace magic::checker
