// The task journal on its own: what it keeps, what it forgives (a torn last
// line) and what it refuses (another run, garbage, duplicates, tasks out of
// range or out of the shard).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "magic/io.hpp"
#include "magic/journal.hpp"
#include "magic/spec.hpp"
#include "magic/result.hpp"
#include "temp_path.hpp"

namespace {

// Every JSON file the tool reads goes through parse_json: at most 64 levels,
// counted as the parser opens and closes them (a SAX DOM builder since the
// callback parser, quadratic in an array of objects, was dropped).
TEST(ParseJson, SixtyFourLevelsAndNoMore) {
  const auto nested = [](std::size_t levels, const std::string& inner) {
    return std::string(levels, '[') + inner + std::string(levels, ']');
  };
  EXPECT_EQ(magic::parse_json(nested(64, ""), "t"), nlohmann::json::parse(nested(64, "")));
  try {
    magic::parse_json(nested(65, ""), "t");
    ADD_FAILURE() << "65 levels read";
  } catch (const magic::InputError& e) {
    EXPECT_STREQ(e.what(), "t: nested deeper than 64 levels");
  }
  // Siblings at the deepest level: closing a level gives it back.
  std::string siblings;
  for (int i = 0; i < 100; ++i) siblings += std::string(i ? "," : "") + "[{\"k\":" + std::to_string(i) + "}]";
  const std::string wide = nested(62, siblings);
  EXPECT_EQ(magic::parse_json(wide, "t"), nlohmann::json::parse(wide));
  EXPECT_THROW(magic::parse_json(nested(63, siblings), "t"), magic::InputError);
  try {
    magic::parse_json("[1,2", "t");
    ADD_FAILURE() << "a cut array read";
  } catch (const magic::InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("t: malformed JSON: ", 0), 0u) << e.what();
  }
}

const nlohmann::json kHeader{{"problem", {{"name", "toy"}}}, {"split_depth", 2}, {"shard", "0/1"}, {"tasks", 10}};

magic::TaskRecord record(std::uint64_t unique) {
  magic::TaskRecord r;
  r.unique = unique;
  r.total = 8 * unique;
  r.nodes = 100 + unique;
  r.digest.lo = unique * 7;
  r.digest.hi = unique * 11;
  r.by_key[3] = unique;
  return r;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void spit(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

class JournalTest : public ::testing::Test {
 protected:
  const std::string path = unique_temp_path("journal") + ".jsonl";
  void SetUp() override { std::filesystem::remove(path); }
  void TearDown() override { std::filesystem::remove(path); }

  // A journal with tasks 0, 3 and 7 recorded.
  std::string three_tasks() {
    {
      magic::Journal j(path, kHeader, 0);
      j.record(0, record(1));
      j.record(3, record(2));
      j.record(7, record(3));
    }
    return slurp(path);
  }
};

TEST_F(JournalTest, RecordsAreReadBackExactly) {
  three_tasks();
  magic::Journal j(path, kHeader, 0);
  EXPECT_EQ(j.resumed(), 3u);
  ASSERT_TRUE(j.has(3));
  EXPECT_FALSE(j.has(4));
  const magic::TaskRecord& r = j.done().at(3);
  EXPECT_EQ(r.unique, 2u);
  EXPECT_EQ(r.total, 16u);
  EXPECT_EQ(r.nodes, 102u);
  EXPECT_EQ(r.digest, record(2).digest);
  EXPECT_EQ(r.by_key.at(3), 2u);
}

TEST_F(JournalTest, OneLinePerTaskAfterTheHeader) {
  const std::string text = three_tasks();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 4);
  EXPECT_NE(text.find("\"journal\""), std::string::npos);
  EXPECT_NE(text.find("\"version\""), std::string::npos);
}

TEST_F(JournalTest, ATornLastLineIsCutOffAndTheRestResumes) {
  const std::string text = three_tasks();
  for (std::size_t cut : {std::size_t{1}, std::size_t{10}, std::size_t{30}}) {
    // Drop the final '\n' and `cut` more bytes: the last record is torn.
    spit(path, text.substr(0, text.size() - 1 - cut));
    {
      magic::Journal j(path, kHeader, 0);
      EXPECT_EQ(j.resumed(), 2u) << cut;
      EXPECT_FALSE(j.has(7));
      j.record(7, record(3));  // the torn task is run again and lands on a line of its own
    }
    magic::Journal again(path, kHeader, 0);
    EXPECT_EQ(again.resumed(), 3u) << cut;
  }
}

TEST_F(JournalTest, AWholeRecordWithoutItsNewlineIsNotTrusted) {
  const std::string text = three_tasks();
  spit(path, text.substr(0, text.size() - 1));
  magic::Journal j(path, kHeader, 0);
  EXPECT_EQ(j.resumed(), 2u);
}

TEST_F(JournalTest, AnEmptyFileOrATornHeaderStartsAfresh) {
  spit(path, "");
  EXPECT_EQ(magic::Journal(path, kHeader, 0).resumed(), 0u);
  spit(path, "{\"journal\":2,\"prob");
  EXPECT_EQ(magic::Journal(path, kHeader, 0).resumed(), 0u);
  EXPECT_EQ(magic::Journal(path, kHeader, 0).resumed(), 0u);  // and the header is whole now
}

// A file whose only line is not a prefix of this run's header is someone
// else's (notes, a result): refused and left as it was, newline or not.
TEST_F(JournalTest, AnUnterminatedFileThatIsNoHeaderOfThisRunIsRefusedAndKept) {
  for (const std::string text : {"my notes", "{\"a\":1}", "{\"journal\":1,\"problem\":{\"name\":\"circle"}) {
    spit(path, text);
    EXPECT_THROW(magic::Journal(path, kHeader, 0), magic::CheckpointError) << text;
    EXPECT_EQ(slurp(path), text);
    spit(path, text + "\n");
    EXPECT_THROW(magic::Journal(path, kHeader, 0), magic::CheckpointError) << text;
  }
}

// Whole but without its newline: no record was written after it, so the
// journal starts afresh rather than append the first record to its line.
TEST_F(JournalTest, AHeaderWithoutItsNewlineStartsAfresh) {
  const std::string text = three_tasks();
  spit(path, text.substr(0, text.find('\n')));
  {
    magic::Journal j(path, kHeader, 0);
    EXPECT_EQ(j.resumed(), 0u);
    j.record(3, record(2));
  }
  EXPECT_EQ(magic::Journal(path, kHeader, 0).resumed(), 1u);
}

TEST_F(JournalTest, AnotherRunsHeaderIsRefused) {
  three_tasks();
  nlohmann::json other = kHeader;
  other["split_depth"] = 3;
  EXPECT_THROW(magic::Journal(path, other, 0), magic::CheckpointError);
  other = kHeader;
  other["tasks"] = 11;
  EXPECT_THROW(magic::Journal(path, other, 0), magic::CheckpointError);
}

// Issue 42, row 2: a record's checksum covers its header line, so records
// of another run put under this run's header are refused, not summed.
TEST_F(JournalTest, RecordsSplicedUnderAnotherHeaderAreRefused) {
  const std::string ours = three_tasks();
  nlohmann::json other = kHeader;
  other["problem"]["numbers"] = "2..23";
  const std::string theirs_path = path + ".theirs";
  {
    magic::Journal j(theirs_path, other, 0);
    j.record(1, record(5));
  }
  const std::string theirs = slurp(theirs_path);
  std::filesystem::remove(theirs_path);
  spit(path, ours.substr(0, ours.find('\n') + 1) + theirs.substr(theirs.find('\n') + 1));
  try {
    magic::Journal j(path, kHeader, 0);
    ADD_FAILURE() << "a spliced journal was resumed";
  } catch (const magic::CheckpointError& e) {
    EXPECT_NE(std::string(e.what()).find("checksum mismatch"), std::string::npos) << e.what();
  }
}

// Journals of format 1 (records not bound to their header) are still read,
// so old records can be checked, but not resumed: the message names the
// format and the build that wrote them, the one to resume them with.
TEST_F(JournalTest, AFormatOneJournalIsReadButNotResumed) {
  nlohmann::json head = kHeader;
  head["journal"] = 1;
  head["version"] = "0.1.0";
  nlohmann::json rec = magic::to_json(record(2));
  rec["task"] = 4;
  rec["source"] = "abc123def456";
  rec["sum"] = magic::Journal::checksum("", rec);
  spit(path, head.dump() + "\n" + rec.dump() + "\n");
  const auto c = magic::read_journal(path);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->done.size(), 1u);
  EXPECT_EQ(c->done.at(4).unique, 2u);
  try {
    magic::Journal j(path, kHeader, 0);
    ADD_FAILURE() << "a format 1 journal was resumed";
  } catch (const magic::CheckpointError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("journal format 1"), std::string::npos) << what;
    EXPECT_NE(what.find("commit abc123def456"), std::string::npos) << what;
  }
  EXPECT_EQ(magic::read_journal(path)->done.size(), 1u);  // left as it was
}

// A journal of another revision of the search (another task tree) is
// refused by name, with the build that wrote it.
TEST_F(JournalTest, AnotherSearchIsRefusedByName) {
  nlohmann::json old = kHeader, now = kHeader;
  old["search"] = "toy/1";
  now["search"] = "toy/2";
  {
    magic::Journal j(path, old, 0);
    j.record(1, record(1));
  }
  try {
    magic::Journal j(path, now, 0);
    ADD_FAILURE() << "a journal of another search was resumed";
  } catch (const magic::CheckpointError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("search toy/1"), std::string::npos) << what;
    EXPECT_NE(what.find("search toy/2"), std::string::npos) << what;
    EXPECT_NE(what.find("commit " + std::string(magic::BuildInfo::source())), std::string::npos) << what;
  }
  // Another run of the same search names the fields that differ.
  nlohmann::json deeper = old;
  deeper["split_depth"] = 3;
  try {
    magic::Journal j(path, deeper, 0);
    ADD_FAILURE() << "a journal of another split depth was resumed";
  } catch (const magic::CheckpointError& e) {
    EXPECT_NE(std::string(e.what()).find("split_depth 2 here, 3 now"), std::string::npos) << e.what();
  }
}

TEST_F(JournalTest, BadLinesAreRefused) {
  const std::string text = three_tasks();
  const auto head = text.substr(0, text.find('\n') + 1);
  // Lines carry a correct checksum unless a case says otherwise, so each
  // case tests its own check.
  const std::string header_line = head.substr(0, head.size() - 1);
  auto line = [&](nlohmann::json j) {
    j.erase("sum");
    j["sum"] = magic::Journal::checksum(header_line, j);
    return j.dump() + "\n";
  };
  nlohmann::json good = magic::to_json(record(1));
  good["task"] = 1;
  auto with = [&](const char* key, const nlohmann::json& v) {
    nlohmann::json j = good;
    j["task"] = 2;  // so that only `key` is wrong
    j[key] = v;
    return line(j) + line(good);
  };
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"garbage", head + "this is not json\n" + line(good)},
      {"duplicate", head + line(good) + line(good)},
      {"out of range", head + with("task", 10)},
      {"negative task", head + with("task", -1)},
      {"negative count", head + with("unique", -5)},
      {"bad digest", head + with("digest", "xyz")},
      {"missing field", head + line(nlohmann::json{{"task", 2}}) + line(good)},
      {"fractional count", head + with("total", 2.5)},
      {"by_key value negative", head + with("by_key", nlohmann::json::array({nlohmann::json::array({3, -1})}))},
      {"cpu not a number", head + with("cpu", "fast")},
      {"by_key not pairs", head + with("by_key", nlohmann::json::array({1, 2}))},
      {"forged count, old checksum", head + [&] {
         nlohmann::json j = good;
         j["sum"] = magic::Journal::checksum(header_line, good);
         j["unique"] = 5;
         return j.dump() + "\n";
       }()},
      {"no checksum", head + nlohmann::json(good).dump() + "\n"},
      {"deep", head + std::string(100000, '[') + std::string(100000, ']') + "\n" + line(good)},
      {"solutions not a list", head + with("solutions", "all")},
      {"more solutions than unique", head + with("solutions", nlohmann::json::array({1, 2}))},
      {"source not a string", head + with("source", 7)},
      {"empty source", head + with("source", "")},
  };
  spit(path, head + with("unique", 1));  // the control: both lines are good
  EXPECT_EQ(magic::Journal(path, kHeader, 0).resumed(), 2u);
  for (const auto& [name, content] : bad) {
    spit(path, content);
    EXPECT_THROW(magic::Journal(path, kHeader, 0), magic::CheckpointError) << "case: " << name;
  }
}

// A run that lists solutions keeps each task's list in its record; the
// record's checksum covers it.
TEST_F(JournalTest, ListedSolutionsAreKeptWithTheirTask) {
  const std::vector<nlohmann::json> two{nlohmann::json::array({1, 2}), nlohmann::json::array({3, 4})};
  {
    magic::Journal j(path, kHeader, 0);
    j.drop_unlisted(5);
    j.record(0, record(2), &two);
    j.record(4, record(0), nullptr);
  }
  const auto c = magic::read_journal(path);
  ASSERT_TRUE(c);
  ASSERT_EQ(c->solutions.size(), 1u);
  EXPECT_EQ(c->solutions.at(0), two);
  magic::Journal again(path, kHeader, 0);
  again.drop_unlisted(5);
  EXPECT_EQ(again.resumed(), 2u);
  EXPECT_EQ(again.dropped(), 0u);
  EXPECT_EQ(again.solutions(0), two);
  EXPECT_TRUE(again.solutions(4).empty());
}

// A record that lists fewer solutions than the run hands out, min(unique,
// listing), is dropped from the file and its task runs again; that task
// must come out as the dropped record said.
TEST_F(JournalTest, RecordsListingTooFewSolutionsAreDroppedAndMustComeOutTheSame) {
  three_tasks();  // tasks 0, 3, 7 with unique 1, 2, 3, and no lists
  const std::vector<nlohmann::json> one{nlohmann::json::array({9})};
  const std::vector<nlohmann::json> two{nlohmann::json::array({9}), nlohmann::json::array({8})};
  {
    magic::Journal j(path, kHeader, 0);
    j.drop_unlisted(1);  // lists one solution: every task with unique >= 1 lacks it
    EXPECT_EQ(j.resumed(), 0u);
    EXPECT_EQ(j.dropped(), 3u);
    j.record(3, record(2), &one);
    magic::TaskRecord other = record(3);  // task 7's old record, with another digest
    other.digest.lo ^= 1;
    EXPECT_THROW(j.record(7, other, &one), magic::CheckpointError);
  }
  // The file was rewritten without them: a run that lists nothing reads task 3 alone.
  const auto c = magic::read_journal(path);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->done.size(), 1u);
  EXPECT_EQ(c->solutions.at(3), one);
  // One listed solution is enough for a run that lists one, not for one that lists two.
  auto opened = [&](std::uint64_t listing) {
    auto j = std::make_unique<magic::Journal>(path, kHeader, 0);
    j->drop_unlisted(listing);
    return j;
  };
  EXPECT_EQ(opened(1)->resumed(), 1u);
  {
    // After a drop the journal appends to the rewritten file.
    const auto j = opened(2);
    EXPECT_EQ(j->dropped(), 1u);
    EXPECT_EQ(j->resumed(), 0u);
    j->record(3, record(2), &two);
  }
  const auto reread = magic::read_journal(path);
  ASSERT_TRUE(reread);
  EXPECT_EQ(reread->done.size(), 1u);
  EXPECT_EQ(reread->solutions.at(3), two);
}

// Each record names the build that ran its task, and keeps that name when
// the file is rewritten; records from before the field count as unrecorded.
TEST_F(JournalTest, EachRecordNamesTheBuildThatRanIt) {
  const std::string own = magic::BuildInfo::source();
  const std::string text = three_tasks();
  const std::string head = text.substr(0, text.find('\n') + 1);
  const std::string header_line = head.substr(0, head.size() - 1);
  auto line = [&](std::uint64_t task, std::uint64_t unique, const char* source) {
    nlohmann::json j = magic::to_json(record(unique));
    j["task"] = task;
    if (source) j["source"] = source;
    j["sum"] = magic::Journal::checksum(header_line, j);
    return j.dump() + "\n";
  };
  // Task 1 from an older build, task 2 from before sources were written,
  // task 5 lists its one solution under another build.
  nlohmann::json five = magic::to_json(record(1));
  five["task"] = 5;
  five["solutions"] = nlohmann::json::array({nlohmann::json::array({4})});
  five["source"] = "0123456789ab";
  five["sum"] = magic::Journal::checksum(header_line, five);
  spit(path, head + line(1, 0, "fedcba987654") + line(2, 1, nullptr) + five.dump() + "\n");
  {
    magic::Journal j(path, kHeader, 0);
    EXPECT_EQ(j.sources(), (std::map<std::string, std::uint64_t>{
                               {"fedcba987654", 1}, {"0123456789ab", 1}, {magic::Journal::kUnrecordedSource, 1}}));
    j.drop_unlisted(1);  // task 2 lists nothing: it runs again, here
    EXPECT_EQ(j.sources(), (std::map<std::string, std::uint64_t>{{"fedcba987654", 1}, {"0123456789ab", 1}}));
    const std::vector<nlohmann::json> one{nlohmann::json::array({6})};
    j.record(2, record(1), &one);
    j.record(9, record(0), nullptr);
    std::map<std::string, std::uint64_t> want{{"fedcba987654", 1}, {"0123456789ab", 1}};
    want[own] += 2;
    EXPECT_EQ(j.sources(), want);
  }
  const auto c = magic::read_journal(path);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->sources, (std::map<std::uint64_t, std::string>{
                            {1, "fedcba987654"}, {2, own}, {5, "0123456789ab"}, {9, own}}));
}

// Two runs of one journal would both run the tasks it lacks and record them
// twice, which the next resume refuses as a damaged journal.
TEST_F(JournalTest, ASecondRunOfTheSameJournalIsRefusedWhileTheFirstHoldsIt) {
  three_tasks();
  const std::string before = slurp(path);
  {
    magic::Journal first(path, kHeader, 0);
    EXPECT_THROW(magic::Journal(path, kHeader, 0), magic::CheckpointError);
    EXPECT_EQ(slurp(path), before);  // the refused run cut and rewrote nothing
    first.record(5, record(4));
  }
  magic::Journal after(path, kHeader, 0);  // the first has let go
  EXPECT_EQ(after.resumed(), 4u);
}

// A journal that is not a file (a FIFO, a device) cannot be resumed from:
// refused before it is read.
TEST_F(JournalTest, AJournalThatIsNotARegularFileIsRefused) {
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  EXPECT_THROW(magic::Journal(path, kHeader, 0), magic::CheckpointError);
  struct stat st {};
  ASSERT_EQ(::lstat(path.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

// A journal removed or replaced under a run (a `git checkout` of an older
// copy) would swallow every later record into a file no one can see.  The
// run stops at its next batch, and what it wrote is copied out, whole.
TEST_F(JournalTest, AJournalReplacedOrRemovedUnderTheRunStopsItAndItsRecordsAreRescued) {
  const std::string rescued = path + ".rescued-" + std::to_string(::getpid());
  for (const bool replace : {true, false}) {
    SCOPED_TRACE(replace ? "replaced" : "removed");
    std::filesystem::remove(path);
    const std::string older = three_tasks();
    const std::string other = path + ".other";
    {
      magic::Journal j(path, kHeader, 0);
      j.record(1, record(5));
      if (replace) {
        spit(other, older);
        std::filesystem::rename(other, path);
      } else {
        std::filesystem::remove(path);
      }
      try {
        j.record(2, record(6));
        ADD_FAILURE() << "the record after the swap was taken";
      } catch (const magic::CheckpointError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find(replace ? "replaced by another file" : "is gone"), std::string::npos) << what;
        EXPECT_NE(what.find("5 task records"), std::string::npos) << what;
        EXPECT_NE(what.find(rescued), std::string::npos) << what;
      }
      EXPECT_THROW(j.record(4, record(7)), magic::CheckpointError);  // nothing more goes astray
    }
    if (replace) EXPECT_EQ(slurp(path), older);  // the file put in its place is left alone
    else EXPECT_FALSE(std::filesystem::exists(path));
    const auto got = magic::read_journal(rescued, nullptr);
    ASSERT_TRUE(got);
    std::vector<std::uint64_t> tasks;
    for (const auto& [task, rec] : got->done) tasks.push_back(task);
    EXPECT_EQ(tasks, (std::vector<std::uint64_t>{0, 1, 2, 3, 7}));
    EXPECT_EQ(got->done.at(2).unique, 6u);
    std::filesystem::rename(rescued, path);  // put back, it resumes
    magic::Journal back(path, kHeader, 0);
    EXPECT_EQ(back.resumed(), 5u);
  }
  std::filesystem::remove(rescued);
}

// Issue 42, row 13: a journal cut short in place is noticed; the run stops
// and appends nothing to what is left, and a journal whose start is gone
// says so when resumed.
TEST_F(JournalTest, AJournalCutShortUnderTheRunStopsIt) {
  for (const std::size_t keep : {std::size_t{0}, std::size_t{40}}) {
    SCOPED_TRACE(keep);
    std::filesystem::remove(path);
    three_tasks();
    {
      magic::Journal j(path, kHeader, 0);
      j.record(1, record(5));
      std::filesystem::resize_file(path, keep);
      try {
        j.record(2, record(6));
        ADD_FAILURE() << "the record after the cut was taken";
      } catch (const magic::CheckpointError& e) {
        EXPECT_NE(std::string(e.what()).find("cut short"), std::string::npos) << e.what();
      }
      EXPECT_THROW(j.record(4, record(7)), magic::CheckpointError);
    }
    EXPECT_EQ(std::filesystem::file_size(path), keep);
  }
  // Records without their header: the message says what is missing.
  const std::string text = three_tasks();
  spit(path, text.substr(text.find('\n') + 1));
  try {
    magic::Journal j(path, kHeader, 0);
    ADD_FAILURE() << "a journal without its header was resumed";
  } catch (const magic::CheckpointError& e) {
    EXPECT_NE(std::string(e.what()).find("no header"), std::string::npos) << e.what();
  }
}

// The file the run rewrites itself (dropping records to be run again) is
// followed, not mistaken for a replacement.
TEST_F(JournalTest, ItsOwnRewriteIsNotAReplacement) {
  three_tasks();
  magic::Journal j(path, kHeader, 0);
  j.drop_unlisted(1);  // none lists its solutions: all three run again
  EXPECT_EQ(j.dropped(), 3u);
  EXPECT_NO_THROW(j.record(0, record(1)));
  EXPECT_NO_THROW(j.flush());
}

}  // namespace
