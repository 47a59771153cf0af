#pragma once
// The one table of known counts (tdoku's test_puzzles idea): every solver
// runs against every row, zero-solution cases included.  `source` says
// where the number comes from; none of them is produced by this engine.
// The documents' own counts are not repeated here: test_known_counts.cpp
// reads them from data/documents.json, their single home.
#include <algorithm>
#include <cstdint>
#include <ostream>
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

// gtest prints the parameter into the test's listing: keep it short.
inline void PrintTo(const KnownCount& k, std::ostream* os) {
  std::string s = k.spec.dump();
  s.erase(std::remove(s.begin(), s.end(), '"'), s.end());
  *os << (s.size() > 60 ? s.substr(0, 57) + "..." : s);
}

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
      // circle, multiplier method: circle classes (total = 2n x unique).  The
      // exhaustive counts are the seed 003 rows of data/documents.json.
      {{{"name", "circle"}, {"n", 3}, {"method", "multiplier"}}, 1, 6,
       "phi(7)/(6*1) for n-1 = 2^1: Singer sets (Iwahori; seed 003 ref. [3])"},
      {{{"name", "circle"}, {"n", 4}, {"method", "multiplier"}}, 2, 16,
       "phi(13)/(6*1) for n-1 = 3^1: Singer sets (Iwahori; seed 003 ref. [3])"},
      {{{"name", "circle"}, {"n", 5}, {"method", "multiplier"}}, 1, 10,
       "phi(21)/(6*2) for n-1 = 2^2: Singer sets (Iwahori; seed 003 ref. [3])"},
      {{{"name", "circle"}, {"n", 6}, {"method", "multiplier"}}, 5, 60,
       "phi(31)/(6*1) for n-1 = 5^1: Singer sets (Iwahori; seed 003 ref. [3])"},
      {{{"name", "circle"}, {"n", 7}, {"method", "multiplier"}}, 0, 0,
       "no cyclic plane of order 6, not a prime power (Baumert-Gordon 2004)"},
      {{{"name", "circle"}, {"n", 8}, {"method", "multiplier"}}, 6, 96,
       "phi(57)/(6*1) for n-1 = 7^1: Singer sets (Iwahori; seed 003 ref. [3])"},
      {{{"name", "circle"}, {"n", 9}, {"method", "multiplier"}}, 4, 72,
       "phi(73)/(6*3) for n-1 = 2^3: Singer sets (Iwahori; seed 003 ref. [3])"},
      {{{"name", "circle"}, {"n", 10}, {"method", "multiplier"}}, 6, 120,
       "phi(91)/(6*2) for n-1 = 3^2: Singer sets (Iwahori; seed 003 ref. [3])"},
      {{{"name", "circle"}, {"n", 11}, {"method", "multiplier"}}, 0, 0,
       "no cyclic plane of order 10, not a prime power (Baumert-Gordon 2004)"},
      {{{"name", "circle"}, {"n", 12}, {"method", "multiplier"}}, 18, 432,
       "phi(133)/(6*1) for n-1 = 11^1: Singer sets (Iwahori; seed 003 ref. [3])"},
      {{{"name", "circle"}, {"n", 13}, {"method", "multiplier"}}, 0, 0,
       "no cyclic plane of order 12, not a prime power (Baumert-Gordon 2004)"},
      {{{"name", "circle"}, {"n", 14}, {"method", "multiplier"}}, 20, 560,
       "phi(183)/(6*1) for n-1 = 13^1: Singer sets (Iwahori; seed 003 ref. [3])"},
      {{{"name", "circle"}, {"n", 15}, {"method", "multiplier"}}, 0, 0,
       "no cyclic plane of order 14, not a prime power (Baumert-Gordon 2004)"},
      {{{"name", "circle"}, {"n", 16}, {"method", "multiplier"}}, 0, 0,
       "no cyclic plane of order 15, not a prime power (Baumert-Gordon 2004)"},
      {{{"name", "circle"}, {"n", 17}, {"method", "multiplier"}}, 6, 204,
       "phi(273)/(6*4) for n-1 = 2^4: Singer sets (Iwahori; seed 003 ref. [3])"},
      {{{"name", "circle"}, {"n", 18}, {"method", "multiplier"}}, 51, 1836,
       "phi(307)/(6*1) for n-1 = 17^1: Singer sets (Iwahori; seed 003 ref. [3])"},
      {{{"name", "circle"}, {"n", 19}, {"method", "multiplier"}}, 0, 0,
       "no cyclic plane of order 18, not a prime power (Baumert-Gordon 2004)"},
      {{{"name", "circle"}, {"n", 20}, {"method", "multiplier"}}, 42, 1680,
       "phi(381)/(6*1) for n-1 = 19^1: Singer sets (Iwahori; seed 003 ref. [3])"},
      {{{"name", "circle"}, {"n", 21}, {"method", "multiplier"}}, 0, 0,
       "no cyclic plane of order 20, not a prime power (Baumert-Gordon 2004)"},
      {{{"name", "circle"}, {"n", 22}, {"method", "multiplier"}}, 0, 0,
       "no cyclic plane of order 21, not a prime power (Baumert-Gordon 2004)"},
      {{{"name", "circle"}, {"n", 23}, {"method", "multiplier"}}, 0, 0,
       "no cyclic plane of order 22, not a prime power (Baumert-Gordon 2004)"},
      {{{"name", "circle"}, {"n", 24}, {"method", "multiplier"}}, 78, 3744,
       "phi(553)/(6*1) for n-1 = 23^1: Singer sets (Iwahori; seed 003 ref. [3])", true},
      {{{"name", "circle"}, {"n", 25}, {"method", "multiplier"}}, 0, 0,
       "no cyclic plane of order 24, not a prime power (Baumert-Gordon 2004)"},
      {{{"name", "circle"}, {"n", 26}, {"method", "multiplier"}}, 30, 1560,
       "phi(651)/(6*2) for n-1 = 5^2: Singer sets (Iwahori; seed 003 ref. [3])"},
      {{{"name", "circle"}, {"n", 27}, {"method", "multiplier"}}, 0, 0,
       "no cyclic plane of order 26, not a prime power (Baumert-Gordon 2004)"},
      {{{"name", "circle"}, {"n", 28}, {"method", "multiplier"}}, 42, 2352,
       "phi(757)/(6*3) for n-1 = 3^3: Singer sets (Iwahori; seed 003 ref. [3])"},
      {{{"name", "circle"}, {"n", 29}, {"method", "multiplier"}}, 0, 0,
       "no cyclic plane of order 28, not a prime power (Baumert-Gordon 2004)"},
      {{{"name", "circle"}, {"n", 31}, {"method", "multiplier"}}, 0, 0,
       "no cyclic plane of order 30, not a prime power (Baumert-Gordon 2004)"},
      {{{"name", "circle"}, {"n", 33}, {"method", "multiplier"}}, 30, 1980,
       "phi(1057)/(6*5) for n-1 = 2^5: Singer sets (Iwahori; seed 003 ref. [3])"},
      {{{"name", "circle"}, {"n", 34}, {"method", "multiplier"}}, 0, 0,
       "no cyclic plane of order 33, not a prime power (Baumert-Gordon 2004)"},
      {{{"name", "circle"}, {"n", 35}, {"method", "multiplier"}}, 0, 0,
       "no cyclic plane of order 34, not a prime power (Baumert-Gordon 2004)"},
      {{{"name", "circle"}, {"n", 36}, {"method", "multiplier"}}, 0, 0,
       "no cyclic plane of order 35, not a prime power (Baumert-Gordon 2004)"},
      {{{"name", "circle"}, {"n", 37}, {"method", "multiplier"}}, 0, 0,
       "no cyclic plane of order 36, not a prime power (Baumert-Gordon 2004)"},
      {{{"name", "circle"}, {"n", 39}, {"method", "multiplier"}}, 0, 0,
       "no cyclic plane of order 38, not a prime power (Baumert-Gordon 2004)"},
      {{{"name", "circle"}, {"n", 40}, {"method", "multiplier"}}, 0, 0,
       "no cyclic plane of order 39, not a prime power (Baumert-Gordon 2004)"},
  };
  return table;
}
