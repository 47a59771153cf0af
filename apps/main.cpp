// magicount: the command line.  It parses, calls the engine and prints.
#include <iostream>
#include <string_view>

#include "cluster.hpp"
#include "commands.hpp"

namespace {

// The project was called magic-enum until 0.1.0; the old command (a link
// the build and the install make) runs on for this release, with one line
// on stderr that names the new one.
void note_old_name(const char* argv0) {
  const std::string_view old = "magic-enum";
  std::string_view name = argv0 ? argv0 : "";
  name = name.substr(name.find_last_of('/') + 1);
  if (name.substr(0, old.size()) != old || !cli::cluster::primary()) return;
  std::cerr << name << ": the program is now called magicount" << name.substr(old.size())
            << "; the name " << name << " goes away in the next release\n";
}

}  // namespace

int main(int argc, char** argv) {
  const cli::cluster::MpiSession mpi(argc, argv);
  note_old_name(argc > 0 ? argv[0] : nullptr);
  std::string why = "it ended before its worker started";
  const int code = cli::run_command(argc, argv, cli::library_catalog(), why);
  // A rank 1.. that served no search tells rank 0, which may be waiting for it.
  cli::cluster::leave_unserved(why);
  return code;
}
