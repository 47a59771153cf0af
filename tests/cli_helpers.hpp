#pragma once
// Runs the real magic-enum binary and captures its exit code and output.
#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

#include "temp_path.hpp"

struct CliRun {
  int code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

// Runs a shell command line (another program than magic-enum: a script).
inline CliRun run_cli_raw(const std::string& command, const std::string& stdin_text = "") {
  // Output goes through files (not pipes) so neither stream can block the
  // other; they are removed on return.
  const ScratchPath out("cli_out"), err("cli_err"), in("cli_in");
  std::string cmd = command + " >" + out.str() + " 2>" + err.str();
  if (!stdin_text.empty()) {
    FILE* f = std::fopen(in.str().c_str(), "w");
    std::fputs(stdin_text.c_str(), f);
    std::fclose(f);
    cmd += " <" + in.str();
  } else {
    cmd += " </dev/null";
  }
  const int status = std::system(cmd.c_str());
  auto slurp = [](const std::string& p) {
    std::string s;
    if (FILE* f = std::fopen(p.c_str(), "r")) {
      std::array<char, 4096> buf;
      std::size_t n;
      while ((n = std::fread(buf.data(), 1, buf.size(), f)) > 0) s.append(buf.data(), n);
      std::fclose(f);
    }
    return s;
  };
  CliRun r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(out.str());
  r.err = slurp(err.str());
  return r;
}

inline CliRun run_cli(const std::string& args, const std::string& stdin_text = "") {
  return run_cli_raw(std::string(MAGIC_BIN) + " " + args, stdin_text);
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
