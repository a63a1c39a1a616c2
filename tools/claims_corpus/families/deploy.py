"""Deploys and CI: tests, a staging deploy, a prod deploy that timed out and was retried."""

from __future__ import annotations

import random

from tools.claims_corpus import kit as K
from tools.claims_corpus.kit import Story


def story(rng: random.Random) -> Story:
    service = rng.choice(("checkout-api", "billing-worker", "search-gateway", "auth-service"))
    major, minor, patch = 2, rng.randint(10, 30), rng.randint(0, 9)
    version = f"v{major}.{minor}.{patch}"
    pr = rng.randint(300, 990)
    commit = "".join(rng.choice("0123456789abcdef") for _ in range(7))
    while commit.isdigit() or not any(c.isdigit() for c in commit):
        commit = "".join(rng.choice("0123456789abcdef") for _ in range(7))
    tests = rng.randint(180, 950)
    seconds = round(rng.uniform(40, 200), 1)
    staging = f"DEP-{rng.randint(1000, 4999)}"
    prod = f"DEP-{rng.randint(5000, 9999)}"
    host = f"web-{rng.randint(1, 9):02d}"
    ended = rng.choice(("succeeded", "rolled_back"))
    messages = [
        K.call("run_tests", {"pr": pr, "commit": commit}),
        K.result(
            "run_tests", f"collected {tests} items\n...\n===== {tests} passed in {seconds}s ====="
        ),
        K.call("deploy", {"service": service, "version": version, "env": "staging"}),
        K.result(
            "deploy",
            {"deploy_id": staging, "version": version, "env": "staging", "status": "succeeded"},
        ),
        K.call("deploy", {"service": service, "version": version, "env": "prod"}),
        K.result(
            "deploy",
            f"DEPLOY {service} {version} -> prod\nstatus: FAILED\nreason: health check timed out "
            f"on {host} after 120s",
        ),
        K.call("deploy", {"service": service, "version": version, "env": "prod", "retry": True}),
        K.result("deploy", {"deploy_id": prod, "version": version, "env": "prod", "status": ended}),
    ]
    ok_words = ("succeeded", "went out", "rolled out successfully", "completed")
    final_words = (
        ok_words
        if ended == "succeeded"
        else ("was rolled back", "got reverted", "ended rolled back")
    )

    def c_ci(r: random.Random) -> str:
        return r.choice(
            (
                f"PR #{pr} (commit {commit}) passed CI: {tests} tests in {seconds}s",
                f"CI for PR #{pr} at {commit} was green with {tests} tests passing",
                f"all {tests} tests passed for #{pr}",
            )
        )

    def c_staging(r: random.Random) -> str:
        return r.choice(
            (
                f"{version} deployed to staging as {staging}",
                f"staging deploy {staging} of {service} {version} {r.choice(ok_words)}",
            )
        )

    def c_prod(r: random.Random) -> str:
        return r.choice(
            (
                f"the prod deploy {prod} {r.choice(final_words)}",
                f"{prod} (prod, {version}) {r.choice(final_words)}",
            )
        )

    def c_error(r: random.Random) -> str:
        return r.choice(
            (
                f"the first prod attempt failed its health check on {host} (timed out)",
                f"the first prod rollout timed out on {host} and was retried",
                "the first production deploy failed and had to be retried",
            )
        )

    def c_logs(r: random.Random) -> str:
        return r.choice(
            (
                "the service logs show one ERROR, an upstream timeout talking to redis, that "
                "recovered on retry",
                "get_logs had a redis upstream timeout at 10:00:01 before requests were ok again",
                "the logs hold a redis timeout error from 2026-03-02 that cleared on retry",
            )
        )

    wrong_version = f"v{major}.{minor}.{patch + 1}"
    wrong_tests = tests + rng.choice((-13, 6, 20, 100))
    wrong_final = "failed" if ended == "succeeded" else "succeeded"
    return Story(
        domain="deploy",
        messages=messages,
        inner_count=4,
        clauses=[c_ci, c_staging, c_prod, c_error, c_logs],
        error_clause=3,
        dropped="timeout:deploy",
        more_error_clauses=(4,),
        more_dropped=(("dropped", "timeout:get_logs"),),
        mutations=[
            (
                "wrong-id",
                lambda r: (1, f"{wrong_version} deployed to staging as {staging}"),
                (("unsupported", wrong_version[1:]),),
            ),
            (
                "wrong-count",
                lambda r: (
                    0,
                    f"PR #{pr} (commit {commit}) passed CI: {wrong_tests} tests in {seconds}s",
                ),
                (("unsupported", f"{wrong_tests} test"),),
            ),
            (
                "wrong-status",
                lambda r: (2, f"the prod deploy {prod} {wrong_final}"),
                (("contradicted", wrong_final),),
            ),
        ],
        inner_clauses=[c_ci, c_staging],
        invented=f"DEP-{int(staging[4:]) + 1}",
        noise=[
            K.call("get_logs", {"service": service, "lines": 50}),
            K.result(
                "get_logs",
                f"LOGS {service} (last 50 lines)\n2026-03-02T10:00:01Z ERROR upstream timeout "
                "talking to redis"
                "\n2026-03-02T10:00:07Z WARN retrying request (attempt 2)\n2026-03-02T10:00:09Z "
                "INFO request ok",
            ),
        ],
        hard=[
            lambda r: f"about {round(tests, -1)} tests ran",
            lambda r: "old logs show redis timeouts, which are unrelated",
            lambda r: f"CI took under {int(seconds // 60) + 1} minutes",
        ],
    )
