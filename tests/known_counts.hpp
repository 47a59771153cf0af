#pragma once
// The one table of known counts (tdoku's test_puzzles idea): every solver
// runs against every row, zero-solution cases included.  `source` says
// where the number comes from; none of them is produced by this engine.
// The documents' own counts are not repeated here: test_known_counts.cpp
// reads them from data/documents.json, their single home.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

struct KnownCount {
  nlohmann::json spec;
  std::uint64_t unique;
  std::optional<std::uint64_t> total;
  std::string source;
  bool slow = false;  // minutes, not seconds: only under the `slow` ctest label
};

inline const std::vector<KnownCount>& known_counts() {
  static const std::vector<KnownCount> table = {
      {{{"name", "square"}, {"order", 3}, {"kind", "semi"}}, 9, 72, "OEIS A271104 (72 semi-magic 3x3)"},
      {{{"name", "square"}, {"order", 3}, {"kind", "associative"}}, 1, 8, "the Lo Shu is associative"},
      {{{"name", "square"}, {"order", 3}, {"kind", "pandiagonal"}}, 0, 0, "no pandiagonal 3x3 exists"},
      {{{"name", "square"}, {"order", 4}, {"kind", "semi"}}, 68688, 549504, "OEIS A271104 (549504 semi-magic 4x4)"},
      {{{"name", "square"}, {"order", 4}, {"kind", "pandiagonal"}}, 48, 384, "Frenicle/Rosser-Walker: 48 pandiagonal 4x4"},
      {{{"name", "square"}, {"order", 4}, {"kind", "associative"}}, 48, 384, "48 associative 4x4 (Dudeney)"},
      {{{"name", "square"}, {"order", 4}, {"kind", "most-perfect"}}, 48, 384, "most-perfect 4x4 = pandiagonal 4x4 (Ollerenshaw-Bree)"},
      {{{"name", "star"}, {"n", 5}, {"numbers", "1..10"}}, 0, 0, "no normal magic pentagram (OEIS A200720, Wikipedia 'Magic star')"},
      {{{"name", "star"}, {"n", 7}}, 72, std::nullopt, "OEIS A200720 (normal magic stars {n/2})"},
      {{{"name", "star"}, {"n", 8}}, 112, std::nullopt, "OEIS A200720"},
      {{{"name", "star"}, {"n", 9}}, 3014, std::nullopt, "OEIS A200720"},
      {{{"name", "star"}, {"n", 10}}, 10882, std::nullopt, "OEIS A200720; Howroyd 2005 (10a)"},
      {{{"name", "star"}, {"n", 11}}, 53528, std::nullopt, "OEIS A200720; Howroyd 2005 (11a)"},
      {{{"name", "star"}, {"n", 12}}, 396930, std::nullopt, "OEIS A200720; Howroyd 2005 (12a)", true},
      {{{"name", "star"}, {"n", 13}}, 2434692, std::nullopt, "OEIS A200720; Howroyd 2005 (13a)", true},
      // complete: completions of one grid (no symmetry group, so no total).
      {{{"name", "complete"}, {"grid", {{2, 7, 6}, {9, 5, 1}, {4, 3, 0}}}}, 1, std::nullopt, "seed 004 example 1"},
      {{{"name", "complete"}, {"grid", {{0, 0, 0}, {0, 5, 0}, {0, 0, 0}}}}, 8, std::nullopt,
       "seed 004 example 2: every 3x3 magic square has 5 in the centre (seed 000: 8)"},
      {{{"name", "complete"}, {"grid", {{1, 15, 14, 4}, {12, 0, 0, 9}, {8, 0, 0, 5}, {13, 3, 2, 16}}}}, 1,
       std::nullopt, "seed 004 example 3"},
      {{{"name", "complete"}, {"grid", {{1, 0, 0}, {0, 0, 0}, {0, 0, 0}}}}, 0, std::nullopt,
       "1 is never in a corner of a 3x3 magic square"},
      {{{"name", "complete"}, {"grid", "0 0 0\n0 0 0\n0 0 0"}}, 8, std::nullopt, "seed 000 (8 magic squares of order 3)"},
      {{{"name", "complete"}, {"grid", "0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0"}}, 7040, std::nullopt, "seed 001 (7040)"},
      {{{"name", "complete"}, {"grid", "0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0"}, {"kind", "semi"}}, 549504, std::nullopt,
       "OEIS A271104 (549504 semi-magic 4x4)"},
      {{{"name", "complete"}, {"grid", "0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0"}, {"kind", "pandiagonal"}}, 384,
       std::nullopt, "Frenicle/Rosser-Walker: 48 x 8 pandiagonal 4x4"},
      {{{"name", "complete"}, {"grid", "0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0"}, {"kind", "associative"}}, 384,
       std::nullopt, "Dudeney: 48 x 8 associative 4x4"},
      {{{"name", "complete"}, {"grid", "0 0 0\n0 0 0\n0 0 0"}, {"kind", "pandiagonal"}}, 0, std::nullopt,
       "no pandiagonal 3x3 exists"},
  };
  return table;
}
