#pragma once
// Progress and interruption of long computations.
//
// The library's long loops (RREF columns and panels, modular products in
// blocks, the probe batches of a reconstruction, event batches of matrix
// elements) tell a ProgressTask how far they are, between chunks of work.
// What happens then is chosen by whoever called the library on that thread,
// through a ProgressWatch: the CLI's -v prints a line with the rate and the
// ETA every few seconds; the Python module forwards reports to the user's
// callback and polls for Ctrl-C, so that KeyboardInterrupt comes within a
// second. With no watch on the thread, a task costs a thread-local read per
// update.
//
// A watch's poll may throw to stop the computation: the exception leaves the
// library through its callers (every hepex object is exception safe; nothing
// is written).

#include <functional>
#include <ostream>
#include <string>

namespace hepex {

struct Progress {
  std::string task;      // "rref", "reconstruct", "gemm", "me", ...
  std::string stage;     // which part of the task ("prime 2", "n = 8192"), may be empty
  double done = 0;       // units of work done
  double total = 0;      // units in all; 0 when not known ahead
  std::string unit;      // "columns", "probes", "events", ...
  double seconds = 0;    // since the task began
  double fraction = -1;  // share of the work done when it is not done / total (-1: it is)

  // Units per second; the share of the work done (-1 unknown); the seconds
  // still to go at the rate so far (-1 unknown).
  double rate() const;
  double share() const;
  double eta_seconds() const;
  // One line: "rref: 1200 of 5000 columns (43.6%), 340 columns/s, elapsed
  // 3.5 s, ETA 4.5 s".
  std::string describe() const;
};

class ProgressWatch {
 public:
  struct Hooks {
    std::function<void(const Progress&)> report;  // empty: no reports
    std::function<void()> poll;                   // may throw to stop; empty: none
    double report_every = 2.0;                    // seconds between reports of a task
    double poll_every = 0.1;                      // seconds between polls
  };
  // Watches the calling thread's tasks until destroyed (the previous watch,
  // if any, is restored then).
  explicit ProgressWatch(Hooks hooks);
  ~ProgressWatch();
  ProgressWatch(const ProgressWatch&) = delete;
  ProgressWatch& operator=(const ProgressWatch&) = delete;

  static ProgressWatch* current();  // the calling thread's, or null
  const Hooks& hooks() const { return hooks_; }
  // Polls now if poll_every has passed since the last poll.
  void maybe_poll(double now);

 private:
  Hooks hooks_;
  ProgressWatch* previous_;
  double last_poll_ = 0;
};

// One long computation's progress on the calling thread.
class ProgressTask {
 public:
  ProgressTask(std::string task, std::string unit, double total = 0);
  ProgressTask(const ProgressTask&) = delete;
  ProgressTask& operator=(const ProgressTask&) = delete;

  void set_stage(std::string stage) { progress_.stage = std::move(stage); }
  void set_total(double total) { progress_.total = total; }
  // Between chunks of work: polls for an interruption (the watch's poll may
  // throw), and reports when a report is due.
  void update(double done, double fraction = -1);
  // Whether update() would report now, so that a caller whose work runs
  // asynchronously (a GPU) can wait for it first; also polls.
  bool report_due();
  // Polls for an interruption only.
  void poll();
  double seconds() const;

 private:
  ProgressWatch* watch_;
  Progress progress_;
  double start_, last_report_;
};

// Polls the calling thread's watch for an interruption (at most every
// poll_every seconds; the poll may throw), for loops that report nothing.
void interruption_point();

// Hooks that write each report's describe() as a line to `out` (the CLI's
// -v, and the C++ options that take a progress stream).
ProgressWatch::Hooks stream_progress(std::ostream& out, double report_every = 2.0);

// Seconds on a steady clock (for the watch and tasks).
double progress_clock();

}  // namespace hepex
