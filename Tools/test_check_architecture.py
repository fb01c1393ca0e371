"""Tests for Tools/check-architecture.

Run from the repository root:  python3 -m unittest Tools/test_check_architecture.py
"""

import importlib.machinery
import importlib.util
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "check-architecture")


def _load_script():
    loader = importlib.machinery.SourceFileLoader("check_architecture", SCRIPT)
    spec = importlib.util.spec_from_loader("check_architecture", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


ca = _load_script()

DOMAINS = ["Auth", "Subscription", "Conversations", "Workouts", "Recommendations", "Analytics"]


def by_name(name):
    return {"byName": [name, None]}


def clean_manifest():
    """A dump-package-shaped manifest mirroring the real Package.swift."""
    def target(name, deps, path=None, kind="regular"):
        return {"name": name, "type": kind, "path": path or "Modules/%s" % name,
                "dependencies": deps, "exclude": [], "resources": [], "settings": []}

    targets = [
        target("Contracts", []),
        target("Platform", [by_name("Contracts"),
                            {"product": ["Hummingbird", "hummingbird", None, None]}]),
        target("Fakes", [by_name("Contracts")]),
    ]
    targets += [target(d, [by_name("Contracts"), by_name("Platform")]) for d in DOMAINS]
    targets += [
        target("PovverApp", [by_name(n) for n in ["Contracts", "Platform", "Fakes"] + DOMAINS],
               path="Apps/PovverApp"),
        target("povver-server", [by_name("PovverApp")], path="Apps/povver-server", kind="executable"),
        target("ServerTests", [by_name("PovverApp"), by_name("Auth")], path="Tests/ServerTests", kind="test"),
    ]
    return {"name": "povver-server", "targets": targets}


CLEAN_FILES = {
    "Modules/Contracts/Model.swift": "import Foundation\nimport FoundationEssentials\nimport Synchronization\n",
    "Modules/Platform/Server.swift": "import Foundation\nimport Hummingbird\nimport Contracts\n",
    "Modules/Fakes/FakeClock.swift": "import Foundation\n@testable import Contracts\n",
    "Apps/PovverApp/App.swift": "".join("import %s\n" % d for d in DOMAINS),
    "Apps/povver-server/main.swift": "import PovverApp\n",
    "Tests/ServerTests/T.swift": "@testable import Auth\nimport PovverApp\nimport Workouts\n",
}
for _d in DOMAINS:
    CLEAN_FILES["Modules/%s/%s.swift" % (_d, _d)] = "import Foundation\nimport Contracts\nimport Platform\n"
CLEAN_FILES["Modules/Workouts/Sub/Dir/Nested.swift"] = "import Contracts\n"


class ScriptTestCase(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="check-arch-test-")
        self.addCleanup(shutil.rmtree, self.root, ignore_errors=True)
        self.manifest = clean_manifest()
        for rel, text in CLEAN_FILES.items():
            self.write(rel, text)

    def write(self, rel, text):
        path = os.path.join(self.root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    def target(self, name):
        return next(t for t in self.manifest["targets"] if t["name"] == name)

    def run_script(self, *extra, manifest=True):
        args = [sys.executable, SCRIPT, "--root", self.root]
        if manifest:
            path = os.path.join(self.root, "manifest.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(self.manifest, f)
            args += ["--manifest-json", path]
        args += list(extra)
        return subprocess.run(args, capture_output=True, text=True, timeout=60)

    def assertPasses(self):
        r = self.run_script()
        self.assertEqual(r.returncode, 0, "stdout:\n%s\nstderr:\n%s" % (r.stdout, r.stderr))
        return r

    def assertFailsWith(self, *needles):
        r = self.run_script()
        self.assertEqual(r.returncode, 1, "stdout:\n%s\nstderr:\n%s" % (r.stdout, r.stderr))
        for needle in needles:
            self.assertIn(needle, r.stdout)
        return r


class CleanTreeTests(ScriptTestCase):
    def test_clean_tree_passes(self):
        r = self.assertPasses()
        # 9 checked targets; 6 domain files + 1 nested + Contracts, Platform, Fakes.
        self.assertEqual(r.stdout.strip(), "check-architecture: OK (9 targets, 10 files)")

    def test_script_is_executable(self):
        self.assertTrue(os.stat(SCRIPT).st_mode & stat.S_IXUSR)
        with open(SCRIPT, encoding="utf-8") as f:
            self.assertEqual(f.readline().strip(), "#!/usr/bin/env python3")


class DomainImportTests(ScriptTestCase):
    def test_plain_import(self):
        self.write("Modules/Workouts/Bad.swift", "import Foundation\n\nimport Auth\n")
        self.assertFailsWith("Modules/Workouts/Bad.swift:3: Workouts imports domain module Auth")

    def test_testable_import(self):
        self.write("Modules/Workouts/Bad.swift", "@testable import Subscription\n")
        self.assertFailsWith("Modules/Workouts/Bad.swift:1: Workouts imports domain module Subscription")

    def test_import_struct_member(self):
        self.write("Modules/Analytics/Bad.swift", "import Foundation\nimport struct Auth.Token\n")
        self.assertFailsWith("Modules/Analytics/Bad.swift:2: Analytics imports domain module Auth")

    def test_nested_file(self):
        self.write("Modules/Workouts/Sub/Dir/Nested.swift", "import Contracts\nimport Recommendations\n")
        self.assertFailsWith(
            "Modules/Workouts/Sub/Dir/Nested.swift:2: Workouts imports domain module Recommendations")

    def test_other_import_forms(self):
        forms = [
            "public import Auth",
            "internal import Auth",
            "package import Auth",
            "@_exported import Auth",
            "@preconcurrency import Auth",
            "@_spi(Internal) import Auth",
            "@_implementationOnly import Auth",
            "@preconcurrency public import Auth",
            "import class Auth.Session",
            "import func Auth.login",
            "import Auth.Submodule",
            "import `Auth`",
            "    import Auth",
            "\timport Auth",
            "import Foundation; import Auth",
        ]
        for form in forms:
            with self.subTest(form=form):
                self.write("Modules/Conversations/Bad.swift", "import Foundation\n%s\n" % form)
                self.assertFailsWith("Modules/Conversations/Bad.swift:2: Conversations imports domain module Auth")

    def test_import_inside_if_can_import(self):
        self.write("Modules/Recommendations/Bad.swift", textwrap.dedent("""\
            import Foundation
            #if canImport(Workouts)
                import Workouts
            #endif
            """))
        self.assertFailsWith(
            "Modules/Recommendations/Bad.swift:3: Recommendations imports domain module Workouts")

    def test_import_of_composition_root(self):
        self.write("Modules/Auth/Bad.swift", "import PovverApp\n")
        self.assertFailsWith("Modules/Auth/Bad.swift:1: Auth imports composition root PovverApp")

    def test_every_offender_is_reported(self):
        self.write("Modules/Auth/A.swift", "import Workouts\n")
        self.write("Modules/Workouts/W.swift", "import Foundation\nimport Auth\n")
        r = self.assertFailsWith("Modules/Auth/A.swift:1: Auth imports domain module Workouts",
                                 "Modules/Workouts/W.swift:2: Workouts imports domain module Auth")
        self.assertEqual(len(r.stdout.strip().splitlines()), 2)
        self.assertIn("2 violations", r.stderr)


class CommentAndStringTests(ScriptTestCase):
    def test_line_comment_not_flagged(self):
        self.write("Modules/Workouts/Ok.swift", "import Foundation\n// import Auth\n  //import Auth\nlet x = 1 // import Auth\n")
        self.assertPasses()

    def test_block_comment_not_flagged(self):
        self.write("Modules/Workouts/Ok.swift", textwrap.dedent("""\
            import Foundation
            /* import Auth */
            /*
             import Auth
             /* nested comment
             import Subscription
             */
             import Analytics
            */
            /** Doc comment:
             * import Auth
             */
            """))
        self.assertPasses()

    def test_line_numbers_after_block_comment(self):
        self.write("Modules/Workouts/Bad.swift", "/*\n import Auth\n*/\nimport Foundation\nimport Auth\n")
        r = self.assertFailsWith("Modules/Workouts/Bad.swift:5: Workouts imports domain module Auth")
        self.assertNotIn("Bad.swift:2:", r.stdout)

    def test_string_literals_not_flagged(self):
        self.write("Modules/Workouts/Ok.swift", textwrap.dedent('''\
            import Foundation
            let a = "import Auth"
            let b = """
            import Auth
              import Subscription
            """
            let c = #"""
            import Auth "# still raw
            """#
            let d = "\\(a + "x") /* not a comment"
            let e = """
            \\(b)
            import Analytics
            """
            '''))
        self.assertPasses()

    def test_comment_markers_inside_strings_do_not_hide_imports(self):
        self.write("Modules/Workouts/Bad.swift", 'let url = "http://example.com/*"\nimport Auth\n')
        self.assertFailsWith("Modules/Workouts/Bad.swift:2: Workouts imports domain module Auth")


class ManifestTests(ScriptTestCase):
    def test_domain_depends_on_domain_by_name(self):
        self.target("Workouts")["dependencies"].append(by_name("Auth"))
        self.assertFailsWith("Package.swift: target Workouts depends on domain module Auth")

    def test_domain_depends_on_domain_target_form(self):
        self.target("Analytics")["dependencies"].append({"target": ["Conversations", None]})
        self.assertFailsWith("Package.swift: target Analytics depends on domain module Conversations")

    def test_domain_depends_on_composition_root(self):
        self.target("Subscription")["dependencies"].append(by_name("PovverApp"))
        self.assertFailsWith("Package.swift: target Subscription depends on composition root PovverApp")

    def test_platform_and_fakes_must_not_depend_on_domains(self):
        self.target("Platform")["dependencies"].append(by_name("Auth"))
        self.target("Fakes")["dependencies"].append(by_name("PovverApp"))
        self.assertFailsWith("Package.swift: target Platform depends on domain module Auth",
                             "Package.swift: target Fakes depends on composition root PovverApp")

    def test_contracts_must_have_no_dependencies(self):
        self.target("Contracts")["dependencies"] += [
            by_name("Platform"), {"product": ["Logging", "swift-log", None, None]}]
        self.assertFailsWith(
            "Package.swift: target Contracts must have no dependencies but depends on Platform",
            "Package.swift: target Contracts must have no dependencies but depends on product Logging")

    def test_test_and_app_targets_are_unconstrained(self):
        self.target("ServerTests")["dependencies"] += [by_name(d) for d in DOMAINS]
        self.assertPasses()


class LayerImportTests(ScriptTestCase):
    def test_contracts_imports_only_foundation(self):
        self.write("Modules/Contracts/Bad.swift", "import Foundation\nimport Dispatch\n")
        self.assertFailsWith("Modules/Contracts/Bad.swift:2: Contracts imports Dispatch "
                             "(Contracts may import only Foundation, FoundationEssentials, Synchronization)")

    def test_contracts_must_not_import_platform_or_domain(self):
        self.write("Modules/Contracts/Bad.swift", "import Platform\nimport Auth\n")
        self.assertFailsWith("Modules/Contracts/Bad.swift:1: Contracts imports Platform",
                             "Modules/Contracts/Bad.swift:2: Contracts imports domain module Auth")

    def test_platform_must_not_import_domain(self):
        self.write("Modules/Platform/Bad.swift", "import Hummingbird\n@testable import Workouts\n")
        self.assertFailsWith("Modules/Platform/Bad.swift:2: Platform imports domain module Workouts")

    def test_fakes_import_allowlist(self):
        self.write("Modules/Fakes/Bad.swift", "import Contracts\nimport Platform\nimport Auth\n")
        self.assertFailsWith("Modules/Fakes/Bad.swift:2: Fakes imports Platform",
                             "Modules/Fakes/Bad.swift:3: Fakes imports domain module Auth")


class UsageErrorTests(ScriptTestCase):
    def test_missing_manifest_file(self):
        r = subprocess.run([sys.executable, SCRIPT, "--root", self.root, "--manifest-json",
                            os.path.join(self.root, "nope.json")], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("cannot read manifest JSON", r.stderr)

    def test_invalid_manifest_json(self):
        self.write("bad.json", "{not json")
        r = subprocess.run([sys.executable, SCRIPT, "--root", self.root, "--manifest-json",
                            os.path.join(self.root, "bad.json")], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)

    def test_unknown_argument(self):
        r = subprocess.run([sys.executable, SCRIPT, "--bogus"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)

    def test_dump_package_failure_prints_its_stderr(self):
        self.write("Package.swift", "// swift-tools-version:6.1\n")
        fake_swift = os.path.join(self.root, "fake-swift")
        self.write("fake-swift", "#!/bin/sh\necho 'error: manifest parse error: boom' >&2\nexit 1\n")
        os.chmod(fake_swift, 0o755)
        r = self.run_script("--swift", fake_swift, manifest=False)
        self.assertEqual(r.returncode, 2)
        self.assertIn("dump-package failed", r.stderr)
        self.assertIn("manifest parse error: boom", r.stderr)

    def test_dump_package_output_is_used(self):
        self.write("Package.swift", "// swift-tools-version:6.1\n")
        self.manifest["targets"][3]["dependencies"].append(by_name("Workouts"))  # Auth -> Workouts
        dumped = os.path.join(self.root, "dumped.json")
        with open(dumped, "w", encoding="utf-8") as f:
            json.dump(self.manifest, f)
        fake_swift = os.path.join(self.root, "fake-swift")
        self.write("fake-swift", "#!/bin/sh\ncat '%s'\n" % dumped)
        os.chmod(fake_swift, 0o755)
        r = self.run_script("--swift", fake_swift, manifest=False)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("Package.swift: target Auth depends on domain module Workouts", r.stdout)


class ScannerUnitTests(unittest.TestCase):
    def test_strip_preserves_length_and_lines(self):
        src = 'a /* x\ny */ "s\\"t" // c\n"""\nm\n"""\n'
        out = ca.strip_comments_and_strings(src)
        self.assertEqual(len(out), len(src))
        self.assertEqual(out.count("\n"), src.count("\n"))
        self.assertEqual(out.split(), ["a"])

    def test_find_imports(self):
        src = "import Foundation\n// import X\n@testable import struct Auth.Foo\n"
        self.assertEqual(list(ca.find_imports(src)), [(1, "Foundation"), (3, "Auth")])

    def test_identifiers_containing_import_are_ignored(self):
        src = "#if canImport(Auth)\nlet importer = 1\nfunc reimport() {}\n#endif\n"
        self.assertEqual(list(ca.find_imports(src)), [])


if __name__ == "__main__":
    unittest.main()
