// verify(): reads a result file, judges its solutions with the problem's
// rules (rules_*.cpp) and recomputes its figures.  See checker/checker.hpp.
#include "checker/checker.hpp"

#include <cctype>
#include <charconv>
#include <cstdio>
#include <memory>
#include <optional>
#include <map>
#include <unordered_map>

#include <xxhash.h>

#include "lines.hpp"
#include "magic/core/error.hpp"
#include "magic/io.hpp"
#include "rules.hpp"

namespace magic::checker {
namespace {

// A result with every solution inline can be large (square 4 semi: ~4 MB);
// bigger listings belong in a solutions file, which streams.
constexpr std::size_t kMaxResultBytes = std::size_t{1} << 30;  // docs/json.md's limit for verify
constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;
constexpr std::size_t kMaxDepth = 64;

// The digest, as docs/json.md defines it: XXH3-128 of each canonical form,
// the two 64-bit lanes added mod 2^64, written as 32 hex digits, high lane
// first.
struct LaneSum {
  std::uint64_t lo = 0, hi = 0;
  void add(const std::string& bytes) {
    const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
    lo += h.low64;
    hi += h.high64;
  }
  std::string hex() const {
    char buf[33];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(hi),
                  static_cast<unsigned long long>(lo));
    return buf;
  }
};

// The figures a result file states.
struct Stated {
  std::uint64_t unique = 0;
  std::optional<std::uint64_t> total;
  std::map<std::int64_t, std::uint64_t> by_key;
  std::string digest;  // lower-case hex
  bool exhaustive = true;
};

// The same figures recomputed from the listed solutions.
struct Tally {
  std::uint64_t listed = 0;
  std::uint64_t unique = 0;  // what the listed stand for (more than listed for classes)
  std::uint64_t total = 0;
  std::map<std::int64_t, std::uint64_t> by_key;
  LaneSum digest;
  std::unordered_map<std::string, std::uint64_t> first;  // canonical form -> solution number
};

std::uint64_t count_value(const nlohmann::json& v, const std::string& what) {
  if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0))
    throw SpecError(what + " is not a count (got " + utf8_prefix(v.dump(), 24) + ")");
  return v.get<std::uint64_t>();
}

std::map<std::int64_t, std::uint64_t> read_by_key(const nlohmann::json& counts, const std::string& name) {
  const std::string what = "counts." + name;
  if (!counts.contains(name) || !counts.at(name).is_object()) throw SpecError(what + " is missing or not an object");
  std::map<std::int64_t, std::uint64_t> out;
  for (const auto& [k, v] : counts.at(name).items()) {
    std::int64_t key = 0;
    const auto [end, ec] = std::from_chars(k.data(), k.data() + k.size(), key);
    if (ec != std::errc{} || end != k.data() + k.size()) throw SpecError(what + " has a key that is not a number: " + utf8_prefix(k, 24));
    out[key] = count_value(v, what + "[" + k + "]");
  }
  return out;
}

// Into `d`, not returned: GCC 12 warns falsely on moving the result into
// place (-Warray-bounds).
void read_digest(const nlohmann::json& result, std::string& d) {
  if (!result.contains("digest") || !result.at("digest").is_string()) throw SpecError("\"digest\" is missing or not a string");
  d.assign(result.at("digest").get_ref<const std::string&>());
  for (char& c : d) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (d.size() != 32 || d.find_first_not_of("0123456789abcdef") != std::string::npos)
    throw SpecError("\"digest\" is not 32 hex digits");
}

Stated read_stated(const nlohmann::json& result, const Rules& rules) {
  Stated s;
  // A counting run's digest adds over points, not over solutions, and it
  // lists no solution: there is nothing here to recompute it from.
  if (result.contains("digest_kind") && result.at("digest_kind") != "solutions")
    throw SpecError("this result was counted without enumerating (digest_kind " + result.at("digest_kind").dump() +
                    "): it lists no solutions to check; compare its counts and digest with an enumeration's "
                    "counts and additive_digest instead");
  if (!result.contains("counts") || !result.at("counts").is_object()) throw SpecError("\"counts\" is missing or not an object");
  const nlohmann::json& counts = result.at("counts");
  if (!counts.contains("unique")) throw SpecError("counts has no \"unique\"");
  s.unique = count_value(counts.at("unique"), "counts.unique");
  if (rules.has_total()) {
    if (!counts.contains("total")) throw SpecError("counts has no \"total\"");
    s.total = count_value(counts.at("total"), "counts.total");
  }
  if (!rules.by_key().empty()) s.by_key = read_by_key(counts, rules.by_key());
  read_digest(result, s.digest);
  if (!result.contains("exhaustive") || !result.at("exhaustive").is_boolean())
    throw SpecError("\"exhaustive\" is missing or not true/false");
  s.exhaustive = result.at("exhaustive").get<bool>();
  return s;
}

// Judges one solution and adds it to the tally; returns "" or the failure.
std::string take(const Rules& rules, const nlohmann::json& sol, const std::string& where, Tally& t) {
  const std::uint64_t number = ++t.listed;
  Judged j = rules.judge(sol);
  if (!j.error.empty()) return where + " is not a valid solution: " + j.error;
  const auto [it, fresh] = t.first.emplace(std::move(j.canonical), number);
  if (!fresh)
    return where + " is the same as solution " + std::to_string(it->second) +
           (rules.has_total() ? " up to rotation and reflection" : "");
  if (__builtin_add_overflow(t.total, j.orbit, &t.total) || __builtin_add_overflow(t.unique, j.unique, &t.unique))
    throw SpecError("the listed solutions count past 2^64 - 1");  // checked: no count wraps
  t.digest.add(it->first);
  if (j.key) ++t.by_key[*j.key];
  return "";
}

std::string solutions(std::uint64_t k) { return std::to_string(k) + (k == 1 ? " solution" : " solutions"); }

std::string solution_name(std::uint64_t number) { return "solution " + std::to_string(number); }

// The solutions listed inline, under "solutions".
std::string take_inline(const Rules& rules, const nlohmann::json& list, Tally& t) {
  for (const nlohmann::json& sol : list)
    if (std::string bad = take(rules, sol, solution_name(t.listed + 1), t); !bad.empty()) return bad;
  return "";
}

// The solutions of a JSON Lines file; when the result lists them inline
// too (a run with both --json and --solutions-file), the two must agree.
std::string take_lines(const Rules& rules, const std::string& path, const nlohmann::json* inline_list, Tally& t) {
  LineReader in(path, kMaxLineBytes);
  std::string text;
  while (in.next(text)) {
    const std::uint64_t n = in.line_number();
    const std::string where = solution_name(n) + " (line " + std::to_string(n) + " of " + path + ")";
    const nlohmann::json sol = parse_json(text, path + " line " + std::to_string(n), {kMaxDepth, kMaxLineBytes});
    if (inline_list && (n > inline_list->size() || (*inline_list)[n - 1] != sol))
      return where + " differs from solution " + std::to_string(n) + " of the result file";
    if (std::string bad = take(rules, sol, where, t); !bad.empty()) return bad;
  }
  if (inline_list && t.listed != inline_list->size())
    return path + " has " + solutions(t.listed) + ", the result file lists " + std::to_string(inline_list->size());
  return "";
}

std::string differs(const std::string& what, const std::string& stated, const std::string& recomputed) {
  return what + " is " + stated + ", the listed solutions give " + recomputed;
}

std::string compare_by_key(const std::string& name, const Stated& s, const Tally& t) {
  auto show = [](const std::map<std::int64_t, std::uint64_t>& m, std::int64_t k) {
    const auto it = m.find(k);
    return it == m.end() ? std::string("none") : std::to_string(it->second);
  };
  std::map<std::int64_t, std::uint64_t> keys = s.by_key;
  keys.insert(t.by_key.begin(), t.by_key.end());
  for (const auto& [k, unused] : keys)
    if (show(s.by_key, k) != show(t.by_key, k))
      return differs("counts." + name + "[" + std::to_string(k) + "]", show(s.by_key, k), show(t.by_key, k));
  return "";
}

// Counts and digest, once the listing is known to be complete.
std::string compare_figures(const Rules& rules, const Stated& s, const Tally& t) {
  if (s.total && *s.total != t.total)
    return differs("counts.total", std::to_string(*s.total), std::to_string(t.total));
  if (!rules.by_key().empty())
    if (std::string bad = compare_by_key(rules.by_key(), s, t); !bad.empty()) return bad;
  if (s.digest != t.digest.hex()) return differs("the digest", s.digest, t.digest.hex());
  return "";
}

VerifyReport fail(const std::string& path, const std::string& why) { return {false, path + ": " + why}; }

VerifyReport verify_result(const VerifyOptions& o, const nlohmann::json& result) {
  if (!result.is_object()) throw SpecError("not a result file (expected a JSON object)");
  if (!result.contains("problem")) throw SpecError("not a result file (no \"problem\")");
  const std::unique_ptr<Rules> rules = make_rules(result.at("problem"));
  const Stated stated = read_stated(result, *rules);
  const nlohmann::json* inline_list = nullptr;
  if (result.contains("solutions")) {
    if (!result.at("solutions").is_array()) throw SpecError("\"solutions\" is not a list");
    inline_list = &result.at("solutions");
  }
  if (!inline_list && o.solutions_path.empty())
    throw SpecError("lists no solutions: write it with --solutions all, or pass --solutions-file");

  if (std::string bad = rules->check_extra(result); !bad.empty()) return fail(o.result_path, bad);
  Tally t;
  const std::string bad = o.solutions_path.empty() ? take_inline(*rules, *inline_list, t)
                                                   : take_lines(*rules, o.solutions_path, inline_list, t);
  if (!bad.empty()) return fail(o.result_path, bad);

  const std::string head = "verified: " + rules->name() + ": ";
  const std::string run = stated.exhaustive ? "" : " (the run was not exhaustive)";
  // Classes (order-5 semi) list fewer entries than the solutions they stand for.
  const std::string as =
      t.unique == t.listed ? "" : " (as " + std::to_string(t.listed) + (t.listed == 1 ? " class)" : " classes)");
  if (t.unique > stated.unique || (t.unique < stated.unique && !o.partial))
    return fail(o.result_path, "counts.unique is " + std::to_string(stated.unique) + " but " + solutions(t.unique) +
                                   as + (t.unique == 1 ? " is" : " are") + " listed" +
                                   (t.unique < stated.unique ? " (a listing of --solutions N needs --partial)" : ""));
  if (t.unique < stated.unique)
    return {true, head + std::to_string(t.unique) + " of " + solutions(stated.unique) + " listed" + as +
                      ", valid and distinct; counts and digest not rechecked (--partial)" + run};
  if (std::string wrong = compare_figures(*rules, stated, t); !wrong.empty()) return fail(o.result_path, wrong);
  return {true, head + solutions(t.unique) + as + " valid and distinct; counts and digest agree" + run};
}

}  // namespace

VerifyReport verify(const VerifyOptions& o) {
  const std::string text = read_file(o.result_path, kMaxResultBytes);
  const nlohmann::json result = parse_json(text, o.result_path, {kMaxDepth, kMaxResultBytes});
  try {
    return verify_result(o, result);
  } catch (const InputError&) {
    throw;  // names its own file (the solutions file's lines)
  } catch (const SpecError& e) {
    throw SpecError(o.result_path + ": " + e.what());
  } catch (const nlohmann::json::exception& e) {
    // Every read above is type-checked; this is the backstop that keeps a
    // library type error an input error (exit 2), never an internal one.
    throw InputError(o.result_path + ": unexpected JSON: " + e.what());
  }
}

}  // namespace magic::checker
