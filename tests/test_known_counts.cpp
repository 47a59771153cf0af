#include <gtest/gtest.h>

#include "known_counts.hpp"
#include "magic/problems.hpp"

namespace {

class KnownCounts : public ::testing::TestWithParam<KnownCount> {};

TEST_P(KnownCounts, EngineMatchesTable) {
  const KnownCount& k = GetParam();
  if (k.slow && !std::getenv("MAGIC_SLOW_TESTS")) GTEST_SKIP() << "slow; set MAGIC_SLOW_TESTS=1";
  magic::RunOptions ro;
  ro.threads = 2;
  const auto run = magic::run_spec(k.spec, ro);
  EXPECT_EQ(run.result.unique, k.unique) << k.spec.dump() << " (" << k.source << ")";
  if (k.total) {
    EXPECT_TRUE(run.result.has_total);
    EXPECT_EQ(run.result.total, *k.total) << k.spec.dump();
  }
  EXPECT_TRUE(run.result.exhaustive);
}

std::string name_of(const ::testing::TestParamInfo<KnownCount>& info) {
  std::string s;
  for (auto it = info.param.spec.begin(); it != info.param.spec.end(); ++it) {
    std::string v = it->is_string() ? it->get<std::string>() : it->dump();
    for (char& c : v)
      if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    s += (s.empty() ? "" : "_") + v;
  }
  return s + "_" + std::to_string(info.index);
}

INSTANTIATE_TEST_SUITE_P(Table, KnownCounts, ::testing::ValuesIn(known_counts()), name_of);

}  // namespace
