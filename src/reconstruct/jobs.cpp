#include "hepex/reconstruct/jobs.hpp"

#include <optional>
#include <sstream>

#include "hepex/core/error.hpp"
#include "hepex/core/text_stream.hpp"
#include "hepex/reconstruct/black_box.hpp"
#include "hepex/reconstruct/factored_form.hpp"
#include "hepex/reconstruct/probe_log.hpp"

namespace hepex::reconstruct {

namespace {

constexpr PrimeUse::Role roles[] = {PrimeUse::Role::image, PrimeUse::Role::check,
                                    PrimeUse::Role::undefined, PrimeUse::Role::failed,
                                    PrimeUse::Role::rejected};

Error corrupt() { return Error("reconstruct job: not a result of this form", ErrorKind::runtime); }

PrimeUse::Role parse_role(const std::string& name) {
  for (const auto role : roles)
    if (name == to_string(role)) return role;
  throw corrupt();
}

double parse_hexfloat(const std::string& text) {
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0') throw corrupt();
  return x;
}

void copy_work(ExpressionJobResult& result, const Reconstruction& r) {
  result.seed = r.seed;
  result.primes = r.primes;
  result.probes = r.probes;
  result.prime_uses = r.prime_uses;
  result.black_box_seconds = r.black_box_seconds;
  result.seconds = r.seconds;
}

}  // namespace

bool ExpressionJobResult::operator==(const ExpressionJobResult& o) const {
  if (prime_uses.size() != o.prime_uses.size()) return false;
  for (std::size_t i = 0; i < prime_uses.size(); ++i) {
    const auto &a = prime_uses[i], &b = o.prime_uses[i];
    if (a.prime != b.prime || a.role != b.role || a.probes != b.probes) return false;
  }
  return ok == o.ok && max_primes == o.max_primes && seed == o.seed && primes == o.primes &&
         probes == o.probes && black_box_seconds == o.black_box_seconds && seconds == o.seconds &&
         functions == o.functions && error == o.error;
}

ExpressionJobs::ExpressionJobs(std::vector<io::Expression> expressions,
                               std::vector<std::string> texts, std::vector<std::string> names,
                               ExpressionJobSettings settings)
    : expressions_(std::move(expressions)),
      names_(std::move(names)),
      settings_(std::move(settings)) {
  if (texts.size() != expressions_.size() || names_.size() != expressions_.size()) {
    throw Error("ExpressionJobs: one text and one name per expression");
  }
  if (expressions_.empty()) throw Error("ExpressionJobs: no expressions");
  // Once: each job's probe log is keyed by it too.
  std::ostringstream identity;
  identity << "reconstruct\n";
  for (std::size_t i = 0; i < settings_.variables.size(); ++i)
    identity << (i ? "," : "") << settings_.variables[i];
  identity << '\n'
           << settings_.options.max_degree << (settings_.together ? " together" : "")
           << (settings_.factored ? " factored" : "") << '\n';
  for (const auto& text : texts) identity << text << '\n';
  identity_ = identity.str();
}

std::string ExpressionJobs::identity() const { return identity_; }

ExpressionJobResult ExpressionJobs::run_one(std::size_t job) const {
  const auto& options = settings_.options;
  const std::size_t n = settings_.variables.size();
  std::vector<io::Expression> mine(expressions_.begin() + static_cast<std::ptrdiff_t>(first(job)),
                                   expressions_.begin() + static_cast<std::ptrdiff_t>(last(job)));
  const auto box = expression_black_box(std::move(mine), n);
  ExpressionJobResult result;
  result.max_primes = options.max_primes;
  try {
    std::optional<ProbeLog> log;
    auto job_options = options;
    if (!settings_.probe_logs.empty()) {
      log.emplace(*box, settings_.probe_logs + "/probes-" + std::to_string(job),
                  identity() + "job " + std::to_string(job), options.seed);
      if (!settings_.seed_given) job_options.seed = log->seed();
      if (options.progress != nullptr && (log->loaded() > 0 || log->dropped_bytes() > 0)) {
        *options.progress << "reconstruct: " << log->path() << ": " << log->loaded()
                          << " probes of an earlier run with seed " << log->seed()
                          << (settings_.seed_given ? "" : " (this run's seed now)");
        if (log->dropped_bytes() > 0)
          *options.progress << ", " << log->dropped_bytes()
                            << " bytes of an incomplete end dropped";
        *options.progress << "\n";
      }
    }
    const auto r = reconstruct(log ? static_cast<const BlackBox&>(*log) : *box, job_options);
    if (log) {
      if (options.progress != nullptr && log->replayed() > 0)
        *options.progress << "reconstruct: " << log->replayed() << " of " << r.probes
                          << " probes answered by " << log->path() << "\n";
      log->remove();  // the result is the checkpoint's now
    }
    result.ok = true;
    copy_work(result, r);
    for (const auto& function : r.functions) {
      result.functions.push_back(settings_.factored
                                     ? to_shorter_string(function, settings_.variables)
                                     : to_string(function, settings_.variables));
    }
  } catch (const ReconstructionFailure& e) {
    result.ok = false;
    copy_work(result, e.partial());
    result.error = e.what();
  } catch (const Error& e) {
    throw Error(names_[first(job)] + ": " + e.what(), e.kind());
  }
  return result;
}

std::vector<ExpressionJobResult> ExpressionJobs::run(const std::vector<std::size_t>& jobs) {
  std::vector<ExpressionJobResult> results;
  for (const std::size_t j : jobs) results.push_back(run_one(j));
  return results;
}

// "ok|failed MAX_PRIMES SEED PRIMES PROBES BOX_SECONDS SECONDS PRIME:ROLE:PROBES,...|-"
// (seconds in hexfloat), then a line per function, or the error.
std::string ExpressionJobs::encode(ExpressionJobResult r) const {
  TextStream out;
  out << (r.ok ? "ok " : "failed ") << r.max_primes << ' ' << r.seed << ' ' << r.primes << ' '
      << r.probes << ' ' << std::hexfloat << r.black_box_seconds << ' ' << r.seconds
      << std::defaultfloat << ' ';
  if (r.prime_uses.empty()) out << '-';
  for (std::size_t i = 0; i < r.prime_uses.size(); ++i) {
    const auto& u = r.prime_uses[i];
    out << (i ? "," : "") << u.prime << ':' << to_string(u.role) << ':' << u.probes;
  }
  if (r.ok) {
    for (const auto& f : r.functions) out << '\n' << f;
  } else {
    out << '\n' << r.error;
  }
  return out.take();
}

ExpressionJobResult ExpressionJobs::decode(std::string bytes) const {
  const auto newline = bytes.find('\n');
  if (newline == std::string::npos) throw corrupt();
  std::istringstream head(bytes.substr(0, newline));
  ExpressionJobResult r;
  std::string status, box_seconds, seconds, list, rest;
  if (!(head >> status >> r.max_primes >> r.seed >> r.primes >> r.probes >> box_seconds >>
        seconds >> list) ||
      (head >> rest) || (status != "ok" && status != "failed")) {
    throw corrupt();
  }
  r.ok = status == "ok";
  r.black_box_seconds = parse_hexfloat(box_seconds);
  r.seconds = parse_hexfloat(seconds);
  if (list != "-") {
    std::istringstream items(list);
    for (std::string item; std::getline(items, item, ',');) {
      const auto a = item.find(':'), b = item.rfind(':');
      if (a == std::string::npos || a == b) throw corrupt();
      PrimeUse use;
      try {
        use.prime = std::stoull(item.substr(0, a));
        use.probes = std::stoull(item.substr(b + 1));
      } catch (const std::exception&) {
        throw corrupt();
      }
      use.role = parse_role(item.substr(a + 1, b - a - 1));
      r.prime_uses.push_back(use);
    }
  }
  const std::string body = bytes.substr(newline + 1);
  if (!r.ok) {
    r.error = body;
    return r;
  }
  std::istringstream lines(body);
  for (std::string line; std::getline(lines, line);) r.functions.push_back(line);
  if (r.functions.empty()) throw corrupt();
  return r;
}

bool ExpressionJobs::reusable(const ExpressionJobResult& result) const {
  return result.ok || result.max_primes >= settings_.options.max_primes;
}

}  // namespace hepex::reconstruct
