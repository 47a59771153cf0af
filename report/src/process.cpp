#include "report/process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "magic/core/error.hpp"

extern char** environ;

namespace magic {
namespace {

// posix_spawn's file actions, released however the spawn ends.
struct FileActions {
  posix_spawn_file_actions_t fa;
  FileActions() { posix_spawn_file_actions_init(&fa); }
  ~FileActions() { posix_spawn_file_actions_destroy(&fa); }
};

std::string read_all(int fd) {
  std::string out;
  char buf[1 << 14];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  return out;
}

}  // namespace

Process::~Process() {
  if (out_fd_ >= 0) ::close(out_fd_);
  if (pid_ > 0) wait();
}

std::string Process::read_out() {
  std::string out = read_all(out_fd_);
  ::close(out_fd_);
  out_fd_ = -1;
  return out;
}

int Process::wait() {
  if (pid_ <= 0) return code_;
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return code_;
}

Process start_process(const std::vector<std::string>& argv, const ProcessOptions& opt) {
  if (argv.empty()) throw IoError("no program to start");
  std::vector<std::string> copy = argv;
  std::vector<char*> args;
  for (auto& a : copy) args.push_back(a.data());
  args.push_back(nullptr);

  int pipe_fds[2] = {-1, -1};
  const bool capture = opt.output_file.empty();
  if (capture && ::pipe2(pipe_fds, O_CLOEXEC) != 0) throw IoError(std::string("cannot make a pipe: ") + std::strerror(errno));
  FileActions fa;
  posix_spawn_file_actions_addopen(&fa.fa, 0, opt.input_file.empty() ? "/dev/null" : opt.input_file.c_str(), O_RDONLY,
                                   0);
  if (capture) posix_spawn_file_actions_adddup2(&fa.fa, pipe_fds[1], 1);
  else posix_spawn_file_actions_addopen(&fa.fa, 1, opt.output_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (opt.stderr_too) posix_spawn_file_actions_adddup2(&fa.fa, 1, 2);
  else if (!opt.error_file.empty())
    posix_spawn_file_actions_addopen(&fa.fa, 2, opt.error_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  else posix_spawn_file_actions_addopen(&fa.fa, 2, "/dev/null", O_WRONLY, 0);

  pid_t pid = -1;
  const bool in_path = argv[0].find('/') == std::string::npos;
  const int err = (in_path ? posix_spawnp : posix_spawn)(&pid, args[0], &fa.fa, nullptr, args.data(), environ);
  if (capture) ::close(pipe_fds[1]);
  if (err) {
    if (capture) ::close(pipe_fds[0]);
    throw IoError("cannot start " + argv[0] + ": " + std::strerror(err));
  }
  return Process(pid, capture ? pipe_fds[0] : -1);
}

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& opt) {
  Process p = start_process(argv, opt);
  ProcessResult r;
  if (p.out_fd() >= 0) r.out = p.read_out();
  r.code = p.wait();
  return r;
}

}  // namespace magic
