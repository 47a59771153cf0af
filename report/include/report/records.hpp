#pragma once
// `magicount reproduce --records`: checks every record run kept in
// data/records/<count>/ (its COMMAND, its journal and its result.json).
//
//   rerun     a record whose run takes under `rerun_seconds` here is run
//             again from its COMMAND (without its journal), and must give
//             the same counts, digest and node count;
//   journal   every record with a journal: the task records it holds, each
//             with an intact checksum, cover every task and add up to the
//             result's counts, digest and nodes;
//   verify    a result that lists its solutions passes the independent
//             checker (magicount verify);
//   cross-check  a folder with a CROSSCHECK file names an independent
//             computation of its count: "record NAME" (a second run in
//             folder NAME, with another split depth or thread count) or a
//             magicount command sharing no search code (the circles'
//             multiplier method), run here.  Counts and digest must agree.
//
// A folder with a journal but no result.json is a run still under way:
// reported with its progress, and not a failure.
#include <functional>
#include <string>
#include <vector>

namespace magic {

struct RecordsOptions {
  std::string dir = "data/records";
  std::string self;              // this magicount, to rerun commands
  std::string out_dir;           // where reruns write their JSON
  double rerun_seconds = 600;    // rerun when the record's CPU time / threads is below this
  unsigned threads = 0;          // for reruns; 0 = all cores
  std::function<void(const std::string&)> on_step;
};

struct RecordCheck {
  std::string name;                 // the folder
  std::string status;               // "agrees", "differs" or "running"
  std::vector<std::string> checks;  // one line per check made
};

// SpecError for a missing records directory; IoError if a rerun cannot start.
std::vector<RecordCheck> check_records(const RecordsOptions& opt);

// The command line in a COMMAND file: comments dropped, continued lines
// joined, split into words.  SpecError if it does not run magicount.
std::vector<std::string> record_command(const std::string& text);

}  // namespace magic
