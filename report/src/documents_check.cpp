#include <cctype>
#include <set>
#include <string>

#include "magic/core/error.hpp"
#include "magic/spec.hpp"
#include "magic/reproduce.hpp"

namespace magic {
namespace {

// Row ids and port names become file names: keep them plain.
bool plain_name(const std::string& s) {
  if (s.empty() || s.size() > 100 || s[0] == '.' || s[0] == '-') return false;
  for (unsigned char c : s)
    if (!(std::isalnum(c) || c == '-' || c == '_' || c == '.')) return false;
  return true;
}

}  // namespace

void validate_documents(const nlohmann::json& d) {
  if (!d.is_object() || !d.contains("rows") || !d.at("rows").is_array())
    throw SpecError("documents data: no \"rows\" array");
  std::set<std::string> ids;
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
    if (!ids.insert(row.at("id").get<std::string>()).second) throw bad("id is used twice");
    field("title", has("title") && row.at("title").is_string(), "a string");
    field("document", has("document") && row.at("document").is_string(), "a string");
    field("counts", has("counts") && row.at("counts").is_object(), "an object");
    field("full_only", !has("full_only") || row.at("full_only").is_boolean(), "true or false");
    field("times", has("times") && row.at("times").is_array(), "a list");
    for (const auto& t : row.at("times"))
      field("times", t.is_object() && t.contains("seconds") && t.at("seconds").is_number() && t.contains("language") &&
                         t.at("language").is_string() && t.contains("hardware") && t.at("hardware").is_string(),
            "a list of {\"seconds\": number, \"language\": string, \"hardware\": string}");
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
    (void)default_stop_after(row.at("spec"));
  }
}

}  // namespace magic
