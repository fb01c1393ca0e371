"""The web app's journeys in a real browser (headless Chromium), against a server that Tools/web/run.sh
started: sign up → a 3-day plan from the coach → accept → start the workout → every set logged, two with the
network cut and a reload in between → finish → history and the progress chart → a recommendation accepted →
lb everywhere → the account deleted. Screenshots of every screen at 390×844, light and dark, go to
POVVER_WEB_SCREENSHOTS; the benchmarks go to POVVER_WEB_BENCHMARKS (JSON)."""

import json
import os
import re
import subprocess
import time
import unittest
import urllib.request

from selenium.common.exceptions import StaleElementReferenceException

from browser import Browser

BASE = os.environ.get("POVVER_WEB_BASE_URL", "http://127.0.0.1:8080")
SHOTS = os.environ.get("POVVER_WEB_SCREENSHOTS", "/tmp/povver-web-screenshots")
BENCH = os.environ.get("POVVER_WEB_BENCHMARKS", "")
SUBSCRIPTION_TOOL = os.environ.get("POVVER_WEB_SUBSCRIPTION_TOOL", "")
PASSWORD = "strong-password-1"
results = {}


def api(name, body, token=None):
    request = urllib.request.Request(f"{BASE}/{name}", data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)
    except urllib.error.HTTPError as error:
        return json.load(error)


def make_premium(email):
    """Coaching is premium: the operator's override (povver-subscription), as in the fuzzer's setup."""
    user = api("signIn", {"email": email, "password": PASSWORD})["data"]["user"]["id"]
    subprocess.run([SUBSCRIPTION_TOOL, "override", "set", "--user", user], check=True, capture_output=True)


class WebJourneys(unittest.TestCase):
    def setUp(self):
        # A new browser for each journey: a new visitor, with no cookie or storage left by another.
        self.browser = Browser(BASE)

    def tearDown(self):
        # On a failure, what the screen showed: a screenshot and the page's text, beside the others.
        result = self._outcome.result
        if any(test is self for test, _ in result.failures + result.errors):
            try:
                self.browser.screenshot(SHOTS, f"failure-{self._testMethodName}", top=False)
                with open(os.path.join(SHOTS, f"failure-{self._testMethodName}.txt"), "w") as out:
                    out.write(self.browser.driver.current_url + "\n" + self.browser.text() + "\n"
                              + json.dumps(self.browser.console_errors(), indent=1))
            except Exception:  # noqa: BLE001 - the failure itself is what gets reported
                pass
        self.browser.quit()

    @classmethod
    def tearDownClass(cls):
        if BENCH:
            with open(BENCH, "w") as out:
                json.dump(results, out, indent=2)

    def log_current_set(self):
        """Types a weight where no target prefilled it, taps Log set, and reports how the screen kept up. The
        current set is the first one still open; a sync that redraws the screen meanwhile means trying again."""
        b = self.browser
        for _ in range(40):
            try:
                # The current set's row: its Log set button and its weight field.
                button = b.find("button", "Log set")
                weight = b.driver.execute_script("return arguments[0].closest('li').querySelector('input')", button)
                self.assertRegex(weight.accessible_name, r"^Set \d+ weight \((kg|lb)\)$")
                if weight.get_attribute("value") == "":
                    weight.send_keys("40")
                # The set shows as logged before the next frame is drawn.
                frame = b.driver.execute_script("""
                    // The weight typed must be in the row being logged (a redraw may have come between).
                    const row = [...arguments[0].closest('li').querySelectorAll('input')].map((i) => i.value);
                    if (row[0] === '') return { retry: true };
                    const start = performance.now();
                    arguments[0].click();
                    const logged = Number(/(\\d+) \\/ \\d+/.exec(document.body.innerText)[1]);
                    return new Promise((done) => requestAnimationFrame(() => done({ ms: performance.now() - start, logged, row })));
                """, button)
                if frame.get("retry"):
                    time.sleep(0.05)
                    continue
                return frame
            except StaleElementReferenceException:
                time.sleep(0.05)
        raise AssertionError("the set could not be logged")

    def shot(self, name, top=True):
        self.browser.screenshot(SHOTS, name, top)

    def assert_accessible(self, screen):
        """Every control has an accessible name; the main content and the navigation are labelled landmarks."""
        b = self.browser
        unnamed = b.driver.execute_script("""
            const controls = [...document.querySelectorAll('button, a[href], input, select, textarea, [role=switch]')]
              .filter((el) => el.offsetParent !== null && el.type !== 'hidden');
            return controls.map((el) => el.outerHTML.slice(0, 120));
        """)
        names = [el.accessible_name for el in b.driver.find_elements("css selector", "button, a[href], input, select, textarea")
                 if el.is_displayed()]
        self.assertTrue(all(n.strip() for n in names), f"{screen}: a control without an accessible name among {unnamed}")
        main = b.driver.find_element("css selector", "main")
        self.assertTrue(main.accessible_name, f"{screen}: the main landmark has a name")

    def test_a_lifters_whole_journey(self):
        b = self.browser
        email = f"lifter-{int(time.time() * 1000)}@example.com"

        # Sign up.
        b.open("/")
        b.find("button", "Sign in")
        # Everything the first visit loads (the page, styles, scripts, icons; not the API's answers).
        first_visit = b.driver.execute_script("""
            const files = performance.getEntriesByType('resource').filter((r) => r.initiatorType !== 'fetch');
            return performance.getEntriesByType('navigation')[0].decodedBodySize + files.reduce((n, r) => n + r.decodedBodySize, 0);
        """)
        results["first_visit_bytes"] = first_visit
        self.assertLessEqual(first_visit, 200 * 1024)
        # An installable app: Chrome finds nothing missing (manifest, icon, service worker).
        self.assertEqual(b.driver.execute_cdp_cmd("Page.getInstallabilityErrors", {})["installabilityErrors"], [])
        self.assertEqual(b.driver.execute_cdp_cmd("Page.getAppManifest", {}).get("errors"), [])
        self.assert_accessible("sign in")
        self.shot("01-sign-in")
        b.click("link", "Sign up")
        b.fill("Name", "Alex")
        b.fill("Email", email)
        b.fill("Password", PASSWORD)
        self.shot("02-sign-up")
        b.click("button", "Create account")
        b.find("textbox", "Message", timeout=15)
        make_premium(email)

        # A reload is a new navigation: the session comes back from the HttpOnly cookie; the Coach is usable.
        b.open("/#/coach")
        b.find("textbox", "Message")
        usable_ms = b.driver.execute_script("return performance.getEntriesByName('povver-usable')[0].startTime")
        results["navigation_to_usable_coach_ms"] = round(usable_ms)
        self.assertLessEqual(usable_ms, 1000, "a usable Coach screen within a second of navigation")
        self.assertFalse(b.driver.execute_script("return document.cookie.includes('povver_refresh')"), "scripts never see the refresh token")
        self.assert_accessible("coach")
        self.shot("03-coach")

        # Ask the coach for a plan; answer its question; accept the routine.
        b.fill("Message", "Make me a 3-day plan")
        b.click("button", "Send")
        b.click("button", "Full gym", timeout=20)
        accept = b.find("button", "Accept", timeout=20)
        b.wait_for_text("Full Body A")
        b.driver.execute_script("arguments[0].scrollIntoView({block: 'start'})", b.find("heading", "3-day", exact=False))
        self.shot("04-coach-plan", top=False)
        b.press(accept)
        b.wait_for_text("Accepted")

        # Plans: the routine is active; give the first lift of day A a weight to progress from.
        b.click("link", "Plans")
        b.wait_for_text("Active")
        self.shot("05-plans-routines")
        b.click("link", "3-day", exact=False)
        b.click("link", "Full Body A")
        b.find("textbox", "Barbell Squat set 1 weight (kg)")
        squat_weights = [e for e in b.all("textbox", "weight", exact=False) if e.accessible_name.startswith("Barbell Squat set")]
        self.assertEqual(len(squat_weights), 4)
        for element in squat_weights:
            element.clear()
            element.send_keys("60")
        b.click("button", "Save template")
        b.wait_for_text("Saved.")
        self.shot("06-plans-template")
        b.click("link", "Plans")
        b.click("link", "Exercises")
        b.fill("Search exercises", "bench")
        b.find("combobox", "Equipment").send_keys("barbell")
        b.click("button", "Search")
        b.wait_for_text("Barbell Bench Press", timeout=10)
        self.shot("07-plans-exercises")

        # The workout: every set logged; two of them with the network cut and a reload in between.
        b.click("link", "Workout")
        b.click("button", "Start workout", timeout=15)
        b.find("button", "Log set")
        self.assert_accessible("workout")
        self.shot("08-workout")
        total = int(re.search(r"(\d+) / (\d+)", b.text()).group(2))
        logged = 0
        frames = []
        while logged < total:
            if logged == 4:
                b.offline(True)
                b.wait_for(lambda: b.driver.execute_script("return navigator.onLine === false"), what="the page to go offline")
            frame = self.log_current_set()
            frames.append(frame["ms"])
            logged += 1
            self.assertEqual(frame["logged"], logged, f"the set is on screen at once ({frame})")
            if logged == 6:
                b.wait_for_text("2 not synced")
                self.shot("09-workout-offline")
                # A reload with no signal: the shell comes from the service worker, the sets from this device.
                b.open("/#/workout")
                b.find("button", "Log set", timeout=15)
                b.wait_for_text("2 not synced")
                self.assertIn(f"{logged} / {total}", b.text())
                # The signal comes back: the two sets are sent in order, the badge goes.
                b.offline(False)
                b.wait_for(lambda: "not synced" not in b.text(), timeout=15, what="the queued sets to sync")
                # The coach in workout mode, on the same screen: "10 @ 40" logs the next set.
                b.fill("Message", "10 @ 40")
                b.click("button", "Send")
                logged += 1
                b.wait_for_text(f"{logged} / {total}", timeout=15)
        results["log_set_to_next_frame_ms_max"] = round(max(frames), 1)
        b.find("button", "Finish workout")
        self.shot("10-workout-done")
        b.click("button", "Finish workout")
        b.click("button", "Finish workout")  # the confirmation
        b.find("button", "Edit workout", timeout=15)
        self.assertIn("Barbell Squat", b.text())
        self.shot("11-history-detail")

        # Progress: the workout in the history, the chart, and the analyst's recommendation accepted.
        def recommendation():
            time.sleep(0.5)
            b.open("/#/progress")
            b.find("heading", "History")
            return b.all("button", "Accept")
        b.wait_for(recommendation, timeout=30, what="the analyst's recommendation")
        self.assertIn("Full Body A", b.text())
        self.assertTrue(b.all("img", "estimated 1RM", exact=False), "the lift's chart is drawn")
        self.assert_accessible("progress")
        self.shot("12-progress")
        b.click("button", "Accept")
        b.wait_for_text("Applied to Full Body A")

        # Edit the workout in the history: one more rep on the first squat set.
        b.click("link", "Full Body A", exact=False)
        b.click("button", "Edit workout")
        b.fill("Barbell Squat set 1 reps", "9")
        b.click("button", "Save changes")
        b.wait_for_text("9 × 60 kg")
        b.click("link", "Progress")
        b.find("heading", "History")

        # Units: lb everywhere.
        b.click("link", "Profile")
        b.click("radio", "lb")
        b.wait_for_text("Weights now in lb")
        self.assert_accessible("profile")
        self.shot("13-profile")
        b.click("link", "Progress")
        b.wait_for(lambda: b.all("img", "estimated 1RM (lb)", exact=False), what="the chart in lb")
        history = b.find("link", "Full Body A", exact=False).accessible_name
        self.assertIn(" lb", history)
        self.assertNotIn(" kg", history)
        b.click("link", "Plans")
        b.click("link", "3-day", exact=False)
        b.click("link", "Full Body A")
        squat = b.find("textbox", "Barbell Squat set 1 weight (lb)")
        self.assertAlmostEqual(float(squat.get_attribute("value")), 137.8, delta=0.2, msg="62.5 kg (accepted) in lb")

        # Import a Strong export (its weights in lb, the unit the form now offers).
        export = os.path.join(SHOTS, "strong-export.csv")
        with open(export, "w") as out:
            out.write("Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n"
                      "2026-01-05 18:00:00,Old Push,45m,Bench Press (Barbell),1,225,5,,,,,8\n"
                      "2026-01-05 18:00:00,Old Push,45m,Bench Press (Barbell),2,225,5,,,,,9\n")
        b.click("link", "Profile")
        b.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", b.find_file("Strong or Hevy export (CSV)"))
        b.find_file("Strong or Hevy export (CSV)").send_keys(export)
        b.click("button", "Import")
        b.wait_for_text("Imported 1 workout (2 sets)", timeout=15)
        self.shot("14-profile-import", top=False)

        # Delete the account (docs/product.md "Account deletion": warning, sign in again, confirm).
        b.click("link", "Profile")
        b.click("button", "Delete account")
        b.click("button", "Continue")
        b.fill("Password", PASSWORD)
        b.click("button", "Continue")
        b.click("button", "Delete account")
        b.find("button", "Sign in", timeout=15)
        self.assertEqual(api("signIn", {"email": email, "password": PASSWORD}).get("error", {}).get("code"), "INVALID_CREDENTIAL")
        self.assertEqual([e for e in b.console_errors() if e["source"] != "network"], [], "no script error")

    def test_the_sign_in_form_works_from_the_keyboard(self):
        b = self.browser
        email = f"keys-{int(time.time() * 1000)}@example.com"
        api("signUp", {"email": email, "password": PASSWORD})
        b.open("/#/signin")
        b.find("textbox", "Email").click()
        active = lambda: b.driver.switch_to.active_element
        active().send_keys(email)
        active().send_keys("\t")
        self.assertEqual(active().accessible_name, "Password")
        active().send_keys(PASSWORD + "\n")
        b.find("textbox", "Message", timeout=15)
        for tab in ("Coach", "Plans", "Workout", "Progress", "Profile"):
            self.assertTrue(b.all("link", tab), f"the {tab} tab")
        nav = b.driver.find_element("css selector", "nav")
        self.assertEqual(nav.accessible_name, "Main")


def relative_luminance(hex_colour):
    channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a, b):
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


class Contrast(unittest.TestCase):
    """Text colours meet WCAG AA (4.5:1) on the surfaces they are drawn on, in light and in dark."""

    PAIRS = [("text", "background"), ("text", "surface"), ("text-secondary", "surface"), ("text-secondary", "background"),
             ("accent", "surface"), ("accent", "background"), ("on-accent", "accent"), ("on-destructive", "destructive"),
             ("destructive", "surface"), ("warning", "warning-soft"), ("accent", "accent-soft"), ("text", "info-soft"),
             ("text-secondary", "surface-sunken"), ("background", "text")]

    def test_every_text_colour_meets_aa(self):
        with open(os.path.join(os.path.dirname(__file__), "../../Modules/Web/Resources/app/assets/tokens.css")) as file:
            css = file.read()
        light = dict(re.findall(r"--color-([\w-]+):\s*(#[0-9a-f]{6});", css.split(':root[data-theme="dark"]')[0]))
        dark = dict(re.findall(r"--color-([\w-]+):\s*(#[0-9a-f]{6});", css.split(':root[data-theme="dark"]')[1].split("}")[0]))
        for theme, colours in (("light", light), ("dark", dark)):
            for fg, bg in self.PAIRS:
                with self.subTest(theme=theme, fg=fg, bg=bg):
                    self.assertGreaterEqual(contrast(colours[fg], colours[bg]), 4.5)


if __name__ == "__main__":
    unittest.main(verbosity=2)
