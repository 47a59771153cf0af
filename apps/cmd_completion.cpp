// magicount completion bash: a bash completion script made from the
// options table itself, so it offers exactly what --help lists.
#include <iostream>
#include <sstream>

#include "cli_common.hpp"
#include "commands.hpp"

namespace cli {
namespace {

// Every long and short name of the app's options, with --help.
std::string option_words(const CLI::App& app) {
  std::string out;
  for (const CLI::Option* o : app.get_options()) {
    for (const auto& n : o->get_lnames()) out += (out.empty() ? "--" : " --") + n;
    for (const auto& n : o->get_snames()) out += (out.empty() ? "-" : " -") + n;
  }
  return out;
}

// The options that take a value (so the next word is that value).
std::string valued_options(const CLI::App& app) {
  std::string out;
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_type_size() == 0 || o->get_positional()) continue;
    for (const auto& n : o->get_lnames()) out += "|--" + n;
    for (const auto& n : o->get_snames()) out += "|-" + n;
  }
  return out.empty() ? "" : out.substr(1);
}

std::string bash_script(const CLI::App& app) {
  std::ostringstream s;
  std::string subs;
  for (const CLI::App* sub : app.get_subcommands({})) subs += (subs.empty() ? "" : " ") + sub->get_name();
  s << "# bash completion for magicount, made by `magicount completion bash` from its options table.\n"
       "_magicount() {\n"
       "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} sub='' i\n"
       "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
       "    case ${COMP_WORDS[i]} in -*) ;; *) sub=${COMP_WORDS[i]}; break ;; esac\n"
       "  done\n"
       "  local words='' valued=''\n"
       "  case $sub in\n"
       "    '') words='"
    << option_words(app) << " " << subs << "' ;;\n";
  for (const CLI::App* sub : app.get_subcommands({})) {
    s << "    " << sub->get_name() << ") words='" << option_words(*sub) << "'";
    const std::string v = valued_options(*sub);
    if (!v.empty()) s << "\n      case $prev in " << v << ") COMPREPLY=($(compgen -f -- \"$cur\")); return ;; esac";
    s << " ;;\n";
  }
  s << "  esac\n"
       "  if [[ -z $sub || $cur == -* ]]; then\n"
       "    COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
       "  else\n"
       "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
       "  fi\n"
       "}\n"
       "complete -o default -F _magicount magicount magicount-mpi\n"
       "# magic-enum: the old name, for this release only.\n"
       "complete -o default -F _magicount magic-enum magic-enum-mpi\n";
  return s.str();
}

void add_completion(CLI::App& app, Action& action) {
  auto shell = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand("completion", "print a shell completion script made from these options");
  sub->add_option("shell", *shell, "the shell: bash")->required()->check(CLI::IsMember({"bash"}));
  sub->footer("Installed to share/bash-completion/completions/magicount; or: source <(magicount completion bash)");
  // The callback holds `shell`: the option writes into it at parse time.
  sub->callback([&app, &action, shell] {
    action = [&app, shell]() -> int {
      if (*shell != "bash") throw UsageError("no completion for the shell '" + *shell + "' (bash only)");
      std::cout << bash_script(app);
      return kOk;
    };
  });
}

const RegisterCommand reg_completion(95, add_completion);

}  // namespace
}  // namespace cli
