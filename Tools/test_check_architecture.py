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


# Migrations shaped like the real ones (Modules/*/*Migrations.swift): multi-line
# strings, an interpolated column type, indexes, IF NOT EXISTS, a quoted name.
AUTH_MIGRATIONS = textwrap.dedent('''\
    import Platform

    enum AuthMigrations {
        static let all: [Migration] = [
            Migration(version: 1, name: "accounts") { _ in
                [
                    """
                    CREATE TABLE auth_users (
                        id TEXT PRIMARY KEY,
                        email TEXT NOT NULL
                    )
                    """,
                    """
                    CREATE TABLE IF NOT EXISTS "auth_sessions" (
                        id TEXT PRIMARY KEY,
                        user_id TEXT NOT NULL REFERENCES auth_users (id) ON DELETE CASCADE,
                        auth_time BIGINT NOT NULL
                    )
                    """,
                    "CREATE UNIQUE INDEX auth_sessions_user ON auth_sessions (user_id)",
                ]
            },
            Migration(version: 2, name: "status") { _ in
                ["ALTER TABLE auth_users ADD COLUMN status TEXT NOT NULL DEFAULT 'active'"]
            },
        ]
    }
    ''')

WORKOUTS_MIGRATIONS = textwrap.dedent('''\
    import Platform
    import SQLKit

    enum WorkoutsMigrations {
        static let all: [Migration] = [
            Migration(version: 1, name: "history") { engine in
                [
                    """
                    CREATE TABLE workouts_history (
                        seq \\(engine.autoIncrementPrimaryKey),
                        id TEXT NOT NULL UNIQUE,
                        user_id TEXT NOT NULL
                    )
                    """,
                    "CREATE INDEX workouts_history_user ON workouts_history (user_id)",
                ]
            },
            Migration(version: 2, name: "drop an index") { engine in
                engine == .sqlite ? ["DROP INDEX IF EXISTS workouts_history_user"] : []
            },
        ]
    }
    ''')

PLATFORM_MIGRATIONS = textwrap.dedent('''\
    enum PlatformMigrations {
        static let all: [Migration] = [
            Migration(version: 1, name: "jobs") { _ in
                ["CREATE TABLE platform_jobs (id TEXT PRIMARY KEY, kind TEXT NOT NULL, user_id TEXT)"]
            },
        ]
    }
    ''')

SUBSCRIPTION_MIGRATIONS = textwrap.dedent('''\
    enum SubscriptionMigrations {
        static let all: [Migration] = [
            Migration(version: 1, name: "state") { _ in
                ["CREATE TABLE subscription_state (user_id TEXT PRIMARY KEY, tier TEXT NOT NULL)"]
            },
        ]
    }
    ''')

# Everyday SQL of a module, and look-alikes that are not table names.
WORKOUTS_STORE = textwrap.dedent('''\
    import Platform

    struct HistoryStore {
        static let kind = "platform.event:workouts.history"
        static let tables = ["workouts_history"]

        func load(_ sql: any SQLDatabase, userId: String) async throws {
            // Never: SELECT * FROM auth_users -- user data comes through AccountDirectory.
            /* ALTER TABLE subscription_state ADD COLUMN x */
            _ = try await sql.raw(
                """
                SELECT h.id, h.user_id FROM workouts_history h
                WHERE h.user_id = \\(bind: userId) AND h.seq > 0
                """
            ).all()
            _ = try await sql.raw("DELETE FROM workouts_history WHERE user_id = \\(bind: userId)").run()
            logger.info("history read", metadata: ["event": "subscription_updated", "claim": "auth_time"])
            _ = "Sign in again for a fresh auth_time"
            _ = "SELECT auth_time FROM workouts_history"
            _ = "Account data lives in auth_users, ask Auth"
            _ = "CREATE TABLE \\(name) AS SELECT 1"
        }
    }
    ''')

SEE_PROTOCOL = "go through a Contracts protocol or a domain event"


class TableOwnershipTests(ScriptTestCase):
    def setUp(self):
        super().setUp()
        self.write("Modules/Auth/AuthMigrations.swift", AUTH_MIGRATIONS)
        self.write("Modules/Workouts/WorkoutsMigrations.swift", WORKOUTS_MIGRATIONS)
        self.write("Modules/Platform/Storage/PlatformMigrations.swift", PLATFORM_MIGRATIONS)
        self.write("Modules/Subscription/SubscriptionMigrations.swift", SUBSCRIPTION_MIGRATIONS)
        self.write("Modules/Workouts/History/HistoryStore.swift", WORKOUTS_STORE)

    def assertOnlyViolations(self, *lines):
        r = self.run_script()
        self.assertEqual(r.returncode, 1, "stdout:\n%s\nstderr:\n%s" % (r.stdout, r.stderr))
        self.assertEqual(r.stdout.splitlines(), list(lines))
        return r

    def test_clean_modules_pass(self):
        r = self.assertPasses()
        self.assertEqual(r.stdout.strip(), "check-architecture: OK (9 targets, 15 files)")

    def test_create_table_without_prefix(self):
        self.write("Modules/Workouts/Notes.swift", textwrap.dedent('''\
            let notes = Migration(version: 3, name: "notes") { _ in
                [
                    """
                    CREATE TABLE IF NOT EXISTS "exercise_notes" (
                        id TEXT PRIMARY KEY
                    )
                    """,
                ]
            }
            '''))
        self.assertOnlyViolations(
            "Modules/Workouts/Notes.swift:4: Workouts creates table exercise_notes; "
            "Workouts table names must start with workouts_")

    def test_create_table_with_another_modules_prefix(self):
        self.write("Modules/Workouts/Bad.swift",
                   'let s = "CREATE TEMP TABLE analytics_volume (user_id TEXT)"\n')
        self.assertOnlyViolations(
            "Modules/Workouts/Bad.swift:1: Workouts creates table analytics_volume (the prefix of Analytics); "
            "Workouts table names must start with workouts_")

    def test_alter_table_of_another_module(self):
        self.write("Modules/Subscription/Bad.swift", textwrap.dedent('''\
            import Platform
            let m = Migration(version: 2, name: "tier on users") { _ in
                ["ALTER TABLE auth_users ADD COLUMN tier TEXT"]
            }
            '''))
        self.assertOnlyViolations(
            "Modules/Subscription/Bad.swift:3: Subscription alters table auth_users (the prefix of Auth); "
            "Subscription table names must start with subscription_")

    def test_indexes_drops_and_renames(self):
        self.write("Modules/Workouts/Bad.swift", textwrap.dedent('''\
            let a = "CREATE INDEX history_user ON workouts_history (user_id)"
            let b = "CREATE UNIQUE INDEX IF NOT EXISTS workouts_x ON main.\\"subscription_state\\" (tier)"
            let c = "DROP TABLE IF EXISTS workouts_old, auth_sessions"
            let d = "ALTER TABLE workouts_history RENAME TO history"
            let e = "DROP INDEX auth_sessions_user"
            '''))
        self.assertOnlyViolations(
            "Modules/Workouts/Bad.swift:1: Workouts creates index history_user; "
            "Workouts index names must start with workouts_",
            "Modules/Workouts/Bad.swift:2: Workouts creates an index on table subscription_state "
            "(the prefix of Subscription); Workouts table names must start with workouts_",
            "Modules/Workouts/Bad.swift:3: Workouts drops table auth_sessions (the prefix of Auth); "
            "Workouts table names must start with workouts_",
            "Modules/Workouts/Bad.swift:4: Workouts renames a table to history; "
            "Workouts table names must start with workouts_",
            "Modules/Workouts/Bad.swift:5: Workouts drops index auth_sessions_user (the prefix of Auth); "
            "Workouts index names must start with workouts_")

    def test_cross_module_select(self):
        self.write("Modules/Workouts/Bad.swift", textwrap.dedent('''\
            func emails(_ sql: any SQLDatabase) async throws {
                _ = try await sql.raw(
                    """
                    SELECT u.email, h.id
                    FROM workouts_history h
                    JOIN auth_users u ON u.id = h.user_id
                    """
                ).all()
            }
            '''))
        self.assertOnlyViolations(
            "Modules/Workouts/Bad.swift:6: Workouts SQL names auth_users, a table of domain module Auth; "
            + SEE_PROTOCOL)

    def test_other_ways_to_name_a_table(self):
        cases = [
            ('"INSERT INTO subscription_state (user_id, tier) VALUES (?, ?)"', "subscription_state"),
            ('"UPDATE auth_users SET email = ?"', "auth_users"),
            ('"DELETE FROM \\"auth_sessions\\" WHERE user_id = ?"', "auth_sessions"),
            ('"SELECT h.id FROM workouts_history h, auth_users WHERE 1 = 1"', "auth_users"),
            ('"SELECT auth_users.email FROM workouts_history"', "auth_users"),
            ('"SELECT * FROM main.auth_users"', "auth_users"),
            ('"CREATE TABLE workouts_x (user_id TEXT REFERENCES auth_users (id))"', "auth_users"),
            ('"SELECT 1 WHERE EXISTS (SELECT 1 FROM subscription_state)"', "subscription_state"),
            ('"select * from auth_users"', "auth_users"),
            ('#"SELECT * FROM "auth_users""#', "auth_users"),
            ('"SELECT * FROM auth_unknown_table"', "auth_unknown_table"),
            ('erase(table: "auth_sessions")', "auth_sessions"),
            ('["workouts_history", "subscription_state"]', "subscription_state"),
            ('"SELECT * FROM workouts_history WHERE \\(raw("auth_users"))"', "auth_users"),
        ]
        for literal, table in cases:
            with self.subTest(literal=literal):
                self.write("Modules/Workouts/Bad.swift", "import Platform\nlet q = %s\n" % literal)
                owner = "Auth" if table.startswith("auth_") else "Subscription"
                self.assertOnlyViolations(
                    "Modules/Workouts/Bad.swift:2: Workouts SQL names %s, a table of domain module %s; %s"
                    % (table, owner, SEE_PROTOCOL))

    def test_domain_module_names_platform_table(self):
        self.write("Modules/Analytics/Bad.swift",
                   'let q = "SELECT count(*) FROM platform_jobs WHERE kind = \'analytics.rollup\'"\n')
        self.assertOnlyViolations(
            "Modules/Analytics/Bad.swift:1: Analytics SQL names platform_jobs, a table of Platform; "
            "use Platform's API")

    def test_platform_names_domain_table(self):
        self.write("Modules/Platform/Privacy/Export.swift",
                   'let q = "SELECT * FROM workouts_history WHERE user_id = ?"\n')
        self.assertOnlyViolations(
            "Modules/Platform/Privacy/Export.swift:1: Platform SQL names workouts_history, "
            "a table of domain module Workouts; Platform has no domain knowledge")

    def test_contracts_and_fakes_own_no_tables(self):
        self.write("Modules/Fakes/Bad.swift", 'let q = "CREATE TABLE fake_log (id TEXT)"\n')
        self.write("Modules/Contracts/Bad.swift", 'let q = "SELECT * FROM auth_users"\n')
        self.assertOnlyViolations(
            "Modules/Contracts/Bad.swift:1: Contracts SQL names auth_users, a table of domain module Auth; "
            "Contracts owns no tables",
            "Modules/Fakes/Bad.swift:1: Fakes creates table fake_log; Fakes owns no tables")

    def test_sql_in_comments_and_code_is_not_checked(self):
        self.write("Modules/Workouts/Ok.swift", textwrap.dedent('''\
            // CREATE TABLE notes (id TEXT)
            /* SELECT * FROM auth_users
               /* nested: ALTER TABLE subscription_state ADD COLUMN x */
            */
            /// Reads `auth_users` through AccountDirectory, never `FROM auth_users`.
            let auth_users = 1
            let url = "http://example.com/*"  // not a comment opener: SELECT * FROM auth_users
            let kind = "platform.event:auth.deleted"
            let prose = "Account data lives in auth_users, ask Auth"
            '''))
        self.assertPasses()

    def test_line_numbers_after_multiline_strings_and_escapes(self):
        self.write("Modules/Workouts/Bad.swift", textwrap.dedent('''\
            let a = """
                SELECT 1
                FROM workouts_history
                """
            let b = "line\\none \\"quoted\\" \\(x) text"
            let c = #"""
                \\(not interpolated) "
                """#
            let d = """
                SELECT h.id
                FROM workouts_history h
                WHERE h.user_id IN (SELECT id FROM auth_users)
                """
            '''))
        self.assertOnlyViolations(
            "Modules/Workouts/Bad.swift:12: Workouts SQL names auth_users, a table of domain module Auth; "
            + SEE_PROTOCOL)

    def test_every_violation_is_reported(self):
        self.write("Modules/Workouts/Bad.swift",
                   'let a = "CREATE TABLE notes (id TEXT)"\nlet b = "SELECT * FROM auth_users"\n')
        self.write("Modules/Auth/Bad.swift", 'let c = "SELECT * FROM workouts_history"\n')
        r = self.run_script()
        self.assertEqual(r.returncode, 1)
        self.assertEqual(len(r.stdout.splitlines()), 3, r.stdout)
        self.assertIn("3 violations", r.stderr)


class LiteralScannerTests(unittest.TestCase):
    def test_literal_text_and_offsets(self):
        src = 'let a = "A\\"B\\n\\(x + "y")C"\nlet b = """\n  q\n  """\n'
        code, literals = ca.scan_swift(src)
        self.assertEqual([l.text for l in literals], ['A"B \x01C', "y", "\n  q\n  "])
        self.assertEqual([src[o] for o in literals[0].offsets], ["A", '"', "B", "n", "\\", "C"])
        self.assertEqual(code, ca.strip_comments_and_strings(src))

    def test_known_tables_come_from_create_table(self):
        _, literals = ca.scan_swift(AUTH_MIGRATIONS + WORKOUTS_MIGRATIONS)
        self.assertEqual(ca.created_tables(literals), {"auth_users", "auth_sessions", "workouts_history"})


if __name__ == "__main__":
    unittest.main()


class CLIDependencyTests(ScriptTestCase):
    """Rule 7: an admin CLI depends on exactly the domain modules it composes."""

    def add_cli(self, deps, source):
        self.manifest["targets"].append({
            "name": "povver-tool", "type": "executable", "path": "Apps/povver-tool",
            "dependencies": [by_name(d) for d in deps], "exclude": [], "resources": [], "settings": []})
        self.write("Apps/povver-tool/main.swift", source)

    COMPOSES_AUTH_AND_WORKOUTS = (
        "import Auth\nimport Workouts\n"
        "let d = [try AuthModule.definition(environment: e), try WorkoutsModule.definition(environment: e)]\n")

    def test_a_cli_depending_on_what_it_composes_passes(self):
        self.add_cli(["Platform", "Auth", "Workouts"], self.COMPOSES_AUTH_AND_WORKOUTS)
        self.assertPasses()

    def test_a_composed_module_missing_from_the_dependencies_fails(self):
        self.add_cli(["Platform", "Auth"], self.COMPOSES_AUTH_AND_WORKOUTS)
        self.assertFailsWith("povver-tool composes Workouts but does not depend on it")

    def test_a_module_depended_on_but_not_composed_fails(self):
        self.add_cli(["Platform", "Auth", "Workouts", "Analytics"], self.COMPOSES_AUTH_AND_WORKOUTS)
        self.assertFailsWith("povver-tool depends on Analytics but composes no AnalyticsModule")

    def test_a_definition_in_a_comment_does_not_count(self):
        self.add_cli(["Platform"], "// AuthModule.definition(environment: e)\nlet x = 1\n")
        self.assertPasses()

    def test_composing_by_name_goes_through_povver_modules_alone(self):
        source = "import PovverModules\nlet n = PovverModules.names\n"
        self.add_cli(["PovverModules"], source)
        self.assertPasses()
        self.target("povver-tool")["dependencies"].append(by_name("Auth"))
        self.assertFailsWith("composes every module through PovverModules and should not depend on Auth directly")


class ClientTargetTests(ScriptTestCase):
    """Rule 8: a client target never depends on or imports a server target."""

    def add_client(self, deps, source):
        self.manifest["targets"].append({
            "name": "PovverKit", "type": "regular", "path": "Clients/PovverKit",
            "dependencies": [by_name(d) for d in deps], "exclude": [], "resources": [], "settings": []})
        self.write("Clients/PovverKit/Kit.swift", source)

    def test_a_client_of_its_own_passes(self):
        self.add_client([], "import Foundation\n")
        self.assertPasses()

    def test_a_client_depending_on_a_server_target_fails(self):
        self.add_client(["Contracts"], "import Foundation\n")
        self.assertFailsWith("client target PovverKit depends on the server's Contracts")

    def test_a_client_importing_a_server_module_fails(self):
        self.add_client([], "import Foundation\nimport Workouts\n")
        self.assertFailsWith("client target PovverKit imports the server's Workouts")
