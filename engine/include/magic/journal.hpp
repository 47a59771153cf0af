#pragma once
// The task journal: a checkpoint that grows by one line per finished task,
// so saving costs O(1) per task however many are done, and a run killed at
// any moment (SIGKILL, out of memory, power) resumes from what reached disk.
//
//   {"journal":1,"problem":{...},"split_depth":5,"shard":"0/1","version":"...","tasks":1010}
//   {"by_key":[],"cpu":0.01,"digest":"...","nodes":1234,"sum":"<xxh3>","task":0,"total":0,"unique":0}
//   {"task":1,...}
//   {"task":2,"uni                                   <- torn by a kill: ignored, cut off
//
// Lines are written and fsync'd in batches, at least every `flush_interval`
// seconds and on flush().  A header that does not match the run, a line
// that cannot be read before the last one, or a duplicate or out-of-range
// task, or a record whose checksum does not match (a hand edit), is refused
// with CheckpointError.
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "magic/core/error.hpp"
#include "magic/task_record.hpp"

namespace magic {

// A journal as it lies on disk: its header and every intact task record.
struct JournalContents {
  nlohmann::json header;
  std::map<std::uint64_t, TaskRecord> done;
  std::uint64_t good_end = 0;  // bytes up to the end of the last intact line
};
// Reads a journal without opening it for a run; a torn last line is left
// out.  With `expect`, a header that differs is a CheckpointError ("belongs
// to a different run") before any record is read.  A damaged line is a
// CheckpointError.  Nothing: no journal (no file, an empty one, or a
// header torn before it reached the disk).
std::optional<JournalContents> read_journal(const std::string& path, const nlohmann::json* expect = nullptr);

class Journal {
 public:
  // Opens `path` for a run described by `header` (which must hold "tasks"):
  // reads the tasks an earlier run finished, or starts a new journal.
  Journal(std::string path, nlohmann::json header, double flush_interval_seconds = 2.0);
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  bool has(std::uint64_t task) const { return done_.count(task) != 0; }
  // The tasks an earlier run finished.
  const std::map<std::uint64_t, TaskRecord>& done() const { return done_; }
  std::uint64_t resumed() const { return resumed_; }
  std::uint64_t saved() const { return saved_; }  // resumed + recorded
  // Appends a finished task; writes and syncs the batch when it is due.
  void record(std::uint64_t task, const TaskRecord& rec);
  // Writes and syncs everything recorded so far.
  void flush();
  // The "sum" of a record line: XXH3 of the line's JSON without "sum".
  static std::string checksum(const nlohmann::json& record_without_sum);

 private:
  bool read_existing();
  void open_for_append(bool fresh);

  std::string path_;
  nlohmann::json header_;
  double interval_;
  int fd_ = -1;
  std::string pending_;
  std::chrono::steady_clock::time_point last_flush_;
  std::map<std::uint64_t, TaskRecord> done_;
  std::uint64_t resumed_ = 0;
  std::uint64_t saved_ = 0;
};

}  // namespace magic
