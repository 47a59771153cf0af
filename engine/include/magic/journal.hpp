#pragma once
// The task journal: a checkpoint that grows by one line per finished task,
// so saving costs O(1) per task however many are done, and a run killed at
// any moment (SIGKILL, out of memory, power) resumes from what reached disk.
//
//   {"journal":2,"problem":{...},"search":"star/2","shard":"0/1","split_depth":5,"tasks":1010,"version":"..."}
//   {"by_key":[],"cpu":0.01,"digest":"...","nodes":1234,"sum":"<xxh3>","task":0,"total":0,"unique":0}
//   {"task":1,...}
//   {"task":2,"uni                                   <- torn by a kill: ignored, cut off
//
// Records lie in the order tasks finish, which is not task order.
//
// A run that lists solutions also writes each task's listed solutions into
// its record ("solutions":[...]), so a resumed run lists them in task order
// as if it had never stopped.  A record that lists fewer than such a run
// needs (a journal written without them) is dropped, and its task is run
// again; the new record must then give the same counts and digest.
//
// Each record also names the build that ran its task ("source", the
// commit), so a run stopped and resumed across builds says which tasks each
// one did (the result's run.task_sources).  On a cluster that is the build
// of the rank that ran the task, not the coordinator's.  Records written
// before this field existed name none and count as "unrecorded".
//
// Lines are written and fsync'd in batches, at least every `flush_interval`
// seconds and on flush().  A run holds an exclusive flock on its journal: a
// second run of the same journal is refused ("in use by another run")
// rather than doubling its records.  After each batch the run checks that
// the path still names the file it writes: a journal removed or replaced
// under it (a `git checkout` of an older journal, say) would leave every
// later record in a file nobody can see, so the run stops with
// CheckpointError, and what that file holds is first copied out to
// "<path>.rescued-<pid>".  A header that does not match the run, a line
// that cannot be read before the last one, or a duplicate or out-of-range
// task, or a record whose checksum does not match (a hand edit), is refused
// with CheckpointError.  A record's checksum covers the header line too, so
// records spliced under another run's header fail it.  A header of another
// journal format or another search (core/problem.hpp's kSearch) is refused
// with the build that wrote it, which is the one to resume it with.
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "magic/core/error.hpp"
#include "magic/task_record.hpp"

namespace magic {

// A journal as it lies on disk: its header and every intact task record.
struct JournalContents {
  nlohmann::json header;
  std::map<std::uint64_t, TaskRecord> done;
  std::map<std::uint64_t, std::vector<nlohmann::json>> solutions;  // of the records that list them
  std::map<std::uint64_t, std::string> sources;                    // of the records that name their build
  std::uint64_t good_end = 0;  // bytes up to the end of the last intact line
};
// Reads a journal without opening it for a run; a torn last line is left
// out.  With `expect`, a header that differs is a CheckpointError ("belongs
// to a different run") before any record is read.  A damaged line is a
// CheckpointError.  Nothing: no journal (no file, an empty one, or a
// header torn before it reached the disk).
std::optional<JournalContents> read_journal(const std::string& path, const nlohmann::json* expect = nullptr);
// How many of `records` each build ran, by `sources` (task -> build); a
// record that names none counts under Journal::kUnrecordedSource.
std::map<std::string, std::uint64_t> count_by_build(const std::map<std::uint64_t, std::string>& sources,
                                                    const std::map<std::uint64_t, TaskRecord>& records);

// Not thread-safe: a run's merger calls it under its own lock.
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
  // The solutions a finished task's record lists (none: empty).
  const std::vector<nlohmann::json>& solutions(std::uint64_t task) const;
  // For a run that lists `listing` solutions (0: none): drops every record
  // that lists fewer than min(unique, listing), from memory and from the
  // file, so those tasks run again.  Before the first record().
  void drop_unlisted(std::uint64_t listing);
  // Tasks dropped to be run again for their solutions.
  std::uint64_t dropped() const { return dropped_.size(); }
  std::uint64_t resumed() const { return resumed_; }
  std::uint64_t saved() const { return saved_; }  // resumed + recorded
  // How many of the saved tasks each build ran (kUnrecordedSource: records
  // that name none).
  std::map<std::string, std::uint64_t> sources() const;
  static constexpr const char* kUnrecordedSource = "unrecorded";
  // Appends a finished task, with the solutions it lists when the run lists
  // them, run by build `source` (null: this process's); writes and syncs
  // the batch when it is due.  A dropped task must come out as its old
  // record said (CheckpointError otherwise).
  void record(std::uint64_t task, const TaskRecord& rec, const std::vector<nlohmann::json>* solutions = nullptr,
              const std::string* source = nullptr);
  // Writes and syncs everything recorded so far.
  void flush();
  // The journal format this build writes: 2 binds each record to its header.
  static constexpr int kFormat = 2;
  // The "sum" of a record line: XXH3 of the header line (as written, no
  // newline) and the record's JSON without "sum".  Format 1 had no header.
  static std::string checksum(std::string_view header_line, const nlohmann::json& record_without_sum);

 private:
  std::string line(std::uint64_t task, const TaskRecord& rec, const std::vector<nlohmann::json>* solutions,
                   const std::string* source) const;
  bool read_existing();
  void open_locked();
  void start_fresh();
  void write_pending();
  void check_in_place();
  void check_whole();
  [[noreturn]] void give_up(const std::string& why);
  std::string rescue() const;

  std::string path_;
  nlohmann::json header_;
  std::string header_text_;  // header_ as its line says it; every record's checksum covers it
  double interval_;
  int fd_ = -1;
  std::uint64_t dev_ = 0, ino_ = 0;  // the file fd_ holds, to notice it being replaced
  std::uint64_t size_ = 0;           // the bytes it holds as this run wrote it, to notice it cut short
  std::string lost_;                 // why the journal was given up; records are refused after
  std::string pending_;
  std::chrono::steady_clock::time_point last_flush_;
  std::map<std::uint64_t, TaskRecord> done_;
  std::map<std::uint64_t, std::vector<nlohmann::json>> solutions_;
  std::map<std::uint64_t, std::string> sources_;  // of the resumed records that name their build
  std::map<std::string, std::uint64_t> recorded_by_;  // this run's records, by build
  std::map<std::uint64_t, TaskRecord> dropped_;
  std::uint64_t resumed_ = 0;
  std::uint64_t saved_ = 0;
};

}  // namespace magic
