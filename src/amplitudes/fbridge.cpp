// CUDACPP's Fortran bridge entry points over the C API
// (include/hepex/hepex_fbridge.h).
#include "hepex/hepex_fbridge.h"

#include <cfenv>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace {

// Where an error ends (hepex_fbridge.h): the message, then exit status 1.
[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "hepex fbridge: %s\n", message.c_str());
  std::exit(1);
}

void check(int status) {
  if (status != HEPEX_ME_OK) fail(hepex_me_last_error());
}

// The caller's floating-point environment, restored when the entry point
// returns: the exceptions hepex's own work raised (a division by zero in a
// helicity that vanishes, say) are not left signalling in the Fortran
// program, which would report them at its end as if its own.
class KeepFloatingPointEnvironment {
 public:
  KeepFloatingPointEnvironment() { std::fegetenv(&saved_); }
  ~KeepFloatingPointEnvironment() { std::fesetenv(&saved_); }
  KeepFloatingPointEnvironment(const KeepFloatingPointEnvironment&) = delete;
  KeepFloatingPointEnvironment& operator=(const KeepFloatingPointEnvironment&) = delete;

 private:
  std::fenv_t saved_;
};

bool is_file(const std::string& path) {
  std::error_code error;
  return std::filesystem::is_regular_file(path, error);
}

// The run's Cards directory, where CUDACPP looks for param_card.dat: from the
// working directory ../Cards (madevent run in its P directory) or
// ../../Cards (a survey job in P/G1), $MG5AMC_CARD_PATH, then beside the
// executable ../Cards and ../../Cards. The first with param_card.dat.
std::string cards_directory() {
  std::vector<std::string> tried{"../Cards", "../../Cards"};
  if (const char* path = std::getenv("MG5AMC_CARD_PATH")) tried.push_back(path);
  std::error_code error;
  const auto executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    tried.push_back((executable.parent_path() / "../Cards").string());
    tried.push_back((executable.parent_path() / "../../Cards").string());
  }
  std::string list;
  for (const auto& directory : tried) {
    if (is_file(directory + "/param_card.dat")) return directory;
    list += (list.empty() ? "" : ", ") + directory;
  }
  fail("fbridgecreate: no param_card.dat in " + list +
       " (the run's Cards directory, as CUDACPP looks for it; HEPEX_PARAM_CARD and "
       "HEPEX_RUN_CARD name the cards instead)");
}

// The subprocess named by the directory MadEvent runs in, as CUDACPP's
// per-subprocess libraries know theirs: the first of the executable's
// directory, the working directory and its parent (a survey job in P/G1)
// named P<n>_<subprocess> ("P2_gu_ttxgu"); "" if none is.
std::string subprocess_directory() {
  std::vector<std::filesystem::path> tried;
  std::error_code error;
  const auto executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) tried.push_back(executable.parent_path());
  const auto cwd = std::filesystem::current_path(error);
  if (!error) {
    tried.push_back(cwd);
    tried.push_back(cwd.parent_path());
  }
  for (const auto& directory : tried) {
    const std::string name = directory.filename().string();
    std::size_t digits = 1;
    while (digits < name.size() && name[digits] >= '0' && name[digits] <= '9') ++digits;
    if (name.size() > digits + 1 && name[0] == 'P' && digits > 1 && name[digits] == '_') {
      return name.substr(digits + 1);
    }
  }
  return "";
}

// The process of a MadEvent subprocess with npar particles: HEPEX_PROCESS
// where set, else the subprocess of the P directory MadEvent runs in
// (subprocess_directory), else the one process of the registry with npar
// particles; the process must have npar particles and MadEvent's channel
// ids (hepex_me_process_madevent); several or none, or a subprocess hepex
// does not have: an error naming them.
std::string process_for(int npar) {
  std::string all, matching;
  int matches = 0;
  for (int i = 0; i < hepex_me_processes(); ++i) {
    if (hepex_me_process_madevent(i) != 1) continue;
    const std::string name = hepex_me_process_name(i);
    const int particles = hepex_me_process_particles(i);
    all += (all.empty() ? "" : ", ") + name + " (" + std::to_string(particles) + ")";
    if (particles == npar) {
      matching += (matching.empty() ? "" : ", ") + name;
      ++matches;
    }
  }
  const auto named = [&](const std::string& what, const std::string& chosen) {
    const int i = hepex_me_process_index(chosen.c_str());
    if (i < 0) fail("fbridgecreate: " + what + ": not a process of hepex (" + all + ")");
    if (hepex_me_process_madevent(i) != 1) {
      fail("fbridgecreate: " + what + ": hepex has its matrix elements, but its tables come " +
           "from MadGraph 3.1.1 (madgraph4gpu ships no such directory), which numbers the " +
           "diagrams, MadEvent's channel ids, otherwise than the MadGraph CUDACPP serves; " +
           "MadEvent cannot call it (the processes it can: " + all + ")");
    }
    if (hepex_me_process_particles(i) != npar) {
      fail("fbridgecreate: " + what + " has " + std::to_string(hepex_me_process_particles(i)) +
           " particles, MadEvent's npar = " + std::to_string(npar));
    }
    return std::string(hepex_me_process_name(i));
  };
  if (const char* chosen = std::getenv("HEPEX_PROCESS")) {
    return named("HEPEX_PROCESS=" + std::string(chosen), chosen);
  }
  const std::string directory = subprocess_directory();
  if (!directory.empty()) {
    return named(
        "the subprocess directory's " + directory + " (set HEPEX_PROCESS to choose another)",
        directory);
  }
  if (matches == 1) return matching;
  if (matches == 0) {
    fail("fbridgecreate: npar = " + std::to_string(npar) +
         ": no process of hepex has that many particles (" + all + ")");
  }
  fail("fbridgecreate: npar = " + std::to_string(npar) + ": " + matching +
       " all have that many particles, and neither the executable's nor the working "
       "directory is a subprocess directory P<n>_<name>; set HEPEX_PROCESS to the "
       "subprocess's");
}

}  // namespace

extern "C" {

void fbridgecreate_(hepex_me** bridge, const int* nevt, const int* npar, const int* np4) {
  const KeepFloatingPointEnvironment keep;
  if (*np4 != 4)
    fail("fbridgecreate: np4 = " + std::to_string(*np4) + ": momenta have 4 components");
  const std::string process = process_for(*npar);
  if (*nevt <= 0) fail("fbridgecreate: nevt = " + std::to_string(*nevt) + " must be positive");
  const char* precision = std::getenv("HEPEX_PRECISION");
  // The cards: HEPEX_PARAM_CARD and HEPEX_RUN_CARD where set, else the
  // run's Cards directory (its run card beside a HEPEX_PARAM_CARD).
  const char* param = std::getenv("HEPEX_PARAM_CARD");
  const char* run = std::getenv("HEPEX_RUN_CARD");
  std::string param_card, run_card;
  if (param != nullptr) {
    param_card = param;
    run_card = (std::filesystem::path(param_card).parent_path() / "run_card.dat").string();
    if (std::filesystem::path(param_card).parent_path().empty()) run_card = "run_card.dat";
  } else {
    const std::string cards = cards_directory();
    param_card = cards + "/param_card.dat";
    run_card = cards + "/run_card.dat";
  }
  if (run != nullptr) run_card = run;
  hepex_me* me = hepex_me_create_madevent(process.c_str(), precision ? precision : "double",
                                          param_card.c_str(), run_card.c_str(), *nevt);
  if (me == nullptr) fail(hepex_me_last_error());
  *bridge = me;
}

void fbridgedelete_(hepex_me** bridge) {
  const KeepFloatingPointEnvironment keep;
  hepex_me_destroy(*bridge);
  *bridge = nullptr;
}

void fbridgesequence_(hepex_me** bridge, const double* momenta, const double* gs,
                      const double* rndhel, const double* rndcol, const unsigned int* channel_ids,
                      const int* igraph, double* mes, int* selhel, int* selcol,
                      const bool* helonly) {
  const KeepFloatingPointEnvironment keep;
  if (*bridge == nullptr) fail("fbridgesequence: no bridge (fbridgecreate first)");
  if (helonly != nullptr && *helonly) return;
  int events = 0;
  check(hepex_me_max_events(*bridge, &events));
  std::vector<int> channels;
  if (channel_ids != nullptr) {
    channels.resize(events);
    for (int e = 0; e < events; ++e) {
      // A channel id beyond int is beyond every process's diagrams: passed
      // as -1, which hepex_me_sequence refuses naming the event.
      channels[e] = channel_ids[e] > unsigned(INT_MAX) ? -1 : int(channel_ids[e]);
    }
  }
  check(hepex_me_sequence(*bridge, events, momenta, gs, rndhel, rndcol,
                          channel_ids != nullptr ? channels.data() : nullptr, igraph, mes, selhel,
                          selcol));
}

void fbridgesequence_nomultichannel_(hepex_me** bridge, const double* momenta, const double* gs,
                                     const double* rndhel, const double* rndcol, const int* igraph,
                                     double* mes, int* selhel, int* selcol, const bool* helonly) {
  fbridgesequence_(bridge, momenta, gs, rndhel, rndcol, nullptr, igraph, mes, selhel, selcol,
                   helonly);
}

void fbridgegetngoodhel_(hepex_me** bridge, unsigned int* ngoodhel, unsigned int* ntothel) {
  const KeepFloatingPointEnvironment keep;
  if (*bridge == nullptr) fail("fbridgegetngoodhel: no bridge (fbridgecreate first)");
  int good = 0, total = 0;
  check(hepex_me_helicities(*bridge, &good, &total));
  *ngoodhel = static_cast<unsigned int>(good);
  *ntothel = static_cast<unsigned int>(total);
}

}  // extern "C"
