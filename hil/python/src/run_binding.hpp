// SPDX-License-Identifier: Apache-2.0
// One run called from Python: a command's typed run (feedback_system_runs.hpp, closed_loop_runs.hpp:
// the same option table, validation and run as attractor-sim) with the trajectory read back from
// its --csv into a numpy array. The CSV goes to an anonymous in-memory file (memfd), so a run
// touches no file system and concurrent runs share nothing. The GIL is released while the run
// and the CSV parse go on. Used by the `attractor._core` module and by every compiled user model
// (attractor/model.py). Host-only.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "feedback_system_runs.hpp"

namespace attractor::python {

namespace py = pybind11;
using cli::FeedbackRunResult;
using RunFn = FeedbackRunResult (*)(const std::vector<std::string>&);

// An anonymous file, closed with its owner.
class MemFile {
 public:
  MemFile() : fd_(memfd_create("attractor-csv", MFD_CLOEXEC)) {}
  MemFile(const MemFile&) = delete;
  MemFile& operator=(const MemFile&) = delete;
  ~MemFile() {
    if (fd_ >= 0) close(fd_);
  }
  bool ok() const { return fd_ >= 0; }
  std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }
  bool read_all(std::string& out) const {
    char b[1 << 16];
    off_t at = 0;
    for (;;) {
      const ssize_t n = pread(fd_, b, sizeof b, at);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return false;
      if (n == 0) return true;
      out.append(b, std::size_t(n)), at += n;
    }
  }

 private:
  int fd_;
};

// The CSV's header names and its rows, row-major.
struct Table {
  std::vector<std::string> columns;
  std::vector<double> values;
  bool parse(const std::string& text) {
    std::size_t at = text.find('\n');
    if (at == std::string::npos) return false;
    for (std::size_t b = 0, e; b < at; b = e + 1) {
      e = text.find(',', b);
      if (e == std::string::npos || e > at) e = at;
      columns.push_back(text.substr(b, e - b));
    }
    const char* p = text.c_str() + at + 1;
    const char* end = text.c_str() + text.size();
    while (p < end) {
      char* q = nullptr;
      values.push_back(std::strtod(p, &q));
      if (q == p) return false;
      p = q + 1;  // past ',' or '\n'
    }
    return values.size() % columns.size() == 0;
  }
};

// {"code", "message", "summary" (the --json text), "columns", "trajectory"}: attractor/__init__.py
// turns a code other than 0 into the exception of its exit-code meaning.
inline py::dict run_to_python(RunFn run, std::vector<std::string> args, bool trajectory) {
  FeedbackRunResult r;
  Table table;
  {
    py::gil_scoped_release unlocked;
    MemFile csv;
    if (trajectory && !csv.ok()) {
      r.code = cli::exit_io,
      r.message = std::string("cannot make the in-memory trajectory file: ") + std::strerror(errno);
    } else {
      if (trajectory) args.push_back("--csv"), args.push_back(csv.path());
      r = run(args);
      std::string text;
      if (trajectory && !r.summary.is_null() && !(csv.read_all(text) && table.parse(text)))
        r.code = cli::exit_io, r.message = "the trajectory could not be read back";
    }
  }
  py::dict out;
  out["code"] = r.code;
  out["message"] = r.message;
  out["summary"] = r.summary.is_null() ? py::object(py::none()) : py::object(py::str(r.summary.dump()));
  out["columns"] = table.columns;
  if (!table.columns.empty()) {
    const py::ssize_t cols = py::ssize_t(table.columns.size()), rows = py::ssize_t(table.values.size()) / cols;
    py::array_t<double> a({rows, cols});
    std::memcpy(a.mutable_data(), table.values.data(), table.values.size() * sizeof(double));
    out["trajectory"] = a;
  } else {
    out["trajectory"] = py::none();
  }
  return out;
}

}  // namespace attractor::python
