#include "hepex/reconstruct/self_check.hpp"

#include <string>
#include <vector>

#include "hepex/core/kokkos_compat.hpp"
#include "hepex/io/expression.hpp"
#include "hepex/reconstruct/rational.hpp"

namespace hepex::reconstruct {

SelfCheck self_check(std::uint64_t seed) {
  const std::vector<std::string> names{"s", "t", "m", "d"};
  // (input, the reduced expanded answer as reconstruct prints it)
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"(s + t - m^2)^6 - (s - d)^5/11",
       "(11*s^6 + 66*s^5*t - 66*s^5*m^2 - s^5 + 165*s^4*t^2 - 330*s^4*t*m^2 + 165*s^4*m^4 + "
       "5*s^4*d + 220*s^3*t^3 - 660*s^3*t^2*m^2 + 660*s^3*t*m^4 - 220*s^3*m^6 - 10*s^3*d^2 + "
       "165*s^2*t^4 - 660*s^2*t^3*m^2 + 990*s^2*t^2*m^4 - 660*s^2*t*m^6 + 165*s^2*m^8 + "
       "10*s^2*d^3 + 66*s*t^5 - 330*s*t^4*m^2 + 660*s*t^3*m^4 - 660*s*t^2*m^6 + 330*s*t*m^8 - "
       "66*s*m^10 - 5*s*d^4 + 11*t^6 - 66*t^5*m^2 + 165*t^4*m^4 - 220*t^3*m^6 + 165*t^2*m^8 - "
       "66*t*m^10 + 11*m^12 + d^5)/(11)"},
      {"(s^2 - t^2)/((s + t)*(m^2 - 4)) + 3/(d - 2)",
       "(s*d - 2*s - t*d + 2*t + 3*m^2 - 12)/(m^2*d - 2*m^2 - 4*d + 8)"},
      {"1/s - 1/t + 2/(s*t*m)", "(-s*m + t*m + 2)/(s*t*m)"},
      {"(d - 1)^4/(1 + s*t*m*d)", "(d^4 - 4*d^3 + 6*d^2 - 4*d + 1)/(s*t*m*d + 1)"},
  };
  std::vector<io::Expression> expressions;
  SelfCheck check;
  for (const auto& c : cases) {
    expressions.push_back(io::Expression::parse(c.first, names));
    for (const char ch : c.second) check.terms += ch == '+' || ch == '-' ? 1 : 0;
    check.terms += 2;  // the leading term of the numerator and of the denominator
  }
  check.functions = cases.size();
  ReconstructOptions options;
  options.seed = seed;
  Kokkos::Timer timer;
  const auto box = expression_black_box(std::move(expressions), names.size());
  const auto result = reconstruct(*box, options);
  check.seconds = timer.seconds();
  check.primes = result.primes;
  check.passed = result.functions.size() == cases.size();
  for (std::size_t i = 0; check.passed && i < cases.size(); ++i) {
    check.passed = to_string(result.functions[i], names) == cases[i].second;
  }
  return check;
}

}  // namespace hepex::reconstruct
