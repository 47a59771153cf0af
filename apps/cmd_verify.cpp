// `magicount verify`: the independent checker (checker/) on a result file.
// Exit 0: verified (summary on stdout); 1: a solution or figure is wrong
// (one line on stderr); 2: the file cannot be read or is not a result file
// (a magic::Error, reported by main like every other input error).
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "checker/checker.hpp"

namespace cli {
namespace {

constexpr const char* kVerifyFooter =
    "Checks, with code that shares nothing with the solvers: every solution is valid for the problem the\n"
    "file names; no two are the same up to the problem's symmetry; and when the file lists every counted\n"
    "solution (as many as counts.unique), counts.unique, counts.total, counts.by_sum and the digest\n"
    "recomputed from them agree with the file.\n"
    "Exit codes: 0 verified (one line on stdout); 1 a solution or figure is wrong (the first one, on\n"
    "stderr); 2 the file is missing, unreadable or not a result file.";

void add_verify(CLI::App& app, Action& action) {
  auto opts = std::make_shared<magic::checker::VerifyOptions>();
  CLI::App* sub = app.add_subcommand(
      "verify", "check a result file independently: solutions valid and distinct, counts and digest recomputed");
  sub->add_option("file", opts->result_path,
                  "result JSON written with --json FILE --solutions all (or without solutions, with --solutions-file)")
      ->required();
  sub->add_option("--solutions-file", opts->solutions_path,
                  "the run's solutions as JSON Lines (written by --solutions-file), one per line");
  sub->add_flag("--partial", opts->partial,
                "accept fewer listed solutions than counts.unique (a run with --solutions N); then counts and "
                "digest are not rechecked");
  sub->footer(kVerifyFooter);
  sub->callback([opts, &action] {
    action = [opts]() -> int {
      const magic::checker::VerifyReport r = magic::checker::verify(*opts);
      (r.ok ? std::cout : std::cerr) << (r.ok ? "" : "magicount: verify failed: ") << r.line << "\n";
      return r.ok ? 0 : 1;
    };
  });
}

const RegisterCommand reg_verify(80, add_verify);

}  // namespace
}  // namespace cli
