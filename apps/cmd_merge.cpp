// magicount merge: shard results of one run into the result of the whole.
#include <iostream>

#include "cli_common.hpp"
#include "commands.hpp"
#include "magic/io.hpp"
#include "magic/result_file.hpp"

namespace cli {
namespace {

struct MergeArgs {
  std::vector<std::string> files;
  std::string json;
  bool partial = false;
  bool quiet = false;
};

void print_merge_summary(const nlohmann::json& m) {
  const auto& c = m.at("counts");
  std::cout << ">> " << magic::echo_line(m.at("problem")) << "  merged " << m.at("run").at("shards_merged").size()
            << " shards" << (m.at("exhaustive").get<bool>() ? "" : " (partial: not exhaustive)") << "\n";
  std::cout << "unique " << c.at("unique");
  if (c.contains("total")) std::cout << "  total " << c.at("total");
  std::cout << "\ndigest " << m.at("digest").get<std::string>() << "  nodes " << m.at("run").at("nodes")
            << "  cpu " << m.at("run").at("cpu_seconds").get<double>() << "s\n";
}

void add_merge(CLI::App& app, Action& action) {
  auto a = std::make_shared<MergeArgs>();
  CLI::App* sub = app.add_subcommand(
      "merge", "combine the --json results of the shards i/m of one run into the result of the whole run");
  sub->add_option("files", a->files, "result files written with --shard i/m --json FILE")->required();
  sub->add_option("--json", a->json, "write the merged result to FILE ('-' = stdout)")->check(file_name());
  sub->add_flag("--partial", a->partial,
                "merge even if shards are missing or stopped early; the result says \"exhaustive\": false");
  sub->add_flag("--quiet,-q", a->quiet, "no summary");
  sub->footer(
      "The shards must be of one run: the same problem, split depth, shard count, task count and engine "
      "version, each shard given once. Exit 0 merged, 2 refused (one line says why).");
  sub->callback([a, &action] {
    action = [a]() -> int {
      for (const auto& f : a->files) check_not_input("--json", a->json, f);
      if (!a->json.empty() && a->json != "-") check_writable(a->json);
      std::vector<magic::ShardResult> shards;
      for (const auto& f : a->files) shards.push_back(magic::read_result(f));
      const nlohmann::json merged = magic::merge_results(shards, a->partial);
      if (!a->json.empty()) {
        magic::AtomicFile out(a->json);
        out.write(merged.dump(2) + "\n");
        out.commit();
      }
      if (a->json != "-" && !a->quiet) print_merge_summary(merged);
      return kOk;
    };
  });
}

const RegisterCommand reg_merge(70, add_merge);

}  // namespace
}  // namespace cli
