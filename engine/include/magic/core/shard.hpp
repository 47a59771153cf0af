#pragma once
// A shard of a run ("i/m": every m-th task from the i-th), as --shard takes
// it and result files keep it.
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace magic {

struct Shard {
  std::uint32_t index = 0;
  std::uint32_t count = 1;
};

// "i/m", as --shard takes it and result files keep it.
inline std::string to_string(Shard s) { return std::to_string(s.index) + "/" + std::to_string(s.count); }
// Nothing unless the text is exactly to_string of a shard with
// 0 <= i < m < 2^32: no sign, no leading zero, nothing after.
inline std::optional<Shard> parse_shard(std::string_view text) {
  const auto slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  auto number = [](std::string_view t) -> std::optional<std::uint32_t> {
    std::uint32_t v = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || ec != std::errc() || end != t.data() + t.size()) return std::nullopt;
    return v;
  };
  const auto i = number(text.substr(0, slash)), m = number(text.substr(slash + 1));
  if (!i || !m || *m == 0 || *i >= *m) return std::nullopt;
  const Shard s{*i, *m};
  if (to_string(s) != text) return std::nullopt;  // "01/2", "+0/2"
  return s;
}

}  // namespace magic
