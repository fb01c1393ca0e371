"""Tests for Tools/check-input-traps.

Run from the repository root:  python3 -m unittest Tools/test_check_input_traps.py
"""

import importlib.machinery
import importlib.util
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "check-input-traps")


def _load_script():
    loader = importlib.machinery.SourceFileLoader("check_input_traps", SCRIPT)
    spec = importlib.util.spec_from_loader("check_input_traps", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


cit = _load_script()


def lines_found(src):
    return [line for line, _ in cit.findings(textwrap.dedent(src))]


class FindingsTests(unittest.TestCase):
    def test_the_import_crash_is_found(self):
        self.assertEqual(lines_found("""\
            let end = start.addingTimeInterval(duration)
            let ms = Int64((end.timeIntervalSince1970 * 1000).rounded())
            """), [2])

    def test_integer_conversions_of_floating_arithmetic_are_found(self):
        src = """\
            let a = Int(minutes.rounded())
            let b = Int(Double(sets) * 2.5)
            let c = Int64(seconds / 60)
            let d = UInt8(t.timeIntervalSinceNow)
            """
        self.assertEqual(lines_found(src), [1, 2, 3, 4])

    def test_checked_and_parsing_conversions_pass(self):
        self.assertEqual(lines_found("""\
            let a = Int(saturating: minutes.rounded())
            let b = Int(exactly: value)
            let c = Int(text)
            let d = Int64(count)
            let e = UInt8(ascii: "0")
            let f = x.Int(value * 2)
            """), [])

    def test_try_bang_force_unwraps_and_forced_casts_are_found(self):
        self.assertEqual(lines_found("""\
            let a = try! decode()
            let b = table[key]!
            let c = f()!.name
            let d = value as! String
            let e = a != b && !c
            """), [1, 2, 3, 4])

    def test_traps_are_found(self):
        self.assertEqual(lines_found("""\
            fatalError("no")
            precondition(x > 0)
            preconditionFailure("no")
            assert(y)
            """), [1, 2, 3, 4])

    def test_strings_and_comments_are_not_code_but_interpolations_are(self):
        self.assertEqual(lines_found('''\
            let a = "Int(x * 2) and try! and x!"
            // Int(x * 2) try! fatalError(
            /* table[key]! */
            let b = """
                as! \\(Int(value * 1000)) done!
                """
            '''), [5])

    def test_a_reason_allows_a_line_or_the_block_below_it(self):
        self.assertEqual(lines_found("""\
            let a = table[key]!  // cannot trap: the key was inserted above
            // cannot trap: each cast is to the type just compared
            if D.self == String.self { return value as! D }
            if D.self == Int.self { return value as! D }

            if D.self == Double.self { return value as! D }
            """), [6])

    def test_a_reason_does_not_reach_code_outside_its_indentation(self):
        self.assertEqual(lines_found("""\
                // cannot trap: inner
                let a = x!
            let b = y!
            """), [3])


class CommandTests(unittest.TestCase):
    def test_exits_1_naming_path_and_line_then_0_once_fixed(self):
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "Modules", "Workouts"))
            path = os.path.join(root, "Modules", "Workouts", "Import.swift")
            with open(path, "w") as handle:
                handle.write("let end = Int64(seconds * 1000)\n")
            run = subprocess.run([sys.executable, SCRIPT, "--root", root], capture_output=True, text=True)
            self.assertEqual(run.returncode, 1)
            self.assertIn("Modules/Workouts/Import.swift:1:", run.stdout)
            with open(path, "w") as handle:
                handle.write("let end = Int64(saturating: seconds * 1000)\n")
            run = subprocess.run([sys.executable, SCRIPT, "--root", root], capture_output=True, text=True)
            self.assertEqual((run.returncode, run.stdout), (0, ""))

    def test_the_repository_is_clean(self):
        run = subprocess.run([sys.executable, SCRIPT, "--root", os.path.join(HERE, "..")], capture_output=True, text=True)
        self.assertEqual(run.stdout, "")
        self.assertEqual(run.returncode, 0)


if __name__ == "__main__":
    unittest.main()
