// Run options by name (magic/run_options.hpp): the one reader the library's
// front ends share, checked against run_limits as the CLI's validators are.
#include <cmath>
#include <cstdint>
#include <string>

#include "magic/core/error.hpp"
#include "magic/core/shard.hpp"
#include "magic/run_options.hpp"

namespace magic {

std::optional<DedupMode> parse_dedup(std::string_view text) {
  if (text == "auto") return DedupMode::Auto;
  if (text == "hash-set") return DedupMode::HashSet;
  return std::nullopt;
}

namespace {

std::int64_t whole(const nlohmann::json& v, const std::string& key, std::int64_t lo, std::int64_t hi,
                   const std::string& range) {
  if (!v.is_number_integer() || v.get<std::int64_t>() < lo || v.get<std::int64_t>() > hi)
    throw SpecError(key + " must be " + range + ", got " + v.dump());
  return v.get<std::int64_t>();
}

std::string text(const nlohmann::json& v, const std::string& key) {
  if (!v.is_string()) throw SpecError(key + " must be a string, got " + v.dump());
  return v.get<std::string>();
}

}  // namespace

RunOptions run_options_from_json(const nlohmann::json& options) {
  if (!options.is_object()) throw SpecError("run options must be an object, got " + options.dump());
  RunOptions ro;
  for (auto it = options.begin(); it != options.end(); ++it) {
    const std::string& k = it.key();
    const nlohmann::json& v = it.value();
    if (k == "threads") {
      ro.threads = static_cast<unsigned>(
          whole(v, k, 0, run_limits::kMaxThreads, "0 (all cores) .. " + std::to_string(run_limits::kMaxThreads)));
    } else if (k == "split_depth") {
      ro.split_depth = static_cast<int>(
          whole(v, k, -1, run_limits::kMaxSplitDepth, "-1 (the default) .. " + std::to_string(run_limits::kMaxSplitDepth)));
    } else if (k == "shard") {
      const std::string s = text(v, k);
      const auto sh = parse_shard(s);
      if (!sh) throw SpecError("shard must be i/m with 0 <= i < m < 2^32, got '" + s + "'");
      ro.shard_index = sh->index;
      ro.shard_count = sh->count;
    } else if (k == "checkpoint") {
      ro.checkpoint = text(v, k);
      if (ro.checkpoint.empty()) throw SpecError("checkpoint needs a file name, got ''");
    } else if (k == "checkpoint_interval") {
      const double x = v.is_number() ? v.get<double>() : -1;
      if (!std::isfinite(x) || x < 0 || x > run_limits::kMaxCheckpointInterval)
        throw SpecError("checkpoint_interval must be 0..3600 seconds, got " + v.dump());
      ro.checkpoint_interval = x;
    } else if (k == "limit") {
      if (!v.is_number_integer() || (v.is_number_integer() && !v.is_number_unsigned() && v.get<std::int64_t>() < 0))
        throw SpecError("limit must be 0 (none) or more, got " + v.dump());
      ro.stop_after = v.get<std::uint64_t>();
    } else if (k == "dedup") {
      const std::string d = text(v, k);
      const auto mode = parse_dedup(d);
      if (!mode) throw SpecError("dedup must be 'auto' or 'hash-set', got '" + d + "'");
      ro.dedup = *mode;
    } else if (k == "dedup_memory") {
      // MiB, as the CLI's --dedup-memory.
      ro.dedup_memory = static_cast<std::size_t>(whole(v, k, 1, std::int64_t{1} << 30, "1 .. 2^30 MiB")) << 20;
    } else if (k == "adaptive") {
      if (!v.is_boolean()) throw SpecError("adaptive must be true or false, got " + v.dump());
      ro.adaptive = v.get<bool>();
    } else {
      throw SpecError("unknown run option '" + k + "'");
    }
  }
  return ro;
}

}  // namespace magic
