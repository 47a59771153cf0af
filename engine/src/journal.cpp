#include "magic/journal.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <stdexcept>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "magic/build_info.hpp"
#include "magic/digest.hpp"
#include "magic/io.hpp"
#include "magic/result.hpp"

namespace magic {
namespace {

// A journal line is one task record, with the solutions it lists when the
// run lists them (a star task can list some thousands).  The header holds
// the problem, which for `complete` includes a grid of at most 64 x 64
// numbers.
constexpr std::size_t kMaxLine = std::size_t{1} << 26;

std::string errno_text() { return std::strerror(errno); }

std::string shorten(std::string s) {
  if (s.size() > 300) s = utf8_prefix(s, 300) + "...";
  return s;
}

// XXH3 of the header line and the record's text without "sum", so a record
// holds only under the header it was written with: records spliced under
// another run's header are refused.  (Format 1 journals, written before
// this, hashed the record alone.)  A record cannot be checked against the
// search without rerunning it, so this catches a hand edit, a forged count
// or a splice, not a deliberate forger who recomputes it.
}  // namespace

std::string Journal::checksum(std::string_view header_line, const nlohmann::json& record_without_sum) {
  std::string text(header_line);
  if (!text.empty()) text += '\n';
  text += record_without_sum.dump();
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash64(text.data(), text.size())));
  return hex;
}

namespace {

bool checksum_holds(std::string_view header_line, nlohmann::json j) {
  if (!j.is_object() || !j.contains("sum") || !j.at("sum").is_string()) return false;
  const std::string sum = j.at("sum").get<std::string>();
  j.erase("sum");
  return sum == Journal::checksum(header_line, j);
}

// The build of the last record that names one, for a message: the newest
// build that wrote the journal, "" if none does.  (A text search, not a
// parse: it runs once, on the error path, over up to a whole journal.)
std::string last_source(std::istream& in) {
  static const std::string key = "\"source\":\"";
  std::string line, found;
  while (std::getline(in, line)) {
    const auto at = line.rfind(key);
    if (at == std::string::npos) continue;
    const auto end = line.find('"', at + key.size());
    if (end != std::string::npos) found = line.substr(at + key.size(), end - at - key.size());
  }
  return found;
}

std::string field(const nlohmann::json& header, const char* key) {
  if (!header.is_object() || !header.contains(key)) return "none";
  const nlohmann::json& v = header.at(key);
  return v.is_string() ? v.get<std::string>() : v.dump();
}

// Why a journal's header is not this run's, in words a user can act on:
// another journal format or another search (the task tree changed, so the
// records mean other tasks) names the build to resume it with; otherwise
// the fields that differ.
CheckpointError another_run(const std::string& path, const nlohmann::json& found, const nlohmann::json& expect,
                            std::istream& rest) {
  const std::string source = shorten(last_source(rest));
  const std::string by = " by magicount " + field(found, "version") +
                         (source.empty() ? std::string() : " (commit " + source + ")");
  const std::string either =
      source.empty() ? ": resume it with the build that wrote it (its records name none; a record folder's COMMAND "
                       "does), or give a new --checkpoint file"
                     : ": resume it with a build of commit " + source + ", or give a new --checkpoint file";
  if (field(found, "journal") != field(expect, "journal"))
    return CheckpointError("checkpoint " + path + " was written in journal format " + field(found, "journal") + by +
                           "; this build reads format " + field(expect, "journal") + either);
  if (field(found, "search") != field(expect, "search"))
    return CheckpointError("checkpoint " + path + " was written by search " + field(found, "search") + by +
                           ", and this build runs search " + field(expect, "search") +
                           ", whose tasks differ" + either);
  std::string differ;
  if (found.is_object())
    for (const auto& [key, value] : expect.items())
      if (!found.contains(key) || found.at(key) != value)
        differ += (differ.empty() ? "" : ", ") + key + " " + shorten(field(found, key.c_str())) + " here, " +
                  shorten(value.is_string() ? value.get<std::string>() : value.dump()) + " now";
  return CheckpointError("checkpoint " + path + " belongs to a different run (" +
                         (differ.empty() ? shorten(found.dump()) : differ) + ")");
}

}  // namespace

Journal::Journal(std::string path, nlohmann::json header, double flush_interval_seconds)
    : path_(std::move(path)),
      header_(std::move(header)),
      interval_(flush_interval_seconds),
      last_flush_(std::chrono::steady_clock::now()) {
  header_["journal"] = Journal::kFormat;
  header_["version"] = MAGIC_VERSION;
  header_text_ = header_.dump();
  open_locked();
  try {
    if (!read_existing()) start_fresh();
  } catch (...) {
    if (fd_ >= 0) ::close(fd_);  // and with it the lock
    throw;
  }
}

Journal::~Journal() {
  try {
    flush();
  } catch (...) {
  }
  if (fd_ >= 0) ::close(fd_);
}

std::optional<JournalContents> read_journal(const std::string& path, const nlohmann::json* expect) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  auto corrupt = [&](const std::string& why) {
    return CheckpointError("checkpoint " + path + " is corrupt: " + why);
  };
  JournalContents c;
  std::uint64_t tasks = 0;
  std::string bound_to;  // the header line records are checked under (format 1: none)
  std::string line;
  std::uint64_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    const bool whole = !in.eof();  // ended by '\n'
    if (line.size() > kMaxLine) throw corrupt("line " + std::to_string(line_no) + " is too long");
    // An unterminated first line is ours only if a kill tore our own header:
    // anything else is someone's file, never taken over.
    if (line_no == 1 && !whole && expect && expect->dump().rfind(line, 0) != 0)
      throw CheckpointError("checkpoint " + path + " is not a journal of this run: its first line is not this run's " +
                            "header (" + shorten(line) + "); it is left as it is");
    nlohmann::json j;
    try {
      j = parse_json(line, "line " + std::to_string(line_no), {16, kMaxLine});
    } catch (const InputError& e) {
      if (!whole) break;  // torn by a kill in mid-write
      throw corrupt(e.what());
    }
    // A complete-looking but unterminated last line: a record is not
    // trusted, and a header alone is no journal yet (the next record must
    // not be appended to its line).
    if (!whole) break;
    if (line_no == 1) {
      if (j.is_object() && j.contains("task") && j.contains("sum"))
        throw corrupt("it has no header: line 1 is a task record (was the file cut short, or its start removed?)");
      if (expect && (!j.is_object() || j != *expect)) throw another_run(path, j, *expect, in);
      if (!j.is_object() || !j.contains("tasks") || !j.at("tasks").is_number_unsigned())
        throw corrupt("line 1 is not a journal header");
      const std::string format = field(j, "journal");
      if (format != "1" && format != std::to_string(Journal::kFormat))
        throw corrupt("journal format " + format + " is not one this build reads (1 to " +
                      std::to_string(Journal::kFormat) + "): was it written by a newer build?");
      c.header = j;
      tasks = j.at("tasks").get<std::uint64_t>();
      if (format != "1") bound_to = line;
    } else {
      std::optional<TaskRecord> rec;
      std::uint64_t task = 0;
      try {
        if (!checksum_holds(bound_to, j)) throw corrupt("line " + std::to_string(line_no) + ": checksum mismatch (edited by hand?)");
        if (!j.at("task").is_number_unsigned()) throw corrupt("line " + std::to_string(line_no) + ": bad task index");
        task = j.at("task").get<std::uint64_t>();
        rec = task_record_from_json(j);
      } catch (const nlohmann::json::exception& e) {
        throw corrupt("line " + std::to_string(line_no) + ": " + e.what());
      }
      if (!rec) throw corrupt("line " + std::to_string(line_no) + ": bad digest");
      if (task >= tasks) throw corrupt("task " + std::to_string(task) + " is out of range");
      if (!c.done.emplace(task, *rec).second) throw corrupt("task " + std::to_string(task) + " is recorded twice");
      if (j.contains("solutions")) {
        const nlohmann::json& list = j.at("solutions");
        if (!list.is_array() || list.size() > rec->unique)
          throw corrupt("line " + std::to_string(line_no) + ": solutions must be a list of at most unique entries");
        c.solutions[task] = list.get<std::vector<nlohmann::json>>();
      }
      if (j.contains("source")) {
        const nlohmann::json& source = j.at("source");
        if (!source.is_string() || source.get_ref<const std::string&>().empty())
          throw corrupt("line " + std::to_string(line_no) + ": source must be a non-empty string");
        c.sources[task] = source.get<std::string>();
      }
    }
    c.good_end += line.size() + (whole ? 1 : 0);
  }
  if (c.good_end == 0) return std::nullopt;
  return c;
}

// Takes what an earlier run finished, and cuts a torn end off so the next
// record starts on a line of its own.  False: no journal yet.
bool Journal::read_existing() {
  std::optional<JournalContents> c = read_journal(path_, &header_);
  if (!c) return false;
  done_ = std::move(c->done);
  solutions_ = std::move(c->solutions);
  sources_ = std::move(c->sources);
  if (::ftruncate(fd_, static_cast<off_t>(c->good_end)) != 0)
    throw IoError("cannot cut the torn end of " + path_ + ": " + errno_text());
  size_ = c->good_end;
  resumed_ = done_.size();
  saved_ = resumed_;
  return true;
}

std::map<std::string, std::uint64_t> count_by_build(const std::map<std::uint64_t, std::string>& sources,
                                                    const std::map<std::uint64_t, TaskRecord>& records) {
  std::map<std::string, std::uint64_t> by;
  for (const auto& entry : records) {
    const auto it = sources.find(entry.first);
    ++by[it == sources.end() ? Journal::kUnrecordedSource : it->second];
  }
  return by;
}

std::map<std::string, std::uint64_t> Journal::sources() const {
  std::map<std::string, std::uint64_t> by = count_by_build(sources_, done_);
  for (const auto& [source, n] : recorded_by_) by[source] += n;
  return by;
}

const std::vector<nlohmann::json>& Journal::solutions(std::uint64_t task) const {
  static const std::vector<nlohmann::json> none;
  const auto it = solutions_.find(task);
  return it == solutions_.end() ? none : it->second;
}

// The file is rewritten (temp file and rename: a kill leaves the old journal
// or the new) and reopened for appending.
void Journal::drop_unlisted(std::uint64_t listing) {
  if (!listing) return;
  if (saved_ != resumed_) throw std::logic_error("drop_unlisted after a record");
  for (auto it = done_.begin(); it != done_.end();) {
    if (solutions(it->first).size() < std::min(it->second.unique, listing)) {
      dropped_.insert(*it);
      solutions_.erase(it->first);
      sources_.erase(it->first);
      it = done_.erase(it);
    } else {
      ++it;
    }
  }
  if (dropped_.empty()) return;
  AtomicFile out(path_);
  out.write(header_text_ + "\n");
  for (const auto& [task, rec] : done_)
    out.write(line(task, rec, solutions_.count(task) ? &solutions_.at(task) : nullptr,
                   sources_.count(task) ? &sources_.at(task) : nullptr));
  out.commit();
  resumed_ = saved_ = done_.size();
  ::close(fd_);  // it holds the file the rename replaced
  fd_ = -1;
  open_locked();
}

std::string Journal::line(std::uint64_t task, const TaskRecord& rec, const std::vector<nlohmann::json>* solutions,
                          const std::string* source) const {
  nlohmann::json j = to_json(rec);
  j["task"] = task;
  if (solutions) j["solutions"] = *solutions;
  if (source) j["source"] = *source;
  j["sum"] = checksum(header_text_, j);
  return j.dump() + "\n";
}

// Opened before it is read, so that a second run of the same journal is
// refused before it reads, cuts or rewrites anything.  (Read and write: a
// journal replaced under the run is copied out of this descriptor.)
void Journal::open_locked() {
  fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) throw IoError("cannot write checkpoint " + path_ + ": " + errno_text());
  struct stat st {};
  std::string refused;
  if (::fstat(fd_, &st) != 0) refused = "cannot stat checkpoint " + path_ + ": " + errno_text();
  else if (!S_ISREG(st.st_mode)) refused = "checkpoint " + path_ + " is not a regular file";
  // A file system without flock (ENOLCK) runs unlocked, as before locks.
  else if (::flock(fd_, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK)
    refused = "checkpoint " + path_ + " is in use by another run (one still running?); two runs of one journal "
              "would record its tasks twice";
  if (!refused.empty()) {
    ::close(fd_);
    fd_ = -1;
    throw CheckpointError(refused);
  }
  dev_ = st.st_dev;
  ino_ = st.st_ino;
  size_ = static_cast<std::uint64_t>(st.st_size);
}

void Journal::start_fresh() {
  if (::ftruncate(fd_, 0) != 0) throw IoError("cannot write checkpoint " + path_ + ": " + errno_text());
  size_ = 0;
  pending_ = header_text_ + "\n";
  flush();
}

// A run that went on appending to a journal removed or replaced under it
// would report its tasks saved while no one can see them.  So it stops, and
// what the old file holds (all this run knows, up to the batch just
// synced) is first copied out for the user to put back.
void Journal::check_in_place() {
  struct stat st {};
  const bool gone = ::stat(path_.c_str(), &st) != 0;
  if (!gone && st.st_dev == dev_ && st.st_ino == ino_) return;
  const std::string what = gone ? "is gone (" + errno_text() + ")" : "was replaced by another file";
  std::string rescued;
  try {
    rescued = "; the " + std::to_string(saved_) + " task records it held are copied to " + rescue() +
              ": put that file back as " + path_ + " to resume";
  } catch (const Error& e) {
    rescued = std::string("; its records could not be copied out (") + e.what() + ")";
  }
  give_up("checkpoint " + path_ + " " + what + " while this run was writing it; the run stops" + rescued);
}

// A journal cut short in place (`: > j.jsonl`) has lost records this run
// does not keep: it stops, and appends nothing to what is left, so that
// file is what the other program made it (an empty file resumes afresh).
void Journal::check_whole() {
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || static_cast<std::uint64_t>(st.st_size) >= size_) return;
  give_up("checkpoint " + path_ + " was cut short while this run was writing it (" + std::to_string(st.st_size) +
          " of the " + std::to_string(size_) + " bytes it wrote are left): its task records are lost and the run " +
          "stops; restore the file from a copy to resume, or remove it to start again");
}

void Journal::give_up(const std::string& why) {
  ::close(fd_);
  fd_ = -1;
  lost_ = why;
  throw CheckpointError(lost_);
}

std::string Journal::rescue() const {
  const std::string to = path_ + ".rescued-" + std::to_string(::getpid());
  AtomicFile out(to);
  std::string buf(std::size_t{1} << 20, '\0');
  for (off_t at = 0;;) {
    const ssize_t n = ::pread(fd_, buf.data(), buf.size(), at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw IoError("cannot read back checkpoint " + path_ + ": " + errno_text());
    if (n == 0) break;
    out.write(buf.substr(0, static_cast<std::size_t>(n)));
    at += n;
  }
  out.commit();
  return to;
}

void Journal::record(std::uint64_t task, const TaskRecord& rec, const std::vector<nlohmann::json>* solutions,
                     const std::string* source) {
  if (!lost_.empty()) throw CheckpointError(lost_);
  if (const auto old = dropped_.find(task); old != dropped_.end()) {
    const TaskRecord& was = old->second;
    if (rec.unique != was.unique || rec.total != was.total || !(rec.digest == was.digest) || !(rec.additive == was.additive) || rec.by_key != was.by_key)
      throw CheckpointError("task " + std::to_string(task) + " of checkpoint " + path_ +
                            ", run again for its solutions, gave " + to_json(rec).dump() + " where its record said " +
                            to_json(was).dump());
  }
  const std::string by = source ? *source : BuildInfo::source();
  pending_ += line(task, rec, solutions, &by);
  ++recorded_by_[by];
  ++saved_;
  const auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - last_flush_).count() >= interval_) flush();
}

void Journal::flush() {
  last_flush_ = std::chrono::steady_clock::now();
  if (fd_ < 0) return;
  check_whole();
  if (!pending_.empty()) write_pending();
  check_in_place();
}

void Journal::write_pending() {
  const std::size_t written = write_all(fd_, pending_);
  size_ += written;
  if (written != pending_.size()) throw IoError("cannot write checkpoint " + path_ + ": " + errno_text());
  pending_.clear();
  if (::fsync(fd_) != 0) throw IoError("cannot sync checkpoint " + path_ + ": " + errno_text());
}

}  // namespace magic
