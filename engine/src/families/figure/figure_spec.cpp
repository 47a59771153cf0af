// Figure files: reading, checking and writing them back (figure_spec.hpp).
#include "figure/figure_spec.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "magic/core/error.hpp"
#include "magic/io.hpp"
#include "magic/spec_int.hpp"
#include "star/star_tables.hpp"  // parse_star_numbers, format_star_numbers

namespace magic {
namespace {

constexpr std::size_t kMaxNameLength = 40;

[[noreturn]] void fail(const std::string& what, const std::string& why) { throw SpecError(what + ": " + why); }

std::string in_quotes(const std::string& s) {
  std::string q = "'";  // built up: "'" + a temporary makes GCC 12 warn falsely (PR 105651)
  q += utf8_prefix(s, 4 * kMaxNameLength + 8);
  q += '\'';
  return q;
}

FigurePoint read_point(const nlohmann::json& j, std::size_t i, const std::string& what) {
  const std::string at = "point " + std::to_string(i + 1);
  FigurePoint p;
  if (j.is_string()) {
    p.name = j.get<std::string>();
  } else if (j.is_object()) {
    if (!j.contains("name") || !j.at("name").is_string()) fail(what, at + " needs a \"name\"");
    p.name = j.at("name").get<std::string>();
    for (const auto& [key, v] : j.items())
      if (key != "name" && key != "x" && key != "y" && key != "z")
        fail(what, at + " (" + in_quotes(p.name) + ") has an unknown field " + in_quotes(key) + " (use name, x, y, z)");
    const bool any = j.contains("x") || j.contains("y") || j.contains("z");
    if (any) {
      std::array<double, 3> xyz{};
      const char* axes[] = {"x", "y", "z"};
      for (int a = 0; a < 3; ++a) {
        if (!j.contains(axes[a])) {
          if (a == 2) continue;
          fail(what, at + " (" + in_quotes(p.name) + ") has coordinates but no " + axes[a]);
        }
        const auto& c = j.at(axes[a]);
        if (!c.is_number() || !std::isfinite(c.get<double>()))
          fail(what, at + " (" + in_quotes(p.name) + "): " + axes[a] + " must be a finite number");
        xyz[a] = c.get<double>();
      }
      p.xyz = xyz;
      p.has_z = j.contains("z");
    }
  } else {
    fail(what, at + " must be a name or an object with a \"name\", got " + utf8_prefix(j.dump(), 40));
  }
  if (p.name.empty()) fail(what, at + " has an empty name");
  if (utf8_length(p.name) > kMaxNameLength)
    fail(what, at + "'s name is longer than " + std::to_string(kMaxNameLength) + " characters");
  return p;
}

std::vector<FigurePoint> read_points(const nlohmann::json& j, const std::string& what) {
  if (!j.is_array() || j.empty()) fail(what, "\"points\" must be a non-empty list of point names");
  if (j.size() > static_cast<std::size_t>(kFigureMaxPoints))
    fail(what, "the figure has " + std::to_string(j.size()) + " points; the engine takes at most " +
                   std::to_string(kFigureMaxPoints));
  std::vector<FigurePoint> out;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < j.size(); ++i) {
    out.push_back(read_point(j[i], i, what));
    if (!seen.insert(out.back().name).second) fail(what, "point " + in_quotes(out.back().name) + " is named twice");
  }
  return out;
}

std::vector<std::vector<int>> read_lines(const nlohmann::json& j, const std::map<std::string, int>& index,
                                         const std::string& what) {
  if (!j.is_array() || j.empty()) fail(what, "\"lines\" must be a non-empty list of lines (lists of point names)");
  if (j.size() > static_cast<std::size_t>(kFigureMaxLines))
    fail(what, "the figure has " + std::to_string(j.size()) + " lines; the engine takes at most " +
                   std::to_string(kFigureMaxLines));
  std::vector<std::vector<int>> out;
  std::map<std::vector<int>, std::size_t> seen;  // sorted points -> line number
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string at = "line " + std::to_string(i + 1);
    if (!j[i].is_array()) fail(what, at + " must be a list of point names");
    if (j[i].empty()) fail(what, at + " is empty");
    std::vector<int> line;
    for (const auto& p : j[i]) {
      if (!p.is_string()) fail(what, at + ": a point is named by a string, got " + utf8_prefix(p.dump(), 40));
      const auto it = index.find(p.get<std::string>());
      if (it == index.end()) fail(what, at + " names an unknown point " + in_quotes(p.get<std::string>()));
      if (std::find(line.begin(), line.end(), it->second) != line.end())
        fail(what, at + " holds point " + in_quotes(it->first) + " twice");
      line.push_back(it->second);
    }
    if (line.size() < 2) fail(what, at + " has one point; a line needs at least two");
    std::vector<int> key = line;
    std::sort(key.begin(), key.end());
    const auto [it, fresh] = seen.emplace(key, i);
    if (!fresh) fail(what, at + " repeats line " + std::to_string(it->second + 1));
    out.push_back(std::move(line));
  }
  return out;
}

std::vector<int> read_numbers(const nlohmann::json& j, const std::string& what) {
  try {
    std::vector<int> v;
    if (j.is_string()) v = parse_star_numbers(j.get<std::string>());
    else if (j.is_array()) v = spec_ints(j, "\"numbers\"");
    else fail(what, "\"numbers\" must be a range such as \"1..19\" or a list of whole numbers");
    std::sort(v.begin(), v.end());
    if (v.empty()) fail(what, "\"numbers\" is empty");
    if (std::adjacent_find(v.begin(), v.end()) != v.end()) fail(what, "\"numbers\" gives a number twice");
    if (v.front() < 1 || v.back() > kStarMaxValue)
      fail(what, "the numbers must be 1.." + std::to_string(kStarMaxValue));
    return v;
  } catch (const SpecError& e) {
    const std::string m = e.what();
    if (m.rfind(what, 0) == 0) throw;
    fail(what, m);
  }
}

void read_symmetry(const nlohmann::json& j, const std::map<std::string, int>& index, FigureSpec& f,
                   const std::string& what) {
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    if (s == "incidence") f.symmetry = FigureSymmetry::Incidence;
    else if (s == "none") f.symmetry = FigureSymmetry::None;
    else fail(what, "unknown \"symmetry\" " + in_quotes(s) + " (use \"incidence\", \"none\" or {\"generators\": [...]})");
    return;
  }
  if (!j.is_object() || !j.contains("generators") || !j.at("generators").is_array() || j.size() != 1)
    fail(what, "\"symmetry\" must be \"incidence\", \"none\" or {\"generators\": [[images of the points], ...]}");
  f.symmetry = FigureSymmetry::Generators;
  const auto& gens = j.at("generators");
  if (gens.size() > 64) fail(what, "more than 64 symmetry generators");
  for (std::size_t g = 0; g < gens.size(); ++g) {
    const std::string at = "symmetry generator " + std::to_string(g + 1);
    if (!gens[g].is_array() || gens[g].size() != f.points.size())
      fail(what, at + " must list the image of each of the " + std::to_string(f.points.size()) + " points");
    std::vector<int> perm;
    std::vector<bool> hit(f.points.size());
    for (const auto& p : gens[g]) {
      const auto it = p.is_string() ? index.find(p.get<std::string>()) : index.end();
      if (it == index.end()) fail(what, at + " names an unknown point " + utf8_prefix(p.dump(), 40));
      if (hit[static_cast<std::size_t>(it->second)]) fail(what, at + " is not a permutation: " + in_quotes(it->first) + " twice");
      hit[static_cast<std::size_t>(it->second)] = true;
      perm.push_back(it->second);
    }
    f.generators.push_back(std::move(perm));
  }
}

// What holds across fields: every point on a line, enough numbers, K in range.
void check_whole(const FigureSpec& f, const std::string& what) {
  std::vector<bool> on_line(f.points.size());
  for (const auto& l : f.lines)
    for (int p : l) on_line[static_cast<std::size_t>(p)] = true;
  for (std::size_t p = 0; p < f.points.size(); ++p)
    if (!on_line[p]) fail(what, "point " + in_quotes(f.points[p].name) + " is on no line");
  if (f.numbers.size() < f.points.size())
    fail(what, "the figure has " + std::to_string(f.points.size()) + " points but only " +
                   std::to_string(f.numbers.size()) + " numbers are given");
  if (f.numbers.size() > static_cast<std::size_t>(kFigureMaxNumbers))
    fail(what, std::to_string(f.numbers.size()) + " numbers are given; the engine takes at most " +
                   std::to_string(kFigureMaxNumbers));
  if (f.numbers.back() - f.numbers.front() >= kFigureMaxSpan)
    fail(what, "the numbers must lie within " + std::to_string(kFigureMaxSpan) + " consecutive integers, got " +
                   format_star_numbers(f.numbers));
  if (f.sum && *f.sum < 1) fail(what, "the sum must be positive, got " + std::to_string(*f.sum));
  const int L = f.n_lines();
  if (f.equal_lines != 0 && (f.equal_lines > L || 2 * f.equal_lines <= L))
    fail(what, "the number of equal lines must be " + std::to_string(L / 2 + 1) + ".." + std::to_string(L) +
                   " (more than half the lines, so the common sum is unique), got " + std::to_string(f.equal_lines));
}

}  // namespace

FigureSpec figure_from_file_json(const nlohmann::json& j, const std::string& what) {
  if (!j.is_object()) fail(what, "a figure is a JSON object with \"points\" and \"lines\"");
  static const std::set<std::string> known = {"name",    "description", "points",     "lines",
                                              "numbers", "sum",         "equal_lines", "symmetry"};
  for (const auto& [key, v] : j.items())
    if (!known.count(key))
      fail(what, "unknown field " + in_quotes(key) + " (use name, description, points, lines, numbers, sum, "
                                                  "equal_lines, symmetry)");
  if (!j.contains("points")) fail(what, "\"points\" is missing");
  if (!j.contains("lines")) fail(what, "\"lines\" is missing");
  FigureSpec f;
  if (j.contains("name")) {
    if (!j.at("name").is_string()) fail(what, "\"name\" must be a string");
    f.name = utf8_prefix(j.at("name").get<std::string>(), 64);
  }
  if (f.name.empty()) f.name = "figure";
  if (j.contains("description")) {
    if (!j.at("description").is_string()) fail(what, "\"description\" must be a string");
    f.description = utf8_prefix(j.at("description").get<std::string>(), 400);
  }
  f.points = read_points(j.at("points"), what);
  std::map<std::string, int> index;
  for (std::size_t i = 0; i < f.points.size(); ++i) index[f.points[i].name] = static_cast<int>(i);
  f.lines = read_lines(j.at("lines"), index, what);
  if (j.contains("numbers")) {
    f.numbers = read_numbers(j.at("numbers"), what);
  } else {
    for (int v = 1; v <= f.n_points(); ++v) f.numbers.push_back(v);
  }
  try {
    if (j.contains("sum") && !j.at("sum").is_null()) f.sum = spec_int(j.at("sum"), "\"sum\"");
    if (j.contains("equal_lines")) {
      f.equal_lines = spec_int(j.at("equal_lines"), "\"equal_lines\"");
      // 0 stands for "all lines" inside, but written it is a count, as
      // the CLI's --equal-lines 0 is: refused.
      if (f.equal_lines < 1) throw SpecError("\"equal_lines\" must be more than half the lines, got " +
                                             std::to_string(f.equal_lines));
    }
  } catch (const SpecError& e) {
    fail(what, e.what());
  }
  if (j.contains("symmetry")) read_symmetry(j.at("symmetry"), index, f, what);
  check_whole(f, what);
  return f;
}

nlohmann::json figure_file_json(const FigureSpec& f) {
  nlohmann::json pts = nlohmann::json::array();
  for (const auto& p : f.points) {
    if (!p.xyz) {
      pts.push_back(p.name);
      continue;
    }
    nlohmann::json o{{"name", p.name}, {"x", (*p.xyz)[0]}, {"y", (*p.xyz)[1]}};
    if (p.has_z) o["z"] = (*p.xyz)[2];
    pts.push_back(std::move(o));
  }
  auto names = [&](const std::vector<int>& idx) {
    nlohmann::json out = nlohmann::json::array();
    for (int p : idx) out.push_back(f.points[static_cast<std::size_t>(p)].name);
    return out;
  };
  nlohmann::json lines = nlohmann::json::array();
  for (const auto& l : f.lines) lines.push_back(names(l));
  nlohmann::json j{{"name", f.name}, {"points", pts}, {"lines", lines}, {"numbers", format_star_numbers(f.numbers)}};
  if (!f.description.empty()) j["description"] = f.description;
  if (f.sum) j["sum"] = *f.sum;
  if (f.equal_lines && f.equal_lines != f.n_lines()) j["equal_lines"] = f.equal_lines;
  if (f.symmetry == FigureSymmetry::None) j["symmetry"] = "none";
  if (f.symmetry == FigureSymmetry::Generators) {
    nlohmann::json gens = nlohmann::json::array();
    for (const auto& g : f.generators) gens.push_back(names(g));
    j["symmetry"] = {{"generators", gens}};
  }
  return j;
}

FigureSpec figure_spec_from_json(const nlohmann::json& spec) {
  const std::string what = "figure";
  // "group" is what a result file's problem adds (the group found); it is
  // found again from the figure.
  check_spec_fields(spec, what, {"name", "figure", "builtin", "numbers", "sum", "equal_lines", "symmetry_breaking", "group",
                                  "count", "memory"});
  const bool has_builtin = spec.contains("builtin"), has_figure = spec.contains("figure");
  if (!has_builtin && !has_figure) fail(what, "the spec needs a \"figure\" or a \"builtin\" name");
  std::string builtin;
  if (has_builtin) {
    if (!spec.at("builtin").is_string()) fail(what, "\"builtin\" must be a name");
    builtin = spec.at("builtin").get<std::string>();
  }
  // With both (a result file's problem), the figure as written is the one.
  nlohmann::json file = has_figure ? spec.at("figure") : builtin_figure(builtin);
  // The spec's own fields override the file's.
  if (file.is_object())
    for (const char* key : {"numbers", "sum", "equal_lines"})
      if (spec.contains(key)) {
        if (spec.at(key).is_null()) file.erase(key);
        else file[key] = spec.at(key);
      }
  FigureSpec f = figure_from_file_json(file, builtin.empty() ? what : "figure " + builtin);
  f.builtin = builtin;
  if (spec.contains("symmetry_breaking")) {
    if (!spec.at("symmetry_breaking").is_boolean()) fail(what, "\"symmetry_breaking\" must be true or false");
    f.symmetry_breaking = spec.at("symmetry_breaking").get<bool>();
  }
  return f;
}

}  // namespace magic
