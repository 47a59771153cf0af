#pragma once
// The checker's view of a problem: how to judge one solution as written in
// a result file, and how to put it in the engine's canonical byte form.
// Internal to the checker; one implementation per problem family.
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace magic::checker {

// What the checker learns from one solution.
struct Judged {
  std::string error;                // empty: valid; else why not (one line, no index)
  std::string canonical;            // the bytes the engine hashes for it (canonical form)
  std::uint64_t orbit = 1;          // distinct images under the symmetry group (or squares of its class)
  std::uint64_t unique = 1;         // unique solutions it stands for (a class of squares: more)
  std::optional<std::int64_t> key;  // counts.by_key entry (stars: the common sum)
};

class Rules {
 public:
  virtual ~Rules() = default;
  // "square order=4 kind=magic": the problem as the summary names it.
  virtual std::string name() const = 0;
  virtual Judged judge(const nlohmann::json& solution) const = 0;
  // False for a problem without symmetry (complete): the engine writes no counts.total.
  virtual bool has_total() const { return true; }
  // Name of the by-key map in counts ("by_sum"), or empty.
  virtual std::string by_key() const { return ""; }
  // Checks top-level fields a family adds beside the counts (the star's
  // "lines"); returns "" or what disagrees.
  virtual std::string check_extra(const nlohmann::json& /*result*/) const { return ""; }
};

// The rules for the "problem" object of a result file; throws SpecError for
// an unknown or malformed problem.
std::unique_ptr<Rules> make_rules(const nlohmann::json& problem);
std::unique_ptr<Rules> make_grid_rules(const nlohmann::json& problem);  // square, complete
std::unique_ptr<Rules> make_star_rules(const nlohmann::json& problem);
std::unique_ptr<Rules> make_circle_rules(const nlohmann::json& problem);
std::unique_ptr<Rules> make_figure_rules(const nlohmann::json& problem);
std::unique_ptr<Rules> make_graph_rules(const nlohmann::json& problem);

// ---- shared helpers (rules_common.cpp) -----------------------------------

// The largest number a star or figure may hold (16-bit values).
inline constexpr int kMaxValue = 65535;
// "1..12", "1,2,4", "1..5,8": the number lists the engine writes; throws
// SpecError naming problem.numbers.  format_numbers writes them back.
std::set<int> parse_numbers_text(const std::string& text);
std::string format_numbers(const std::set<int>& v);

// Lines of numbers (stars, figures): the values `pts` by point are
// distinct members of `numbers`; the sums of the lines (point lists); the
// sum at least k > half of them share (and `fixed`, if given); the
// solution's own "sum" and "line_sums", when written, right.  Each false or
// nullopt says why.
bool check_numbers(const std::vector<int>& pts, const std::set<int>& numbers, std::string& why);
std::vector<int> line_sums(const std::vector<int>& pts, const std::vector<std::vector<int>>& lines);
std::optional<int> common_sum(const std::vector<int>& sums, int k, std::optional<std::int64_t> fixed, std::string& why);
bool check_sum_fields(const nlohmann::json& sol, int common, const std::vector<int>& sums, std::string& why);

// A permutation of positions: image[c] = values[perm[c]].
using Perm = std::vector<int>;

struct Orbit {
  std::vector<int> least;  // the lexicographically least image
  std::uint64_t size = 0;  // number of distinct images
};
// The least image and the orbit size of `values` under the group `perms`
// (which must contain the identity and be closed: the images are the orbit).
Orbit orbit_of(const std::vector<int>& values, const std::vector<Perm>& perms);

// Byte encodings of a canonical form, as the engine lays out its solution
// arrays in memory: one byte per value, or 16-bit little-endian values
// zero-padded to `slots` entries.
std::string bytes_u8(const std::vector<int>& values);
std::string bytes_u16le(const std::vector<int>& values, std::size_t slots);

// Checked reads of JSON written by someone else: they throw SpecError naming
// `what` instead of letting a nlohmann type error escape.
std::int64_t int_field(const nlohmann::json& obj, const std::string& key, const std::string& what);
std::optional<std::int64_t> optional_int(const nlohmann::json& obj, const std::string& key, const std::string& what);
std::string string_field(const nlohmann::json& obj, const std::string& key, const std::string& what,
                         const std::string& fallback);

// A list of whole numbers (a solution's content): nullopt plus `why` if `j`
// is not an array of `size` integers within [lo, hi].
std::optional<std::vector<int>> int_list(const nlohmann::json& j, std::size_t size, std::int64_t lo, std::int64_t hi,
                                         std::string& why);

}  // namespace magic::checker
