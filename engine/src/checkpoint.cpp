#include "magic/checkpoint.hpp"

#include <fstream>
#include <stdexcept>

#include "magic/io.hpp"

namespace magic {

Checkpoint::Checkpoint(std::string path, nlohmann::json signature, double save_interval_seconds)
    : path_(std::move(path)),
      signature_(std::move(signature)),
      interval_(save_interval_seconds),
      last_save_(std::chrono::steady_clock::now()) {}

bool Checkpoint::load() {
  std::ifstream in(path_);
  if (!in) return false;
  nlohmann::json j;
  try {
    in >> j;
    if (j.at("signature") != signature_)
      throw CheckpointError("checkpoint " + path_ + " belongs to a different run (" +
                               j.at("signature").dump() + ")");
    for (const auto& t : j.at("tasks")) {
      const auto r = task_record_from_json(t);
      if (!r) throw CheckpointError("checkpoint " + path_ + " is corrupt: bad digest");
      done_[t.at("task").get<std::uint64_t>()] = *r;
    }
  } catch (const nlohmann::json::exception& e) {
    throw CheckpointError("checkpoint " + path_ + " is corrupt: " + e.what());
  }
  return true;
}

void Checkpoint::record(std::uint64_t task, const TaskRecord& rec) {
  done_[task] = rec;
  const auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - last_save_).count() >= interval_) save();
}

void Checkpoint::save() {
  nlohmann::json tasks = nlohmann::json::array();
  for (const auto& [i, r] : done_) {
    nlohmann::json t = to_json(r);
    t["task"] = i;
    tasks.push_back(std::move(t));
  }
  AtomicFile f(path_);
  f.write(nlohmann::json{{"signature", signature_}, {"tasks", tasks}}.dump());
  f.commit();
  last_save_ = std::chrono::steady_clock::now();
}

}  // namespace magic
