"""Infrastructure: a Kubernetes deployment with one pod in CrashLoopBackOff (a table of pods),
the previous container's panic in its log, the pod's last exit code, a rollback, and an HTTP
health check after it."""

from __future__ import annotations

import random

from tools.claims_corpus import kit as K
from tools.claims_corpus.kit import Sections, Story, Trap

_POD_CHARS = "bcdfghjklmnpqrstvwxz2456789"


def _suffix(rng: random.Random, size: int) -> str:
    while True:
        text = "".join(rng.choice(_POD_CHARS) for _ in range(size))
        if any(c.isdigit() for c in text) and any(c.isalpha() for c in text):
            return text


def story(rng: random.Random) -> Story:
    app = rng.choice(("checkout-api", "cart-service", "pricing-api"))
    namespace = app.split("-")[0]
    replica = f"{rng.randint(5, 9)}{_suffix(rng, 8)}"
    good, bad = f"{app}-{replica}-{_suffix(rng, 5)}", f"{app}-{replica}-{_suffix(rng, 5)}"
    worker = f"{namespace}-worker-{rng.randint(5, 9)}{_suffix(rng, 8)}-{_suffix(rng, 5)}"
    restarts = rng.randint(11, 19)
    worker_restarts = rng.randint(1, 3)
    minor = rng.randint(6, 9)
    bad_version, good_version = f"3.{minor}.1", f"3.{minor}.0"
    revision = rng.randint(30, 60)
    code = rng.choice((2, 1))
    ip = f"10.4.{rng.randint(1, 9)}.{rng.randint(10, 99)}"
    messages = [
        K.call("kubectl", {"args": f"get pods -n {namespace}"}),
        K.result(
            "kubectl",
            K.table(
                ("NAME", "READY", "STATUS", "RESTARTS", "AGE"),
                (
                    (good, "1/1", "Running", "0", "3d2h"),
                    (bad, "0/1", "CrashLoopBackOff", f"{restarts} (2m ago)", "3d2h"),
                    (worker, "1/1", "Running", str(worker_restarts), "19h"),
                ),
                gap=3,
            ),
        ),
        K.call("kubectl", {"args": f"logs {bad} -n {namespace} --previous"}),
        K.result(
            "kubectl",
            f"2026-12-01T09:12:44Z INFO  starting {app} v{bad_version}\n"
            f"2026-12-01T09:12:46Z INFO  connecting to redis at {ip}:6379\n"
            "panic: runtime error: invalid memory address or nil pointer dereference\n"
            "[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x12f4c3a]",
        ),
        K.call("kubectl", {"args": f"describe pod {bad} -n {namespace}"}),
        K.result(
            "kubectl",
            f"Name:          {bad}\nNamespace:     {namespace}\nState:         Waiting\n"
            "  Reason:      CrashLoopBackOff\nLast State:    Terminated\n  Reason:      Error\n"
            f"  Exit Code:   {code}\nRestart Count: {restarts}",
        ),
        K.call(
            "rollout_undo", {"deployment": app, "namespace": namespace, "to_revision": revision}
        ),
        K.result(
            "rollout_undo",
            f'deployment.apps/{app} rolled back\nWaiting for deployment "{app}" rollout to '
            f'finish: 1 of 2 updated replicas are available...\ndeployment "{app}" '
            "successfully rolled out",
        ),
        K.call("http_check", {"url": f"https://{namespace}.example.com/healthz"}),
        K.result(
            "http_check",
            "HTTP/1.1 200 OK\ncontent-type: application/json\n\n"
            f'{{"status":"ok","version":"{good_version}"}}',
        ),
    ]

    def c_pods(r: random.Random) -> str:
        return r.choice(
            (
                f"{bad} was in CrashLoopBackOff with {restarts} restarts while the other two "
                "pods were running",
                f"pod {bad} kept crashing ({restarts} restarts); {good} was running",
                f"only {bad} of the {app} pods was unhealthy (CrashLoopBackOff)",
            )
        )

    def c_panic(r: random.Random) -> str:
        return r.choice(
            (
                f"its previous container panicked with a nil pointer dereference (exit code "
                f"{code})",
                f"v{bad_version} crashes on start with a nil pointer panic",
                f"the logs show a SIGSEGV panic in {app} v{bad_version}",
            )
        )

    def c_rollback(r: random.Random) -> str:
        return r.choice(
            (
                f"{app} was rolled back to revision {revision}",
                f"the deployment was rolled back (revision {revision}) and rolled out",
                f"rolling back to revision {revision} brought back {good_version}",
            )
        )

    def c_health(r: random.Random) -> str:
        return r.choice(
            (
                f"the health check now returns HTTP 200 with version {good_version}",
                f"/healthz answers 200 OK on {good_version}",
            )
        )

    return Story(
        domain="k8s",
        messages=messages,
        inner_count=2,
        clauses=[c_rollback, c_pods, c_panic, c_health],
        error_clause=2,
        echoes=(1,),
        dropped="failed:kubectl",
        mutations=[
            (
                "other-row-status",
                lambda r: (1, f"pod {bad} is running normally"),
                (("contradicted", "running"),),
            ),
            (
                "wrong-restarts",
                lambda r: (1, f"{bad} has {restarts + 100} restarts"),
                (("unsupported", f"{restarts + 100} restart"),),
            ),
            (
                "wrong-exit-code",
                lambda r: (2, "its container exited with code 137 (OOMKilled)"),
                (("contradicted", "exit 137"),),
            ),
            (
                "wrong-http",
                lambda r: (3, "the health check still fails with HTTP 503"),
                (("contradicted", "HTTP 503"),),
            ),
        ],
        inner_clauses=[c_pods],
        invented=f"{app}-{replica}-{_suffix(rng, 5)}",
        noise=[
            K.call("kubectl", {"args": f"get events -n {namespace} --field-selector type=Normal"}),
            K.result(
                "kubectl",
                K.table(
                    ("LAST SEEN", "TYPE", "REASON", "OBJECT"),
                    (
                        ("4m", "Normal", "Scheduled", f"pod/{good}"),
                        ("4m", "Normal", "Pulled", f"pod/{good}"),
                    ),
                ),
            ),
        ],
        traps=[
            Trap("other-pods", lambda r: f"{worker} is running with {worker_restarts} restarts"),
            Trap("address", lambda r: f"the pods connect to redis at {ip}:6379"),
            Trap("versions", lambda r: f"v{bad_version} crashed; {good_version} is healthy"),
            Trap("ready", lambda r: f"{good} is ready (1/1)"),
        ],
        sections=Sections(
            request=f"Find out what is wrong with {app} and get it healthy again.",
            concepts=("rollout undo to a revision", "pod readiness and restarts"),
            pending=(f"Keep {app} on revision {revision} for now.",),
            fixes=(f"Fix the nil pointer panic in v{bad_version} before rolling forward.",),
        ),
    )
