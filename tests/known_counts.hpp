#pragma once
// The known counts (tdoku's test_puzzles idea): every solver runs against
// every row, zero-solution cases included.  `source` says where the number
// comes from; none of them is produced by this engine.  The rows live in
// data/known_counts.json; the documents' own counts in data/documents.json
// (test_known_counts.cpp reads both).
#include <algorithm>
#include <cstdint>
#include <ostream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/reproduce.hpp"

struct KnownCount {
  nlohmann::json spec;
  std::uint64_t unique;
  std::optional<std::uint64_t> total;
  std::string source;
  bool slow = false;  // minutes, not seconds: only under the `slow` ctest label
};

// gtest prints the parameter into the test's listing: keep it short.
inline void PrintTo(const KnownCount& k, std::ostream* os) {
  std::string s = k.spec.dump();
  s.erase(std::remove(s.begin(), s.end(), '"'), s.end());
  *os << (s.size() > 60 ? s.substr(0, 57) + "..." : s);
}

// The rows of data/known_counts.json (compiled in).
inline const std::vector<KnownCount>& known_counts() {
  static const std::vector<KnownCount> table = [] {
    std::vector<KnownCount> out;
    const auto data = nlohmann::json::parse(magic::embedded_known_counts());
    for (const auto& r : data.at("rows")) {
      KnownCount k{r.at("spec"), r.at("unique").get<std::uint64_t>(), std::nullopt,
                   r.at("source").get<std::string>(), r.value("slow", false)};
      if (r.contains("total")) k.total = r.at("total").get<std::uint64_t>();
      out.push_back(k);
    }
    return out;
  }();
  return table;
}
