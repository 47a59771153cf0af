#pragma once
// The one way the project starts a program (`reproduce` times the ports,
// `reproduce --records` reruns a record's command, the tests run the CLI):
// no shell, so no quoting (a test that needs a shell's redirections starts
// /bin/sh -c); the caller waits for it.  A program named without a '/' is
// looked up in PATH.
#include <sys/types.h>

#include <string>
#include <utility>
#include <vector>

namespace magic {

struct ProcessOptions {
  // Where stdout goes: a file (created or truncated), or, when empty,
  // back to the caller in ProcessResult::out.
  std::string output_file;
  bool stderr_too = false;  // stderr with stdout; otherwise to error_file
  std::string error_file;   // stderr's file (created or truncated); empty: /dev/null
  std::string input_file;   // stdin's file; empty: /dev/null
};

struct ProcessResult {
  int code = 0;     // the exit code, or 128 + the signal that ended it
  std::string out;  // stdout, when ProcessOptions::output_file is empty
};

// A program started and not yet waited for, for a caller that signals it
// or reads its stdout as it comes.  Waited for (at the latest) when it goes.
class Process {
 public:
  Process(pid_t pid, int out_fd) : pid_(pid), out_fd_(out_fd) {}
  Process(Process&& o) noexcept : pid_(std::exchange(o.pid_, -1)), out_fd_(std::exchange(o.out_fd_, -1)) {}
  Process& operator=(Process&&) = delete;
  ~Process();
  pid_t pid() const { return pid_; }
  // Its stdout (a pipe) when ProcessOptions::output_file is empty, else -1.
  int out_fd() const { return out_fd_; }
  // Reads its stdout to the end (out_fd() must be a pipe).
  std::string read_out();
  // The exit code, or 128 + the signal that ended it.
  int wait();

 private:
  pid_t pid_;
  int out_fd_;
  int code_ = -1;
};

// argv[0] is the program's path.  Throws IoError when it cannot be started.
Process start_process(const std::vector<std::string>& argv, const ProcessOptions& opt = {});
// start_process, its whole stdout (unless it goes to a file), and wait.
ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& opt = {});

}  // namespace magic
