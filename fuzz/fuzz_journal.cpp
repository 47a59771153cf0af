// Fuzzes the checkpoint journal reader: the input is written to a scratch
// file and opened as the journal of a fixed run.  The first line has to
// equal that run's header to get further, so the seeds in corpus/journal/
// start with it; "@VERSION@" in the input stands for this build's version,
// so the seeds outlive a version bump.
//
// If records carry a checksum (Journal::checksum), random records cannot
// pass it, so each input is also tried once with the checksum of every
// record line set right: the raw pass fuzzes the check, the second the
// record reader behind it.
//
// Findings: a crash, a sanitizer report, an exception that is not a
// magic::Error, or a journal that is accepted once but not when opened again
// (opening cuts a torn tail, after which the file must read the same; a run
// that lists solutions rewrites it without the records that list too few).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <system_error>
#include <unistd.h>

#include "magic/journal.hpp"
#include "magic/result.hpp"

namespace {

nlohmann::json header() {
  return {{"problem", {{"name", "circle"}, {"n", 8}}}, {"split_depth", 2}, {"shard", "0/1"}, {"tasks", 16}};
}

// One file per process, rewritten for every input and removed after it.
const std::string& scratch() {
  static const std::string path =
      (std::filesystem::temp_directory_path() / ("fuzz_journal_" + std::to_string(::getpid()))).string();
  return path;
}

// Sets "sum" of every record line that is a JSON object, if this journal
// has checksums; the same text otherwise.
template <class J>
std::string with_checksums(const std::string& text) {
  if constexpr (requires(const nlohmann::json& j) { J::checksum(std::string_view(), j); }) {
    std::string out, header_line;
    std::size_t pos = 0, line_no = 0;
    while (pos < text.size()) {
      std::size_t end = text.find('\n', pos);
      const bool whole = end != std::string::npos;
      if (!whole) end = text.size();
      std::string line = text.substr(pos, end - pos);
      if (++line_no == 1) header_line = line;  // every record's sum covers it
      else {
        auto j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_object() && line.size() < 4096) {
          j.erase("sum");
          j["sum"] = J::checksum(header_line, j);
          line = j.dump();
        }
      }
      out += line;
      if (whole) out += '\n';
      pos = end + 1;
    }
    return out;
  } else {
    return text;
  }
}

std::string with_version(std::string s) {
  const std::string mark = "@VERSION@";
  for (auto at = s.find(mark); at != std::string::npos; at = s.find(mark, at))
    s.replace(at, mark.size(), magic::BuildInfo::version());
  return s;
}

void expect_same(const std::map<std::uint64_t, magic::TaskRecord>& a,
                 const std::map<std::uint64_t, magic::TaskRecord>& b) {
  if (a.size() != b.size()) std::abort();
  for (const auto& [task, rec] : a) {
    const auto it = b.find(task);
    if (it == b.end() || it->second.unique != rec.unique || it->second.digest != rec.digest) std::abort();
  }
}

// Opens `text` as a journal twice, and once more as a run that lists
// solutions; aborts if a later reading differs.
void check(const std::string& path, const std::string& text) {
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out) std::abort();  // the harness itself failed, not the reader
  }
  try {
    std::map<std::uint64_t, magic::TaskRecord> first;
    {
      const magic::Journal j(path, header(), 1e9);
      first = j.done();
    }
    {
      const magic::Journal again(path, header(), 1e9);  // let go before the next opens it (its lock)
      expect_same(first, again.done());
    }
    // A run that lists two solutions drops the records that list fewer and
    // rewrites the file, which must then read back as what it kept.
    std::map<std::uint64_t, magic::TaskRecord> kept;
    std::map<std::string, std::uint64_t> sources;
    {
      magic::Journal listing(path, header(), 1e9);
      listing.drop_unlisted(2);
      kept = listing.done();
      sources = listing.sources();
      for (const auto& [task, rec] : kept)
        if (listing.solutions(task).size() < std::min<std::uint64_t>(rec.unique, 2)) std::abort();
    }
    const magic::Journal rewritten(path, header(), 1e9);
    expect_same(kept, rewritten.done());
    if (rewritten.sources() != sources) std::abort();
  } catch (const magic::Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = scratch();
  const std::string text = with_version(std::string(reinterpret_cast<const char*>(data), size));
  check(path, text);
  const std::string summed = with_checksums<magic::Journal>(text);
  if (summed != text) check(path, summed);
  std::error_code ec;
  std::filesystem::remove(path, ec);
  return 0;
}
