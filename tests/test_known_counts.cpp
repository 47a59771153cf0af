#include <gtest/gtest.h>

#include <set>

#include "known_counts.hpp"
#include "magic/spec.hpp"
#include "report/reproduce.hpp"

namespace {

class KnownCounts : public ::testing::TestWithParam<KnownCount> {};

void expect_engine_matches(const KnownCount& k) {
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

TEST_P(KnownCounts, EngineMatchesTable) { expect_engine_matches(GetParam()); }

std::string name_of(const ::testing::TestParamInfo<KnownCount>& info) {
  std::string s;
  for (auto it = info.param.spec.begin(); it != info.param.spec.end(); ++it) {
    std::string v = it->is_string() ? it->get<std::string>() : it->dump();
    for (char& c : v)
      if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    s += (s.empty() ? "" : "_") + v;
  }
  // "Slow" in the name puts the row under the `slow` ctest label.
  return s + "_" + std::to_string(info.index) + (info.param.slow ? "_Slow" : "");
}

INSTANTIATE_TEST_SUITE_P(Table, KnownCounts, ::testing::ValuesIn(known_counts()), name_of);

// The documents' own figures live only in data/documents.json; every row of
// it is a known count too (full_only rows are the slow ones).
std::vector<KnownCount> document_counts() {
  std::vector<KnownCount> out;
  const auto d = nlohmann::json::parse(magic::embedded_documents());
  for (const auto& r : d.at("rows")) {
    KnownCount k{r.at("spec"), r.at("counts").at("unique").get<std::uint64_t>(), std::nullopt,
                 "document " + r.at("document").get<std::string>(),
                 r.value("full_only", false) || r.value("slow_test", false)};
    if (r.at("counts").contains("total")) k.total = r.at("counts").at("total").get<std::uint64_t>();
    out.push_back(k);
  }
  return out;
}

// Every spec of both tables, as a spec and as the problem its result echoes
// (what verify, merge and the Python module read back), is read; the same
// with one field more is refused, naming that field.
TEST(SpecFields, EchoesReadBackAndAStrayFieldIsRefused) {
  std::vector<KnownCount> all = known_counts();
  for (const auto& k : document_counts()) all.push_back(k);
  std::size_t families = 0;
  std::set<std::string> seen;
  for (const auto& k : all) {
    const magic::SpecInfo info = magic::describe_spec(k.spec);
    EXPECT_NO_THROW(magic::describe_spec(info.problem)) << info.problem.dump();
    nlohmann::json stray = k.spec;
    stray["bogus"] = 1;
    try {
      magic::describe_spec(stray);
      ADD_FAILURE() << "accepted " << stray.dump();
    } catch (const magic::SpecError& e) {
      EXPECT_NE(std::string(e.what()).find("unknown spec field \"bogus\""), std::string::npos) << e.what();
    }
    families += seen.insert(k.spec.at("name").get<std::string>()).second;
  }
  EXPECT_EQ(families, magic::family_names().size());  // every family has a row
}

class DocumentCounts : public KnownCounts {};
TEST_P(DocumentCounts, EngineMatchesDocument) { expect_engine_matches(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Documents, DocumentCounts, ::testing::ValuesIn(document_counts()), name_of);

}  // namespace
