#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""scripts/attractor-model refuses what it must, with its exit code and a message naming the
line (docs/model-compiler.md): each case edits models/knife_edge.toml (or spherical_pendulum.toml)
in a scratch folder made here and removed at the end.

  model_compiler_test.py <source dir> <scratch dir>
"""
import contextlib
import importlib.machinery
import importlib.util
import io
import os
import shutil
import subprocess
import sys

ROOT, SCRATCH = sys.argv[1], sys.argv[2]
TOOL = os.path.join(ROOT, "scripts", "attractor-model")
KNIFE = open(os.path.join(ROOT, "models", "knife_edge.toml"), encoding="utf-8").read()
PENDULUM = open(os.path.join(ROOT, "models", "spherical_pendulum.toml"), encoding="utf-8").read()
failures = []


def run(args):
    p = subprocess.run([TOOL] + args, capture_output=True, text=True, timeout=300)  # deadlock guard only
    return p.returncode, p.stderr + p.stdout


# The refusals run the tool's main() in this process: each would otherwise start Python and import
# sympy again (~1 s of CPU a case). The first refusal and the usage and I/O cases run the program.
_loader = importlib.machinery.SourceFileLoader("attractor_model", TOOL)
_spec = importlib.util.spec_from_loader("attractor_model", _loader)
TOOL_MODULE = importlib.util.module_from_spec(_spec)
_loader.exec_module(TOOL_MODULE)


def run_in_process(args):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = TOOL_MODULE.main(args)
    return rc, err.getvalue() + out.getvalue()


_ran_once = []


def line_of(text, marker):
    for number, line in enumerate(text.splitlines(), start=1):
        if marker in line:
            return number
    raise AssertionError(f"marker {marker!r} not in the edited description")


def edit(base, old, new):
    assert old in base, old
    return base.replace(old, new, 1)


def expect_refusal(name, text, marker, message, code=5):
    path = os.path.join(SCRATCH, f"{name}.toml")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    out = os.path.join(SCRATCH, f"{name}.hpp")
    rc, err = (run_in_process if _ran_once else run)([path, "-o", out])
    _ran_once.append(name)
    where = f"{path}:{line_of(text, marker)}:" if marker else path
    if rc != code or where not in err or message not in err or os.path.exists(out):
        failures.append(f"{name}: exit {rc} (expected {code}), wanted {where!r} and {message!r}, got: {err.strip()}")


def refusals():
    expect_refusal("unknown_symbol", edit(KNIFE, "sin(inclination) * x\"", "sin(inclination) * z\""),
                   "potential =", "unknown symbol 'z'")
    expect_refusal("unknown_function", edit(KNIFE, "sin(inclination) * x\"", "erf(inclination) * x\""),
                   "potential =", "unknown function 'erf'")
    expect_refusal("bad_syntax", edit(KNIFE, "-mass * gravity", "-mass * * gravity"), "potential =",
                   "expected a number, a symbol or '('")
    expect_refusal("toml_syntax", edit(KNIFE, "name = \"J2\"", "name = \"J2"), "name = \"J2", "TOML syntax")
    code = "__import__('os').system('touch " + os.path.join(SCRATCH, "ran") + "')"
    expect_refusal("code_is_data", edit(KNIFE, "expression = \"pphi\"", f"expression = \"{code}\""),
                   "expression =", "unexpected character")
    if os.path.exists(os.path.join(SCRATCH, "ran")):
        failures.append("code_is_data: a description ran a program")
    expect_refusal("singular_mass", edit(KNIFE, " + inertia/2 * phidot^2", ""), "kinetic =", "singular mass matrix")
    expect_refusal("not_positive_definite", edit(KNIFE, "+ inertia/2 * phidot^2", "- inertia/2 * phidot^2"),
                   "kinetic =", "not positive definite")
    # The mass matrix stated as `mass` (not `kinetic`): its refusals name the `mass =` line.
    as_matrix = 'mass = [["mass", 0, 0], [0, "mass", 0], [0, 0, "inertia"]]'
    expect_refusal("singular_mass_matrix", edit(KNIFE, 'kinetic = "mass/2 * (xdot^2 + ydot^2) + inertia/2 * phidot^2"',
                                                as_matrix.replace('"inertia"]', '0]')),
                   "mass = [", "singular mass matrix")
    expect_refusal("mass_matrix_not_positive_definite",
                   edit(KNIFE, 'kinetic = "mass/2 * (xdot^2 + ydot^2) + inertia/2 * phidot^2"',
                        as_matrix.replace('"inertia"]', '"-inertia"]')), "mass = [", "not positive definite")
    expect_refusal("not_quadratic", edit(KNIFE, "phidot^2\"", "phidot^2 + x*xdot\""), "kinetic =",
                   "not a quadratic form")
    expect_refusal("not_a_one_form", edit(KNIFE, "sin(phi) * xdot - cos(phi) * ydot", "sin(phi) * xdot^2 - ydot"),
                   "form =", "not a one-form in the velocities")
    expect_refusal("affine_form", edit(KNIFE, "sin(phi) * xdot - cos(phi) * ydot", "sin(phi) * xdot - 1"),
                   "form =", "not a one-form in the velocities")
    expect_refusal("zero_scale", edit(KNIFE, "normalize = true", 'scale = "x"'), "scale =",
                   "the scale of constraint 'J1' is 0 at the documented state")
    expect_refusal("no_range", edit(KNIFE, ", range = \"(0, inf)\", help = \"mass\"", ", help = \"mass\""),
                   "mass = {", "has no range")
    expect_refusal("default_outside_range", edit(KNIFE, "default = 1.0, range = \"(0, inf)\", help = \"mass\"",
                                                 "default = -1.0, range = \"(0, inf)\", help = \"mass\""),
                   "mass = {", "outside its range")
    expect_refusal("unknown_key", edit(KNIFE, "potential =", "potentail ="), "potentail =", "unknown key 'potentail'")
    expect_refusal("not_conserved", edit(KNIFE, "expression = \"pphi\"", "expression = \"px\""), "[[integrals]]",
                   "J2 is not conserved by the field")
    expect_refusal("not_conserved_holonomic", edit(PENDULUM, "q1*p2 - q2*p1", "q1*p3 - q3*p1"), "[[integrals]]",
                   "J is not conserved by the field")
    twice = KNIFE.replace("[[integrals]]", "[[nonholonomic]]\nname = \"J3\"\nform = \"2*sin(phi) * xdot - "
                          "2*cos(phi) * ydot\"\n\n[[integrals]]", 1).replace("gains = [1000, 1000, 1000]",
                                                                "gains = [1000, 1000, 1000, 1000]")
    expect_refusal("dependent", twice, "[[nonholonomic]]", "not independent")
    expect_refusal("off_constraint", edit(KNIFE, "state = [0, 0, 0, 0, 0, 0.5]", "state = [0, 0, 0, 0, 1, 0.5]"),
                   "state =", "off the constraint J1")
    # Not finite at the documented state: the line of the expression that is not.
    expect_refusal("not_differentiable_there", edit(KNIFE, "sin(inclination) * x\"", "sin(inclination) * sqrt(x)\""),
                   "potential =", "the field's component 3 is not finite at the documented state")
    expect_refusal("energy_not_finite", edit(KNIFE, "sin(inclination) * x\"", "sin(inclination) * x + log(x)\""),
                   "potential =", "invariant H is not finite at the documented state")
    expect_refusal("integral_not_finite", edit(KNIFE, "expression = \"pphi\"", "expression = \"log(pphi - 0.5)\""),
                   "[[integrals]]", "invariant J2 is not finite at the documented state")
    expect_refusal("text_breaks_the_header", edit(KNIFE, 'help = "mass" }', 'help = "mass\\n#include <cstdlib>" }'),
                   "mass = {", "must be one line")
    expect_refusal("text_splices_a_line", edit(KNIFE, 'meaning = "p_phi, the spin about the vertical"',
                                               'meaning = "p_phi, the spin \\\\"'), "the spin \\", "must be one line")
    expect_refusal("option_twice", edit(KNIFE, 'option = "J"', 'option = "m"'), "inertia = {",
                   "option 'm' names two parameters")
    expect_refusal("option_not_a_name", edit(KNIFE, 'option = "J"', 'option = "2J"'), "inertia = {",
                   "option '2J' is not a usable name")
    expect_refusal("gains_trusted_not_bool", edit(KNIFE, "gains_trusted = true", 'gains_trusted = "yes"'),
                   "gains_trusted =", "'gains_trusted' must be true or false")
    expect_refusal("energy_name_not_a_name", edit(KNIFE, 'energy_name = "H"', 'energy_name = "H~"'),
                   "energy_name =", "energy row name 'H~' is not a usable name")
    expect_refusal("energy_name_twice", edit(KNIFE, 'energy_name = "H"', 'energy_name = "J2"'),
                   "energy_name =", "energy row name 'J2' is another row's name")
    expect_refusal("unknown_method", edit(KNIFE, 'method = "feedback-euler"', 'method = "feedback-rk5"'),
                   "method =", "method 'feedback-rk5' is not one of")
    # Row names are the facts' invariant names (attractor-sim's CSV columns and JSON keys): distinct.
    expect_refusal("row_name_twice", edit(KNIFE, 'name = "J2"', 'name = "J1"'), "[[integrals]]",
                   "row name 'J1' is used twice")
    expect_refusal("row_name_is_the_energy", edit(PENDULUM, 'name = "J"', 'name = "H"'), "[[integrals]]",
                   "row name 'H' is used twice")
    expect_refusal("gains_count", edit(KNIFE, "gains = [1000, 1000, 1000]", "gains = [1000, 1000]"), "gains =",
                   "has 2 entries, expected 3")


def usage_and_io():
    good = os.path.join(SCRATCH, "good.toml")
    with open(good, "w", encoding="utf-8") as f:
        f.write(KNIFE)
    header = os.path.join(SCRATCH, "good.hpp")
    cases = [
        ("no arguments", [], 2, "needs a description"),
        ("unknown option", [good, "-o", header, "--fast"], 2, "unknown option '--fast'"),
        ("output twice", [good, "-o", header, "-o", header], 2, "-o given twice"),
        ("missing value", [good, "-o"], 2, "-o needs a value"),
        ("output is input", [good, "-o", good + ".hpp"], None, None),
        ("not a header", [good, "-o", os.path.join(SCRATCH, "good.txt")], 2, "not a .hpp or .h header"),
        ("no such folder", [good, "-o", os.path.join(SCRATCH, "none", "x.hpp")], 2, "does not exist"),
        ("no such description", [os.path.join(SCRATCH, "none.toml"), "-o", header], 6, "not a readable file"),
        ("check without header", [good, "-o", header, "--check"], 1, "differs"),
    ]
    for name, args, code, message in cases:
        if code is None:
            continue
        rc, err = run(args)
        if rc != code or message not in err:
            failures.append(f"{name}: exit {rc} (expected {code}, {message!r}): {err.strip()}")
    os.symlink(good, os.path.join(SCRATCH, "link.hpp"))
    rc, err = run([good, "-o", os.path.join(SCRATCH, "link.hpp")])
    if rc != 2 or "the output is the description itself" not in err or open(good).read() != KNIFE:
        failures.append(f"output is the input (symlink): exit {rc}: {err.strip()}")
    os.mkdir(os.path.join(SCRATCH, "dir.hpp"))
    rc, err = run([good, "-o", os.path.join(SCRATCH, "dir.hpp")])
    if rc != 6:
        failures.append(f"unwritable output: exit {rc} (expected 6): {err.strip()}")
    rc, err = run([good, "-o", header, "--quiet"])
    if rc != 0 or err.strip() or not os.path.isfile(header):
        failures.append(f"a good description: exit {rc}: {err.strip()}")
    with open(header, "a", encoding="utf-8") as f:
        f.write("// edited\n")
    rc, err = run([good, "-o", header, "--check"])
    if rc != 1 or not open(header).read().endswith("// edited\n"):
        failures.append(f"--check on an edited header: exit {rc} (expected 1, header untouched): {err.strip()}")


if __name__ == "__main__":
    if os.path.exists(SCRATCH):
        shutil.rmtree(SCRATCH)
    os.makedirs(SCRATCH)
    try:
        refusals()
        usage_and_io()
    finally:
        shutil.rmtree(SCRATCH)
    for f in failures:
        print("FAIL", f)
    print(f"{len(failures)} failures")
    sys.exit(1 if failures else 0)
