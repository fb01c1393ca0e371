"""A person's view of the web app for the journey tests: headless Chromium (Debian's `chromium` and
`chromium-driver`) driven by Selenium, finding controls by their accessible name and role as a person or a
screen reader does, never by CSS class or DOM position."""

import base64
import os
import time

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

# Candidate elements per ARIA role; the accessible name (computed by the browser) picks among them.
ROLE_SELECTORS = {
    "button": "button, [role=button], input[type=submit], input[type=button]",
    "link": "a[href]",
    "textbox": "input:not([type]), input[type=text], input[type=email], input[type=password], input[type=search], input[type=number], textarea",
    "radio": "input[type=radio]",
    "checkbox": "input[type=checkbox]",
    "combobox": "select",
    "heading": "h1, h2, h3",
    "img": "[role=img], img",
    "file": "input[type=file]",
}


class Browser:
    def __init__(self, base_url, width=390, height=844):
        options = webdriver.ChromeOptions()
        options.binary_location = os.environ.get("POVVER_CHROMIUM", "/usr/bin/chromium")
        for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", f"--window-size={width},{height}",
                     "--force-device-scale-factor=1", "--hide-scrollbars", "--lang=en-US"):
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        service = Service(os.environ.get("POVVER_CHROMEDRIVER", "/usr/bin/chromedriver"))
        self.driver = webdriver.Chrome(service=service, options=options)
        self.driver.set_window_size(width, height)
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
        self.base_url = base_url.rstrip("/")
        self.width, self.height = width, height

    def quit(self):
        self.driver.quit()

    def open(self, path="/"):
        self.driver.get(self.base_url + path)

    # -- finding things -------------------------------------------------------------------------------------------------

    def _scope(self):
        dialogs = [d for d in self.driver.find_elements(By.CSS_SELECTOR, "dialog[open]") if d.is_displayed()]
        return dialogs[-1] if dialogs else self.driver

    def all(self, role, name, exact=True):
        found = []
        for element in self._scope().find_elements(By.CSS_SELECTOR, ROLE_SELECTORS[role]):
            try:
                if not element.is_displayed() and role not in ("radio", "checkbox"):
                    continue
                label = (element.accessible_name or "").strip()
            except StaleElementReferenceException:
                continue
            if (label == name) if exact else (name.lower() in label.lower()):
                found.append(element)
        return found

    def find(self, role, name, exact=True, timeout=10):
        deadline = time.monotonic() + timeout
        while True:
            try:
                matches = self.all(role, name, exact)
            except StaleElementReferenceException:
                matches = []  # a dialog closed while it was read
            if matches:
                return matches[0]
            if time.monotonic() > deadline:
                raise AssertionError(f"no {role} named {name!r} on {self.driver.current_url}")
            time.sleep(0.05)

    def find_file(self, name):
        """A file chooser, by its label (it has no role of its own)."""
        return self.find("file", name)

    def wait_for(self, predicate, timeout=10, what="the page to change"):
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = predicate()
                if value:
                    return value
            except (StaleElementReferenceException, WebDriverException):
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what} on {self.driver.current_url}")
            time.sleep(0.05)

    def text(self):
        return self.driver.find_element(By.TAG_NAME, "body").text

    def wait_for_text(self, text, timeout=10):
        return self.wait_for(lambda: text in self.text(), timeout, f"the text {text!r}")

    # -- acting -----------------------------------------------------------------------------------------------------------

    def click(self, role, name, **kwargs):
        element = self.find(role, name, **kwargs)
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()
        return element

    def press(self, element):
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()
        return element

    def fill(self, name, value, role="textbox"):
        element = self.find(role, name)
        element.clear()
        element.send_keys(str(value))
        return element

    # -- the network and the colour scheme ------------------------------------------------------------------------------

    def offline(self, cut=True):
        self.driver.execute_cdp_cmd("Network.enable", {})
        self.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": cut, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})

    def scheme(self, value):
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": value}]})

    def screenshot(self, directory, name, top=True):
        """The screen as a 390×844 phone shows it, in light and in dark: from its top, or where it stands."""
        os.makedirs(directory, exist_ok=True)
        if top:
            self.driver.execute_script("window.scrollTo(0, 0)")
        for value in ("light", "dark"):
            self.scheme(value)
            self.driver.execute_script("return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
            shot = self.driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png"})
            with open(os.path.join(directory, f"{name}-{value}.png"), "wb") as out:
                out.write(base64.b64decode(shot["data"]))
        self.scheme("light")

    def console_errors(self):
        return [entry for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]
