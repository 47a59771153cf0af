#pragma once
// The one way the reports start a program (`reproduce` times the ports,
// `reproduce --records` reruns a record's command): no shell, so no
// quoting; stdin is /dev/null; the caller waits for it.
#include <string>
#include <vector>

namespace magic {

struct ProcessOptions {
  // Where stdout goes: a file (created or truncated), or, when empty,
  // back to the caller in ProcessResult::out.
  std::string output_file;
  bool stderr_too = false;  // stderr with stdout; otherwise to /dev/null
};

struct ProcessResult {
  int code = 0;     // the exit code, or 128 + the signal that ended it
  std::string out;  // stdout, when ProcessOptions::output_file is empty
};

// argv[0] is the program's path.  Throws IoError when it cannot be started.
ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& opt = {});

}  // namespace magic
