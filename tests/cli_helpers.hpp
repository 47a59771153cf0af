#pragma once
// Runs the real magicount binary and captures its exit code and output.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "report/process.hpp"

#include "temp_path.hpp"

struct CliRun {
  int code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

// The text of a file ("" if there is none): every test that reads back
// what a program wrote reads it with this.
inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A shell command line, started the one way the project starts programs
// (magic::run_process): its own redirections apply over stdin, stdout and
// stderr on /dev/null.  The exit code, or 128 + the signal.
inline int run_shell_status(const std::string& command) {
  return magic::run_process({"/bin/sh", "-c", command}, {.output_file = "/dev/null"}).code;
}

// Runs a shell command line (another program than magicount: a script).
inline CliRun run_cli_raw(const std::string& command, const std::string& stdin_text = "") {
  // Output goes through files (not pipes) so neither stream can block the
  // other; they are removed on return.
  const ScratchPath out("cli_out"), err("cli_err"), in("cli_in");
  magic::ProcessOptions opt{.output_file = out.str(), .error_file = err.str()};
  if (!stdin_text.empty()) {
    FILE* f = std::fopen(in.str().c_str(), "w");
    std::fputs(stdin_text.c_str(), f);
    std::fclose(f);
    opt.input_file = in.str();
  }
  CliRun r;
  r.code = magic::run_process({"/bin/sh", "-c", command}, opt).code;
  r.out = read_text(out.str());
  r.err = read_text(err.str());
  return r;
}

inline CliRun run_cli(const std::string& args, const std::string& stdin_text = "") {
  // Appended, not `a + " " + b`: g++ 12 sees a false -Warray-bounds in that.
  std::string command = MAGIC_BIN;
  command += ' ';
  command += args;
  return run_cli_raw(command, stdin_text);
}

// A usage error: exit 2, exactly one line on stderr, no crash text.
#define EXPECT_CLEAN_ERROR(run)                                                   \
  do {                                                                            \
    const CliRun& r_ = (run);                                                     \
    EXPECT_EQ(r_.code, 2) << r_.err;                                              \
    EXPECT_EQ(std::count(r_.err.begin(), r_.err.end(), '\n'), 1) << r_.err;       \
    EXPECT_NE(r_.err.find("error"), std::string::npos) << r_.err;                 \
    EXPECT_EQ(r_.err.find("terminate"), std::string::npos) << r_.err;             \
  } while (0)
