// SPDX-License-Identifier: Apache-2.0
// attractor._core: attractor-sim's registered feedback systems, in process. The systems' runs are
// the objects attractor-sim links (hil/CMakeLists.txt: attractor_sim_systems), not compiled again;
// this unit adds only the binding. The Python face (keywords, exceptions, arrays) is
// hil/python/attractor/__init__.py.
#include <pybind11/pybind11.h>

#include "attractor/version.hpp"
#include "feedback_system_runs.hpp"
#include "run_binding.hpp"

namespace py = pybind11;
using attractor::cli::FeedbackSystems;

PYBIND11_MODULE(_core, m) {
  m.doc() = "attractor-sim's feedback systems in process (use the attractor package, not this module)";
  m.attr("version") = attractor::version;
  m.def("systems", [] {
    py::list out;
    for (int i = 0; i < FeedbackSystems::size(); ++i)
      out.append(py::make_tuple(FeedbackSystems::at(i).name, FeedbackSystems::at(i).summary));
    return out;
  });
  m.def(
      "run",
      [](const std::string& name, std::vector<std::string> args, bool trajectory) -> py::object {
        const attractor::cli::FeedbackSystemCommand* c = FeedbackSystems::find(name.c_str());
        if (c == nullptr) return py::none();
        return attractor::python::run_to_python(c->run, std::move(args), trajectory);
      },
      py::arg("name"), py::arg("args"), py::arg("trajectory"));
}
