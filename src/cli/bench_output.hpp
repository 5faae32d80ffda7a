#pragma once
// What every `hepex bench` subcommand shares: number formatting and the JSON
// summary file.

#include <nlohmann/json.hpp>
#include <string>

namespace hepex::cli {

// x with `digits` digits after the point.
std::string fixed(double x, int digits);
// Fails before any work when the JSON summary could not be written.
void check_writable(const std::string& path);
// Writes a benchmark's JSON summary when a path was given.
void write_json(const std::string& path, const nlohmann::json& summary);

}  // namespace hepex::cli
