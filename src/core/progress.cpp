#include "hepex/core/progress.hpp"

#include <chrono>
#include <cstdio>

namespace hepex {

namespace {
thread_local ProgressWatch* current_watch = nullptr;

std::string seconds_text(double s) {
  char text[32];
  if (s < 600) {
    std::snprintf(text, sizeof text, "%.1f s", s);
  } else if (s < 36000) {
    std::snprintf(text, sizeof text, "%.1f min", s / 60);
  } else {
    std::snprintf(text, sizeof text, "%.1f h", s / 3600);
  }
  return text;
}

std::string number_text(double x) {
  char text[32];
  if (x == static_cast<double>(static_cast<long long>(x))) {
    std::snprintf(text, sizeof text, "%lld", static_cast<long long>(x));
  } else {
    std::snprintf(text, sizeof text, "%.4g", x);
  }
  return text;
}
}  // namespace

double progress_clock() {
  using Clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
}

double Progress::rate() const { return seconds > 0 ? done / seconds : 0; }

double Progress::share() const {
  if (fraction >= 0) return fraction;
  return total > 0 ? done / total : -1;
}

double Progress::eta_seconds() const {
  const double s = share();
  if (s <= 0 || s > 1) return -1;
  return seconds * (1 - s) / s;
}

std::string Progress::describe() const {
  std::string line = task;
  if (!stage.empty()) line += " (" + stage + ")";
  line += ": " + number_text(done);
  if (total > 0) line += " of " + number_text(total);
  line += " " + unit;
  const double s = share();
  if (s >= 0) {
    char text[32];
    std::snprintf(text, sizeof text, " (%.1f%%)", 100 * s);
    line += text;
  }
  if (seconds > 0)
    line += ", " + number_text(static_cast<double>(static_cast<long long>(rate() + 0.5))) + " " +
            unit + "/s";
  line += ", elapsed " + seconds_text(seconds);
  const double eta = eta_seconds();
  if (eta >= 0) line += ", ETA " + seconds_text(eta);
  return line;
}

ProgressWatch::ProgressWatch(Hooks hooks)
    : hooks_(std::move(hooks)), previous_(current_watch), last_poll_(progress_clock()) {
  current_watch = this;
}

ProgressWatch::~ProgressWatch() { current_watch = previous_; }

ProgressWatch* ProgressWatch::current() { return current_watch; }

void ProgressWatch::maybe_poll(double now) {
  if (!hooks_.poll || now - last_poll_ < hooks_.poll_every) return;
  last_poll_ = now;
  hooks_.poll();
}

ProgressTask::ProgressTask(std::string task, std::string unit, double total)
    : watch_(current_watch), start_(progress_clock()), last_report_(start_) {
  progress_.task = std::move(task);
  progress_.unit = std::move(unit);
  progress_.total = total;
}

double ProgressTask::seconds() const { return progress_clock() - start_; }

void ProgressTask::poll() {
  if (watch_ != nullptr) watch_->maybe_poll(progress_clock());
}

bool ProgressTask::report_due() {
  if (watch_ == nullptr) return false;
  const double now = progress_clock();
  watch_->maybe_poll(now);
  return watch_->hooks().report && now - last_report_ >= watch_->hooks().report_every;
}

void ProgressTask::update(double done, double fraction) {
  if (watch_ == nullptr) return;
  const double now = progress_clock();
  watch_->maybe_poll(now);
  if (!watch_->hooks().report || now - last_report_ < watch_->hooks().report_every) return;
  last_report_ = now;
  progress_.done = done;
  progress_.fraction = fraction;
  progress_.seconds = now - start_;
  watch_->hooks().report(progress_);
}

void interruption_point() {
  if (current_watch != nullptr) current_watch->maybe_poll(progress_clock());
}

ProgressWatch::Hooks stream_progress(std::ostream& out, double report_every) {
  ProgressWatch::Hooks hooks;
  hooks.report = [&out](const Progress& p) { out << p.describe() << std::endl; };
  hooks.report_every = report_every;
  return hooks;
}

}  // namespace hepex
