#include <algorithm>
#include <cctype>

#include "magic/core/error.hpp"
#include "magic/io.hpp"
#include "rules.hpp"

namespace magic::checker {

std::unique_ptr<Rules> make_rules(const nlohmann::json& problem) {
  if (!problem.is_object()) throw SpecError("\"problem\" is not an object");
  const std::string name = string_field(problem, "name", "problem", "");
  if (name == "square" || name == "complete") return make_grid_rules(problem);
  if (name == "star") return make_star_rules(problem);
  if (name == "circle") return make_circle_rules(problem);
  if (name == "figure") return make_figure_rules(problem);
  if (name == "graph") return make_graph_rules(problem);
  throw SpecError("unknown problem '" + name + "' (the checker knows square, star, circle, complete, figure, graph)");
}

namespace {
int parse_number(const std::string& t, const std::string& text) {
  if (t.empty() || t.size() > 6 || !std::all_of(t.begin(), t.end(), [](unsigned char c) { return std::isdigit(c); }))
    throw SpecError("problem.numbers '" + text + "': expected numbers like 1..12 or 1,2,4");
  const int v = std::stoi(t);
  if (v < 1 || v > kMaxValue) throw SpecError("problem.numbers '" + text + "': numbers must be 1.." + std::to_string(kMaxValue));
  return v;
}

std::string trim(std::string s) {
  while (!s.empty() && s.front() == ' ') s.erase(s.begin());
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}
}  // namespace

std::set<int> parse_numbers_text(const std::string& text) {
  std::set<int> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = text.find(',', start);
    const std::string item = trim(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    const std::size_t dots = item.find("..");
    const int a = parse_number(dots == std::string::npos ? item : item.substr(0, dots), text);
    const int b = dots == std::string::npos ? a : parse_number(item.substr(dots + 2), text);
    if (a > b) throw SpecError("problem.numbers '" + text + "': empty range");
    for (int v = a; v <= b; ++v)
      if (!out.insert(v).second) throw SpecError("problem.numbers '" + text + "': " + std::to_string(v) + " twice");
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

std::string format_numbers(const std::set<int>& v) {
  if (v.size() > 2 && *v.rbegin() - *v.begin() + 1 == static_cast<int>(v.size()))
    return std::to_string(*v.begin()) + ".." + std::to_string(*v.rbegin());
  std::string s;
  for (int x : v) {
    if (!s.empty()) s += ',';
    s += std::to_string(x);  // (not "," + to_string: GCC 12 warns falsely, PR 105651)
  }
  return s;
}

bool check_numbers(const std::vector<int>& pts, const std::set<int>& numbers, std::string& why) {
  std::set<int> seen;
  for (int v : pts) {
    if (!numbers.count(v)) {
      why = "number " + std::to_string(v) + " is not among the numbers " + format_numbers(numbers);
      return false;
    }
    if (!seen.insert(v).second) {
      why = "number " + std::to_string(v) + " is used twice";
      return false;
    }
  }
  return true;
}

std::vector<int> line_sums(const std::vector<int>& pts, const std::vector<std::vector<int>>& lines) {
  std::vector<int> sums;
  for (const auto& l : lines) {
    int s = 0;
    for (int p : l) s += pts[static_cast<std::size_t>(p)];
    sums.push_back(s);
  }
  return sums;
}

std::optional<int> common_sum(const std::vector<int>& sums, int k, std::optional<std::int64_t> fixed, std::string& why) {
  int best = 0, best_count = 0;
  for (int s : sums) {
    const int c = static_cast<int>(std::count(sums.begin(), sums.end(), s));
    if (c > best_count) best = s, best_count = c;
  }
  if (best_count < k) {
    why = "at most " + std::to_string(best_count) + " lines share a sum, " + std::to_string(k) + " must";
    return std::nullopt;
  }
  if (fixed && best != *fixed) {
    why = "the common sum is " + std::to_string(best) + ", not the required " + std::to_string(*fixed);
    return std::nullopt;
  }
  return best;
}

bool check_sum_fields(const nlohmann::json& sol, int common, const std::vector<int>& sums, std::string& why) {
  if (sol.contains("sum") && sol.at("sum") != nlohmann::json(common)) {
    why = "\"sum\" says " + utf8_prefix(sol.at("sum").dump(), 24) + ", the common sum is " + std::to_string(common);
    return false;
  }
  if (sol.contains("line_sums") && sol.at("line_sums") != nlohmann::json(sums)) {
    why = "\"line_sums\" say " + utf8_prefix(sol.at("line_sums").dump(), 80) + ", the lines sum to " +
          nlohmann::json(sums).dump();
    return false;
  }
  return true;
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
      why = "expected a whole number, got " + utf8_prefix(x.dump(), 24);
      return std::nullopt;
    }
    // Unsigned values beyond int64 compare as too large, not as negatives.
    const bool huge = x.is_number_unsigned() && x.get<std::uint64_t>() > static_cast<std::uint64_t>(hi);
    const std::int64_t v = huge ? hi + 1 : x.get<std::int64_t>();
    if (v < lo || v > hi) {
      why = "number " + utf8_prefix(x.dump(), 24) + " is outside " + std::to_string(lo) + ".." + std::to_string(hi);
      return std::nullopt;
    }
    out.push_back(static_cast<int>(v));
  }
  return out;
}

}  // namespace magic::checker
