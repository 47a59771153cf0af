#include <cctype>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "magic/core/error.hpp"
#include "magic/spec.hpp"
#include "report/reproduce.hpp"

namespace magic {
namespace {

// Row ids and port names become file names: keep them plain.
bool plain_name(const std::string& s) {
  if (s.empty() || s.size() > 100 || s[0] == '.' || s[0] == '-') return false;
  for (unsigned char c : s)
    if (!(std::isalnum(c) || c == '-' || c == '_' || c == '.')) return false;
  return true;
}

// A count as the documents give it: a whole number, or (by_sum) an object of
// whole numbers.  "6", -6 and 2^64 (read as a float) are none.
bool count_value(const nlohmann::json& v) {
  if (v.is_number_unsigned()) return true;
  if (!v.is_object() || v.empty()) return false;
  for (const auto& [key, n] : v.items())
    if (!n.is_number_unsigned()) return false;
  return true;
}

// The files a row writes in the report's directory.
std::vector<std::string> row_files(const std::string& id) { return {id + ".json", id + ".svg", id + ".grid.json"}; }

}  // namespace

void validate_documents(const nlohmann::json& d) {
  if (!d.is_object() || !d.contains("rows") || !d.at("rows").is_array())
    throw SpecError("documents data: no \"rows\" array");
  std::set<std::string> ids;
  std::set<std::string> files(kReportFiles.begin(), kReportFiles.end());
  const auto& rows = d.at("rows");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& row = rows[i];
    const std::string at = "documents data, row " + std::to_string(i + 1);
    auto bad = [&](const std::string& why) { return SpecError(at + ": " + why); };
    if (!row.is_object()) throw bad("not an object");
    auto field = [&](const char* key, bool ok, const char* what) {
      if (!ok) throw bad(std::string("\"") + key + "\" must be " + what);
    };
    auto has = [&](const char* key) { return row.contains(key); };
    field("id", has("id") && row.at("id").is_string() && plain_name(row.at("id").get<std::string>()),
          "a plain file name (letters, digits, '-', '_', '.')");
    const std::string id = row.at("id").get<std::string>();
    if (!ids.insert(id).second) throw bad("id is used twice");
    for (const std::string& file : row_files(id))
      if (!files.insert(file).second)
        throw bad("id \"" + id + "\" would write " + file + ", which the report or another row writes");
    field("title", has("title") && row.at("title").is_string(), "a string");
    field("document", has("document") && row.at("document").is_string(), "a string");
    field("counts", has("counts") && row.at("counts").is_object() && !row.at("counts").empty(), "an object");
    for (const auto& [key, v] : row.at("counts").items())
      if (!count_value(v))
        throw bad("counts." + key + " must be a whole number from 0 to 2^64 - 1 (or an object of them), got " +
                  v.dump());
    field("full_only", !has("full_only") || row.at("full_only").is_boolean(), "true or false");
    field("times", has("times") && row.at("times").is_array(), "a list");
    for (const auto& t : row.at("times"))
      field("times", t.is_object() && t.contains("seconds") && t.at("seconds").is_number() &&
                         std::isfinite(t.at("seconds").get<double>()) && t.at("seconds").get<double>() > 0 &&
                         t.contains("language") &&
                         t.at("language").is_string() && t.contains("hardware") && t.at("hardware").is_string(),
            "a list of {\"seconds\": a number above 0, \"language\": string, \"hardware\": string}");
    if (has("baseline")) {
      const auto& b = row.at("baseline");
      field("baseline", b.is_object(), "an object");
      field("baseline.program",
            b.contains("program") && b.at("program").is_string() && plain_name(b.at("program").get<std::string>()),
            "a plain program name");
      field("baseline.args", b.contains("args") && b.at("args").is_array(), "a list of strings");
      for (const auto& a : b.at("args")) field("baseline.args", a.is_string(), "a list of strings");
      const bool when_ok = !b.contains("when") || (b.at("when").is_string() && (b.at("when") == "quick" ||
                                                                                 b.at("when") == "full" ||
                                                                                 b.at("when") == "all"));
      field("baseline.when", when_ok, "quick, full or all");
    }
    // The spec is read the way the run will read it; that throws SpecError.
    field("spec", has("spec") && row.at("spec").is_object(), "an object");
    (void)describe_spec(row.at("spec"));
    (void)default_limit(row.at("spec"));
  }
}

}  // namespace magic
