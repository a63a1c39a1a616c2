"""Code and CI: a workflow run whose test job passed and whose preview deploy failed inside its
log (ERROR/FATAL lines, exit code 1), a re-run that is only queued, and the pull request."""

from __future__ import annotations

import random

from tools.claims_corpus import kit as K
from tools.claims_corpus.kit import Sections, Story, Trap


def story(rng: random.Random) -> Story:
    repo = rng.choice(("acme/web", "acme/storefront", "globex/portal"))
    run_id = rng.randint(8_800_000_000, 8_899_999_999)
    rerun_id = run_id + rng.randint(40, 900)
    pr = rng.randint(1200, 2999)
    sha = K.hex_id(rng, 7)
    branch = rng.choice(("feat/cart-sync", "fix/login-redirect", "feat/search-facets"))
    passed = rng.randint(1001, 1999)
    skipped = rng.randint(2, 9)
    warnings = rng.randint(3, 30)
    minutes, seconds = rng.randint(4, 9), rng.randint(10, 59)
    elapsed = minutes * 60 + seconds
    reviewer = rng.choice(("lnguyen", "okafor-p", "tlindqvist"))
    registry = "registry.example.com"
    messages = [
        K.call("get_workflow_run", {"repo": repo, "run_id": run_id}),
        K.result(
            "get_workflow_run",
            {
                "id": run_id,
                "name": "CI",
                "head_branch": branch,
                "head_sha": sha,
                "status": "completed",
                "conclusion": "failure",
                "pull_requests": [{"number": pr, "state": "open"}],
                "jobs": [
                    {"name": "test", "conclusion": "success", "duration": f"{minutes}m {seconds}s"},
                    {"name": "lint", "conclusion": "success", "duration": "48s"},
                    {"name": "deploy-preview", "conclusion": "failure", "duration": "1m 29s"},
                ],
            },
        ),
        K.call("get_job_log", {"repo": repo, "run_id": run_id, "job": "test"}),
        K.result(
            "get_job_log",
            "============================= test session starts ==============================\n"
            "platform linux -- Python 3.12.3, pytest-8.2.0, pluggy-1.5.0\n"
            f"collected {passed + skipped} items\n\n"
            "tests/unit ........................................................ [ 41%]\n"
            "tests/api  ........................................................ [100%]\n\n"
            f"===== {passed} passed, {skipped} skipped, {warnings} warnings in {elapsed}.4s "
            f"(0:{minutes:02d}:{seconds:02d}) =====",
        ),
        K.call("get_job_log", {"repo": repo, "run_id": run_id, "job": "deploy-preview"}),
        K.result(
            "get_job_log",
            f"2026-06-03T14:02:11.402Z INFO  building preview image web:pr-{pr}\n"
            f"2026-06-03T14:03:39.950Z INFO  pushing {registry}/web:pr-{pr}\n"
            f"2026-06-03T14:03:40.118Z ERROR push to {registry}/web:pr-{pr} failed: "
            "403 Forbidden (token lacks write:packages)\n"
            "2026-06-03T14:03:40.120Z FATAL deploy-preview aborted\n"
            "Error: Process completed with exit code 1.",
        ),
        K.call("rerun_job", {"repo": repo, "run_id": run_id, "job": "deploy-preview"}),
        K.result("rerun_job", {"id": rerun_id, "job": "deploy-preview", "status": "queued"}),
    ]

    def c_tests(r: random.Random) -> str:
        return r.choice(
            (
                f"the test job passed: {passed:,} passed and {skipped} skipped in "
                f"{minutes} min {seconds} s",
                f"tests are green ({passed} passed, {skipped} skipped, {warnings} warnings)",
                f"pytest reported {passed:,} passed and {skipped} skipped, no failures",
            )
        )

    def c_run(r: random.Random) -> str:
        return r.choice(
            (
                f"CI run {run_id} on {branch} ({sha}) concluded as a failure",
                f"workflow run {run_id} for commit {sha} failed overall; lint and test passed",
                f"run {run_id} ({branch} at {sha}) ended in failure",
            )
        )

    def c_error(r: random.Random) -> str:
        return r.choice(
            (
                "deploy-preview failed: pushing the image got 403 Forbidden from the registry",
                "the preview deploy was denied by the registry (403) and aborted with exit code 1",
                "the preview job could not push its image: the token lacks write:packages",
            )
        )

    def c_rerun(r: random.Random) -> str:
        return r.choice(
            (
                f"deploy-preview was re-run as {rerun_id} and is queued",
                f"a re-run of the preview job ({rerun_id}) is queued",
                f"re-run {rerun_id} has not started yet (queued)",
            )
        )

    def c_pr(r: random.Random) -> str:
        return r.choice(
            (
                f"PR #{pr} is still open",
                f"the pull request #{pr} remains open on {branch}",
            )
        )

    wrong_sha = sha[:-1] + ("0" if sha[-1] != "0" else "1")
    wrong_elapsed = (minutes, (seconds + rng.choice((7, 13, 21))) % 60)
    return Story(
        domain="ci",
        messages=messages,
        inner_count=4,
        clauses=[c_run, c_tests, c_error, c_rerun, c_pr],
        error_clause=2,
        dropped="denied:get_job_log",
        echoes=(0,),  # "run N failed": the job's failure in other words
        echo_dropped=(("dropped", "failed:get_workflow_run"),),
        mutations=[
            (
                "wrong-outcome",
                lambda r: (
                    1,
                    r.choice((f"{passed:,} tests failed", f"{passed} tests failed in the suite")),
                ),
                (("contradicted", "failed"),),
            ),
            (
                "wrong-status",
                lambda r: (0, f"CI run {run_id} on {branch} succeeded"),
                (("contradicted", "succeeded"), ("dropped", "failed:get_workflow_run")),
            ),
            (
                "rerun-status",
                lambda r: (
                    3,
                    r.choice(
                        (
                            f"the re-run {rerun_id} of deploy-preview passed",
                            f"re-run {rerun_id} succeeded",
                        )
                    ),
                ),
                (("contradicted", "succeeded"),),
            ),
            (
                "wrong-hash",
                lambda r: (0, f"CI run {run_id} on {branch} ({wrong_sha}) ended in failure"),
                (("unsupported", wrong_sha),),
            ),
            (
                "wrong-duration",
                lambda r: (
                    1,
                    f"the test job passed in {wrong_elapsed[0]} min {wrong_elapsed[1]} s",
                ),
                (("unsupported", str(wrong_elapsed[0] * 60 + wrong_elapsed[1])),),
            ),
            (
                "invented-handle",
                lambda r: (-1, f"review was requested from @{reviewer}"),
                (("unsupported", f"@{reviewer}"),),
            ),
        ],
        inner_clauses=[c_run],
        invented=f"RUN-{rng.randint(1000, 9999)}",
        noise=[
            K.call("list_branches", {"repo": repo, "protected": True}),
            K.result(
                "list_branches",
                K.table(
                    ("BRANCH", "PROTECTED", "HEAD"),
                    (
                        ("main", "yes", K.hex_id(rng, 7)),
                        ("release/3.8", "yes", K.hex_id(rng, 7)),
                    ),
                ),
            ),
        ],
        traps=[
            Trap("unrelated-failure", lambda r: "all tests passed"),
            Trap("total-items", lambda r: f"pytest collected {passed + skipped} items"),
            Trap(
                "derived-sum",
                lambda r: f"{passed + skipped:,} tests ran in total",
                (("unverified", f"{passed + skipped} test"),),
            ),
            Trap("jobs-of-run", lambda r: "2 of 3 jobs passed (lint and test)"),
            Trap("log-time", lambda r: "the push was refused at 14:03:40 UTC"),
        ],
        sections=Sections(
            request=f"Get the checks on PR #{pr} green and the preview deploy working.",
            concepts=(
                "GitHub Actions workflow runs and jobs",
                "pytest",
                "container registry tokens and write:packages",
            ),
            pending=(f"Watch re-run {rerun_id}.",),
            fixes=("Grant the CI token write:packages so the registry push works.",),
        ),
    )
