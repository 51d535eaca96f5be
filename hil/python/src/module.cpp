// SPDX-License-Identifier: Apache-2.0
// attractor._core: attractor-sim's registered feedback systems and closed loops, in process. The
// runs are the objects attractor-sim links (hil/CMakeLists.txt: attractor_sim_systems), not
// compiled again; this unit adds only the binding. The Python face (keywords, exceptions, arrays) is
// hil/python/attractor/__init__.py.
#include <pybind11/pybind11.h>

#include "attractor/version.hpp"
#include "closed_loop_runs.hpp"
#include "feedback_system_runs.hpp"
#include "run_binding.hpp"

namespace py = pybind11;
using attractor::cli::ClosedLoops;
using attractor::cli::FeedbackSystems;

namespace {

// A registry of typed runs as two functions of the module: `list()` its (name, summary) pairs and
// `run(name, args, trajectory)` one run (None for an unknown name).
template <class Registry>
void bind_runs(py::module_& m, const char* list, const char* run) {
  m.def(list, [] {
    py::list out;
    for (int i = 0; i < Registry::size(); ++i)
      out.append(py::make_tuple(Registry::at(i).name, Registry::at(i).summary));
    return out;
  });
  m.def(
      run,
      [](const std::string& name, std::vector<std::string> args, bool trajectory) -> py::object {
        const auto* c = Registry::find(name.c_str());
        if (c == nullptr) return py::none();
        return attractor::python::run_to_python(c->run, std::move(args), trajectory);
      },
      py::arg("name"), py::arg("args"), py::arg("trajectory"));
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "attractor-sim's feedback systems and closed loops in process (use the attractor package, not this module)";
  m.attr("version") = attractor::version;
  bind_runs<FeedbackSystems>(m, "systems", "run");
  bind_runs<ClosedLoops>(m, "closed_loops", "closed_loop");
}
