// Run options by name (magic/run_options.hpp): the one reader the library's
// front ends share, checked against run_limits as the CLI's validators are.
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "magic/core/error.hpp"
#include "magic/core/shard.hpp"
#include "magic/run_options.hpp"

namespace magic {

std::optional<DedupMode> parse_dedup(std::string_view text) {
  if (text == "auto") return DedupMode::Auto;
  if (text == "hash-set") return DedupMode::HashSet;
  return std::nullopt;
}

const OptionRow* option_row(std::string_view name) {
  for (const OptionRow& row : kOptions)
    if (name == row.name) return &row;
  return nullptr;
}

namespace {

// The names Python and the JSON reader take, for an unknown one's message.
std::string json_names() {
  std::string out;
  for (const OptionRow& row : kOptions)
    if (!row.not_in_python) out += (out.empty() ? "" : ", ") + std::string(row.name);
  return out;
}

std::string bound_text(std::int64_t v) { return v == kNoBound ? "2^64-1" : std::to_string(v); }

// A Whole row's value: in [lo, hi], or the row's `unset` (its default).
std::int64_t whole(const nlohmann::json& v, const OptionRow& row) {
  const bool integer = v.is_number_integer() && (v.is_number_unsigned() ? v.get<std::uint64_t>() <= INT64_MAX : true);
  const std::int64_t x = integer ? v.get<std::int64_t>() : 0;
  if (integer && (x == row.unset || (x >= row.lo && x <= row.hi))) return x;
  const std::string unset = row.unset < row.lo ? " (or " + std::to_string(row.unset) + ": the default)" : "";
  throw SpecError(std::string(row.name) + " must be " + bound_text(row.lo) + " .. " + bound_text(row.hi) + unset +
                  ", got " + v.dump());
}

// A Whole row that counts (lo >= 0): with no upper bound, any 64-bit count.
std::uint64_t count(const nlohmann::json& v, const OptionRow& row) {
  if (row.hi == kNoBound && v.is_number_unsigned()) {
    const std::uint64_t x = v.get<std::uint64_t>();
    if (x >= static_cast<std::uint64_t>(row.lo) || x == static_cast<std::uint64_t>(row.unset)) return x;
  }
  return static_cast<std::uint64_t>(whole(v, row));
}

std::string text(const nlohmann::json& v, const OptionRow& row) {
  if (!v.is_string()) throw SpecError(std::string(row.name) + " must be a string, got " + v.dump());
  return v.get<std::string>();
}

double seconds(const nlohmann::json& v, const OptionRow& row) {
  const double x = v.is_number() ? v.get<double>() : -1;
  if (!std::isfinite(x) || x < static_cast<double>(row.lo) || x > static_cast<double>(row.hi))
    throw SpecError(std::string(row.name) + " must be " + std::to_string(row.lo) + ".." + std::to_string(row.hi) +
                    " seconds, got " + v.dump());
  return x;
}

bool flag(const nlohmann::json& v, const OptionRow& row) {
  if (!v.is_boolean()) throw SpecError(std::string(row.name) + " must be true or false, got " + v.dump());
  return v.get<bool>();
}

// One option into ro, its value checked against its row.
void set_option(RunOptions& ro, const OptionRow& row, const nlohmann::json& v) {
  const std::string_view k = row.name;
  if (k == "threads") {
    ro.threads = static_cast<unsigned>(whole(v, row));
  } else if (k == "split_depth") {
    ro.split_depth = static_cast<int>(whole(v, row));
  } else if (k == "split_nodes") {
    ro.split_nodes = count(v, row);
  } else if (k == "adaptive") {
    ro.adaptive = flag(v, row);
  } else if (k == "limit") {
    ro.limit = count(v, row);
  } else if (k == "shard") {
    const std::string s = text(v, row);
    const auto sh = parse_shard(s);
    if (!sh) throw SpecError("shard must be i/m with 0 <= i < m < 2^32, got '" + s + "'");
    ro.shard_index = sh->index;
    ro.shard_count = sh->count;
  } else if (k == "checkpoint") {
    ro.checkpoint = text(v, row);
    if (ro.checkpoint.empty()) throw SpecError("checkpoint needs a file name, got ''");
  } else if (k == "checkpoint_interval") {
    ro.checkpoint_interval = seconds(v, row);
  } else if (k == "dedup") {
    const std::string d = text(v, row);
    const auto mode = parse_dedup(d);
    if (!mode) throw SpecError("dedup must be 'auto' or 'hash-set', got '" + d + "'");
    ro.dedup = *mode;
  } else if (k == "dedup_memory") {
    ro.dedup_memory = static_cast<std::size_t>(whole(v, row)) << 20;  // MiB, as the CLI's --dedup-memory
  } else {
    throw std::logic_error("kOptions row '" + std::string(k) + "' has no setter");
  }
}

}  // namespace

RunOptions run_options_from_json(const nlohmann::json& options) {
  if (!options.is_object()) throw SpecError("run options must be an object, got " + options.dump());
  RunOptions ro;
  for (auto it = options.begin(); it != options.end(); ++it) {
    const OptionRow* row = option_row(it.key());
    if (!row || row->not_in_python)
      throw SpecError("unknown run option '" + it.key() + "' (use " + json_names() + ")");
    set_option(ro, *row, it.value());
  }
  return ro;
}

}  // namespace magic
