// FireFly side of the benchmark on FireFly's own functions (benchmarks/f1.m ..
// f4.m, factors1.m .. factors5.m of jklappert/FireFly; run_firefly_suite.sh):
// the function parsed by FireFly's ShuntingYardParser, as FireFly's own
// benchmarks.cpp does, reconstructed by its Reconstructor with 1 thread and
// bunch size 1, the shift scan on, the factor scan on or off. Prints one JSON
// line: function, seconds (of reconstruct()), probes (black-box points, one
// per call), primes (distinct fields seen), result (FireFly's answer as text,
// checked by the script).
// Links against FireFly (GPL, built outside this repository); no FireFly code
// lives here.
// A file of several functions (each ended by ';') is one black box of all of
// them; --answers FILE then gets every answer, one a line, and the JSON line
// "functions" and no "result".
// usage: firefly_suite_driver FILE.m N|x,y,.. [--factor-scan] [--name NAME] [--answers FILE]
#include "firefly/Reconstructor.hpp"

#include <atomic>
#include <chrono>
#include <fstream>
#include <iostream>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace firefly;

namespace {
std::atomic<unsigned long long> probes{0};
std::mutex primes_mutex;
std::set<std::uint64_t> primes_seen;
}  // namespace

namespace firefly {
class CountingBox : public BlackBoxBase<CountingBox> {
 public:
  explicit CountingBox(const ShuntingYardParser& parser) : parser_(parser) {}
  template <typename FFIntTemp>
  std::vector<FFIntTemp> operator()(const std::vector<FFIntTemp>& values) {
    probes += 1;  // bunch size 1: one point per call
    return parser_.evaluate_pre(values);
  }
  inline void prime_changed() {
    parser_.precompute_tokens();
    const std::lock_guard<std::mutex> lock(primes_mutex);
    primes_seen.insert(FFInt::p);
  }

 private:
  ShuntingYardParser parser_;
};
}  // namespace firefly

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: firefly_suite_driver FILE.m N|x,y,.. [--factor-scan] [--name NAME] "
                 "[--answers FILE]\n";
    return 2;
  }
  const std::string file = argv[1];
  const std::string variables = argv[2];
  bool factor_scan = false;
  std::string name = file, answers;
  for (int i = 3; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--factor-scan") factor_scan = true;
    if (a == "--name" && i + 1 < argc) name = argv[++i];
    if (a == "--answers" && i + 1 < argc) answers = argv[++i];
  }
  std::vector<std::string> vars;
  if (variables.find_first_not_of("0123456789") == std::string::npos) {
    for (int i = 1; i <= std::stoi(variables); ++i) vars.push_back("x" + std::to_string(i));
  } else {
    std::istringstream list(variables);
    for (std::string v; std::getline(list, v, ',');) vars.push_back(v);
  }
  const int n = static_cast<int>(vars.size());
  ShuntingYardParser parser(file, vars);
  CountingBox box(parser);
  Reconstructor<CountingBox> reconstructor(static_cast<uint32_t>(n), 1, 1, box, 0);
  reconstructor.enable_shift_scan();
  if (factor_scan) reconstructor.enable_factor_scan();
  const auto start = std::chrono::steady_clock::now();
  reconstructor.reconstruct();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto result = reconstructor.get_result();
  std::cout << "{\"function\": \"" << name << "\", \"tool\": \"firefly"
            << (factor_scan ? " (factor scan)" : "") << "\", \"seconds\": " << seconds
            << ", \"probes\": " << probes.load() << ", \"primes\": " << primes_seen.size();
  if (answers.empty()) {
    std::cout << ", \"result\": \"" << result.at(0).to_string(vars) << "\"}" << std::endl;
    return 0;
  }
  std::ofstream out(answers);
  for (const auto& r : result) out << r.to_string(vars) << '\n';
  out.close();
  if (!out) {
    std::cerr << "cannot write " << answers << '\n';
    return 1;
  }
  std::cout << ", \"functions\": " << result.size() << "}" << std::endl;
  return 0;
}
