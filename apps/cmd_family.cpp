// Every family's subcommand, built from its table (magic::FamilyCommand):
// one option per spec field, the common options, --svg where the family
// draws, and a run of the spec the options make.
#include <charconv>
#include <map>

#include "cli_common.hpp"
#include "commands.hpp"
#include "magic/spec.hpp"

namespace cli {

namespace {
std::map<std::string, Extend>& extensions() {
  static std::map<std::string, Extend> m;
  return m;
}

std::int64_t whole(const std::string& text, const std::string& flag) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size())
    throw UsageError(flag + ": " + text + " is too large");
  return v;
}

std::string first_flag(const std::string& flags) { return flags.substr(0, flags.find(',')); }
}  // namespace

RegisterExtension::RegisterExtension(const char* family, Extend extend) { extensions()[family] = extend; }

const Catalog& library_catalog() {
  static const Catalog c{magic::family_commands(), [](const nlohmann::json& spec) { return magic::Job::make(spec); }};
  return c;
}

void FamilyCli::add_fields(CLI::App* sub) {
  for (const magic::FieldOption& row : family_.options) {
    auto g = std::make_unique<Given>();
    g->row = &row;
    g->text = row.default_value;
    CLI::Option* o = nullptr;
    switch (row.kind) {
      case magic::FieldKind::Off:
      case magic::FieldKind::On: o = sub->add_flag(row.flags, g->flag, row.help); break;
      case magic::FieldKind::IntList:
        o = sub->add_option(row.flags, g->list, row.help)->delimiter(',')->transform(whole_number())->type_name("INT");
        break;
      case magic::FieldKind::Int:
        o = sub->add_option(row.flags, g->text, row.help)->transform(whole_number())->type_name("INT");
        break;
      case magic::FieldKind::Text:
      case magic::FieldKind::Choice: o = sub->add_option(row.flags, g->text, row.help); break;
    }
    if (!row.default_value.empty()) o->capture_default_str();
    if (row.required) o->required();
    if (!row.needs.empty()) o->needs(row.needs);
    g->option = o;
    given_.push_back(std::move(g));
  }
}

void FamilyCli::add_common_options(CLI::App* sub) {
  add_common(sub, common_, family_.levels);
  if (family_.svg) add_svg_option(sub, common_);
}

nlohmann::json FamilyCli::spec() const {
  nlohmann::json spec{{"name", family_.name}};
  for (const auto& g : given_) {
    const magic::FieldOption& row = *g->row;
    const std::string flag = first_flag(row.flags);
    if (g->option->count() == 0 && row.default_value.empty()) continue;
    switch (row.kind) {
      case magic::FieldKind::Off: spec[row.field] = false; break;
      case magic::FieldKind::On: spec[row.field] = true; break;
      case magic::FieldKind::IntList: {
        nlohmann::json list = nlohmann::json::array();
        for (const std::string& v : g->list) list.push_back(whole(v, flag));
        spec[row.field] = list;
        break;
      }
      case magic::FieldKind::Int: {
        const std::int64_t v = whole(g->text, flag);
        if (!row.positive_needs.empty() && v < 1)
          throw UsageError(flag + " must be " + row.positive_needs + ", got " + std::to_string(v));
        spec[row.field] = v;
        break;
      }
      case magic::FieldKind::Choice:
        if (row.accepts && !row.accepts(g->text))
          throw UsageError("unknown " + flag + " '" + g->text + "' (use " + row.values + ")");
        spec[row.field] = g->text;
        break;
      case magic::FieldKind::Text: spec[row.field] = g->text; break;
    }
  }
  return spec;
}

Printer FamilyCli::printer() const {
  Printer pr;
  switch (family_.text) {
    case magic::SolutionText::Grid: pr.human_solution = print_grid; break;
    case magic::SolutionText::PointsAndSums: pr.human_solution = print_points_and_sums; break;
    case magic::SolutionText::Numbers: pr.human_solution = print_numbers; break;
    case magic::SolutionText::Labels: pr.human_solution = print_labels; break;
  }
  return pr;
}

int FamilyCli::execute(const nlohmann::json& spec, const Common& c, const Printer& pr) const {
  return cli::execute(make_job(spec), c, pr);
}

// The family's subcommand, and its run as the action once it is parsed.
void add_family(CLI::App& app, Action& action, const magic::FamilyCommand& family, const Catalog& catalog) {
  CLI::App* sub = app.add_subcommand(family.name, family.summary);
  auto cli = std::make_shared<FamilyCli>(family, catalog);
  cli->add_fields(sub);
  if (!family.footer.empty()) sub->footer(family.footer);
  const auto ext = extensions().find(family.name);
  const Extension extension = ext == extensions().end() ? Extension{} : ext->second(sub, cli);
  cli->add_common_options(sub);
  if (extension.after_common) extension.after_common(sub);
  Action run = extension.run;
  if (!run) run = [cli] { return cli->execute(cli->spec(), cli->common(), cli->printer()); };
  sub->callback([run, &action] { action = run; });
}

bool on_every_rank(const CLI::App& app, const Catalog& catalog) {
  for (const CLI::App* sub : app.get_subcommands())
    for (const magic::FamilyCommand& f : catalog.families)
      if (sub->get_name() == f.name) return true;
  return false;
}

}  // namespace cli
