// magic-enum: the command line.  It parses, calls the engine and prints.
#include <algorithm>
#include <iostream>

#include "cli_common.hpp"
#include "commands.hpp"
#include "magic/canonical_set.hpp"
#include "magic/io.hpp"
#include "magic/result.hpp"

int main(int argc, char** argv) {
  CLI::App app{"magic-enum: exhaustive, parallel enumeration of magic squares, stars and circles"};
  app.set_version_flag("--version", std::string("magic-enum ") + magic::BuildInfo::version());
  app.require_subcommand(1);
  cli::Action action;
  auto commands = cli::command_registry();
  std::sort(commands.begin(), commands.end());
  for (const auto& [order, add] : commands) add(app, action);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    std::cerr << "magic-enum: error: " << msg.substr(0, msg.find('\n')) << " (see --help)\n";
    return cli::kUsage;
  }
  try {
    return action ? action() : cli::kUsage;
  } catch (const cli::UsageError& e) {
    std::cerr << "magic-enum: error: " << e.what() << "\n";
  } catch (const std::invalid_argument& e) {
    std::cerr << "magic-enum: error: " << e.what() << "\n";
  } catch (const magic::IoError& e) {
    std::cerr << "magic-enum: error: " << e.what() << "\n";
  } catch (const magic::MemoryLimitError& e) {
    std::cerr << "magic-enum: error: " << e.what() << " (raise --dedup-memory)\n";
  } catch (const std::exception& e) {
    std::cerr << "magic-enum: error: " << e.what() << "\n";
  }
  return cli::kUsage;
}
