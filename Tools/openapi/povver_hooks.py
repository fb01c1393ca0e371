"""Schemathesis hooks for fuzzing Povver Server (Tools/openapi/fuzz.sh): the fuzzer signs in as a real user.

Operations the fuzzer calls end sessions and accounts (signOut, deleteAccount, changePassword…), so the token is
checked before each use and a new account is made when it no longer works. Each account is made premium with
the operator's override (`povver-subscription override set`), so premium operations are tested past the gate.
Settings come from the environment fuzz.sh sets: POVVER_FUZZ_BASE_URL, POVVER_FUZZ_SUBSCRIPTION_TOOL.
"""
import itertools
import json
import os
import subprocess
import urllib.error
import urllib.request

import schemathesis

BASE = os.environ.get("POVVER_FUZZ_BASE_URL", "http://127.0.0.1:8080")
TOOL = os.environ.get("POVVER_FUZZ_SUBSCRIPTION_TOOL")
_accounts = itertools.count(1)


def _post(name, body, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    request = urllib.request.Request(f"{BASE}/{name}", data=json.dumps(body).encode(), headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, None


def _new_account():
    email = f"fuzz-{os.getpid()}-{next(_accounts)}@example.com"
    status, answer = _post("signUp", {"email": email, "password": "fuzzing-password-1"})
    if status != 200:
        raise RuntimeError(f"signUp answered {status}")
    data = answer["data"]
    if TOOL:
        subprocess.run([TOOL, "override", "set", "--user", data["user"]["id"]], check=True, capture_output=True)
    return data["tokens"]["access_token"]


@schemathesis.auth(refresh_interval=1)
class PovverUser:
    token = None

    def get(self, case, ctx):
        if PovverUser.token is not None:
            status, _ = _post("getAccount", {}, PovverUser.token)
            if status == 200:
                return PovverUser.token
        PovverUser.token = _new_account()
        return PovverUser.token

    def set(self, case, data, ctx):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"


# Refusals of a request the document allows that depend on state the document cannot describe, each with why.
# Any other 4xx answer to a schema-valid request is a finding: the document failed to declare a constraint.
STATE_REFUSALS = {
    # The account's, the workout's or the server's state: a provider this server does not offer, an account
    # already confirmed, no active routine, an email not verified yet.
    "FAILED_PRECONDITION": None,
    # A code that is not the one mailed to the user.
    "INVALID_CODE": None,
    # A sign-in method the account does not have, or the only one it has.
    "NO_SUCH_PROVIDER": None,
    "LAST_SIGN_IN_METHOD": None,
    # A password that is not the account's.
    "WRONG_PASSWORD": None,
    "INVALID_CREDENTIAL": None,
    # INVALID_ARGUMENT only for these reasons: a cursor the server never issued (cursors are opaque); a field sent
    # under its name and its legacy name with two different values (JSON Schema cannot say two fields are equal);
    # an exercise id that is not in the catalog (data, like any id: the catalog is not repeated in the document).
    "INVALID_ARGUMENT": ("not a cursor of this list", "not a cursor of this search", "differs from ", "unknown exercise"),
}

# Fields whose text is a file or a document the server parses (a Strong or Hevy CSV export): its contents are
# checked as the file's format says, not by the schema.
PARSED_FIELDS = ("content",)


def _state_refusal(response):
    try:
        error = response.json().get("error") or {}
    except Exception:  # noqa: BLE001 - not an envelope: not a state refusal
        return False
    code = error.get("code")
    if code not in STATE_REFUSALS:
        return False
    reasons = STATE_REFUSALS[code]
    if reasons is None:
        return True
    details = error.get("details") or {}
    if code == "INVALID_ARGUMENT" and details.get("field") in PARSED_FIELDS:
        return True
    reason = details.get("reason", "")
    return any(reason.startswith(allowed) for allowed in reasons)


@schemathesis.check
def positive_data_accepted_unless_state(ctx, response, case):
    """Schemathesis' positive_data_acceptance, but a refusal listed in STATE_REFUSALS is not a finding."""
    from schemathesis.specs.openapi.checks import is_unexpected_http_status_case

    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or is_unexpected_http_status_case(case):
        return None
    status = response.status_code
    if status < 400 or status in (401, 403, 404, 409, 429) or status >= 500 or _state_refusal(response):
        return None
    raise AssertionError(f"Valid data should have been accepted: {status} {response.text[:300]}")
