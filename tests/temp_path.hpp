#pragma once
// Scratch files of the tests.
#include <string>

#include <gtest/gtest.h>
#include <unistd.h>

// A path in the test temp dir that is unique to this process, since other
// build trees may run the same tests at the same time.
inline std::string unique_temp_path(const std::string& stem) {
  return ::testing::TempDir() + "/" + stem + "_" + std::to_string(::getpid());
}
