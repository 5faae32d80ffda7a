// The reader of MadGraph's run_card.dat: the collider's s and tmin_for_channel.
#include "hepex/amplitudes/run_card.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "hepex/core/error.hpp"

namespace hepex::amplitudes {

namespace {

struct Value {
  double number;
  std::size_t line;
};

// A Fortran-style number ("6500.0", "1d-3", "-1"); false if the token is none.
bool parse_number(std::string token, double& value) {
  std::replace(token.begin(), token.end(), 'd', 'e');
  std::replace(token.begin(), token.end(), 'D', 'e');
  const bool plus = !token.empty() && token[0] == '+';
  const char* end = token.data() + token.size();
  const auto [ptr, ec] = std::from_chars(token.data() + plus, end, value);
  return ec == std::errc() && ptr == end && std::isfinite(value);
}

// MadEvent's beam mass for a beam of type lpp with an incoming gluon (setrun.f).
double beam_mass(int lpp) {
  switch (std::abs(lpp)) {
    case 1:
    case 2: return 0.938;
    case 3: return 0.000511;
    case 4: return 0.105658;
    default: return 0.0;
  }
}

}  // namespace

RunParameters parse_run_card(std::istream& in, const std::string& name) {
  static const char* const read[] = {"lpp1",      "lpp2",      "ebeam1",        "ebeam2",
                                     "mass_ion1", "mass_ion2", "dsqrt_shatmax", "tmin_for_channel"};
  std::map<std::string, Value> values;
  std::string text;
  for (std::size_t line = 1; std::getline(in, text); ++line) {
    const auto hash = text.find_first_not_of(" \t");
    if (hash == std::string::npos || text[hash] == '#') continue;
    text = text.substr(0, text.find('!'));
    const auto equals = text.find('=');
    if (equals == std::string::npos) continue;
    std::istringstream value_field(text.substr(0, equals)), name_field(text.substr(equals + 1));
    std::string value, key, extra;
    name_field >> key;
    if (std::find(std::begin(read), std::end(read), key) == std::end(read)) continue;
    const auto fail = [&](const std::string& what) {
      throw Error("run card " + name + " line " + std::to_string(line) + ": " + key + ": " + what);
    };
    if (!(value_field >> value) || (value_field >> extra)) fail("expected one value before '='");
    if (values.count(key)) {
      fail("given twice, first on line " + std::to_string(values[key].line));
    }
    double number = 0;
    if (!parse_number(value, number)) fail("'" + value + "' is not a finite number");
    values[key] = {number, line};
  }
  if (in.bad()) throw Error("run card " + name + ": read error");
  const auto get = [&](const char* key) {
    const auto it = values.find(key);
    if (it == values.end()) throw Error("run card " + name + ": no " + key);
    return it->second.number;
  };
  const auto optional = [&](const char* key, double fallback) {
    const auto it = values.find(key);
    return it == values.end() ? fallback : it->second.number;
  };
  const auto check = [&](const char* key, bool ok, const char* range) {
    if (!ok) {
      throw Error("run card " + name + " line " + std::to_string(values[key].line) + ": " + key +
                  " must be " + range);
    }
  };
  const double lpp[2] = {get("lpp1"), get("lpp2")};
  double energy[2] = {get("ebeam1"), get("ebeam2")};
  const double ion[2] = {optional("mass_ion1", -1), optional("mass_ion2", -1)};
  check("lpp1", lpp[0] == std::floor(lpp[0]), "a whole number");
  check("lpp2", lpp[1] == std::floor(lpp[1]), "a whole number");
  check("ebeam1", energy[0] >= 0, ">= 0");
  check("ebeam2", energy[1] >= 0, ">= 0");
  double mass[2], momentum[2];
  for (int b = 0; b < 2; ++b) {
    mass[b] = ion[b] >= 0 ? ion[b] : beam_mass(static_cast<int>(lpp[b]));
    if (energy[b] < mass[b] && lpp[b] != 9) energy[b] = mass[b];
    momentum[b] = std::sqrt(std::max(energy[b] * energy[b] - mass[b] * mass[b], 0.0));
  }
  RunParameters run;
  // stot = m1^2 + m2^2 + 2 (E1 E2 - pz1 pz2) with pz2 = -|p2| (setrun.f).
  run.collider_s = mass[0] * mass[0] + mass[1] * mass[1] +
                   2 * (energy[0] * energy[1] - momentum[0] * (-momentum[1]));
  const double shat_max = optional("dsqrt_shatmax", -1);
  if (shat_max != -1) run.collider_s = std::min(run.collider_s, shat_max * shat_max);
  run.tmin_for_channel = optional("tmin_for_channel", -1);
  if (values.count("tmin_for_channel")) {
    check("tmin_for_channel", run.tmin_for_channel >= -1 && run.tmin_for_channel <= 0,
          "in [-1, 0]");
  }
  if (!(run.collider_s > 0)) {
    throw Error("run card " + name + ": the collider's s is " + std::to_string(run.collider_s) +
                " (ebeam1, ebeam2): must be > 0");
  }
  return run;
}

RunParameters read_run_card(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("run card " + path + ": cannot open it");
  return parse_run_card(in, path);
}

}  // namespace hepex::amplitudes
