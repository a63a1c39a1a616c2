"""Security: a vulnerability scan (counts by severity as ``key: value`` text), its critical
findings (JSON rows with CVSS scores and statuses), a patch over SSH that timed out (exit
status 255), and a ticket at priority P1."""

from __future__ import annotations

import random

from tools.claims_corpus import kit as K
from tools.claims_corpus.kit import Sections, Story, Trap


def story(rng: random.Random) -> Story:
    y, m, d = 2026, rng.randint(1, 12), rng.randint(1, 28)
    scan = f"SCN-{y}{m:02d}{d:02d}-{rng.randint(2, 9)}"
    subnet = rng.choice(("10.20.0", "10.31.4", "172.16.8"))
    hosts = rng.randint(30, 60)
    with_findings = rng.randint(8, 14)
    critical, high, medium, low = 2, rng.randint(5, 9), rng.randint(12, 25), rng.randint(30, 48)
    scan_min, scan_sec = rng.randint(9, 15), rng.randint(1, 59)
    vuln_a, vuln_b = f"VULN-{rng.randint(8000, 8999)}", f"VULN-{rng.randint(9000, 9999)}"
    cve_a = f"CVE-2026-{rng.randint(30000, 39999)}"
    cve_b = f"CVE-2025-{rng.randint(40000, 49999)}"
    host_a, host_b = f"{subnet}.{rng.randint(10, 40)}", f"{subnet}.{rng.randint(41, 90)}"
    cvss_a, cvss_b = rng.choice((9.8, 9.1, 9.4)), rng.choice((9.0, 9.3))
    ticket = f"SEC-{rng.randint(1000, 1999)}"
    assignee = rng.choice(("secops-oncall", "infra-sec", "tdavies"))
    messages = [
        K.call("scan_hosts", {"targets": f"{subnet}.0/24", "profile": "full"}),
        K.result(
            "scan_hosts",
            f"Scan {scan} finished in {scan_min} min {scan_sec} s\n"
            f"hosts scanned: {hosts}\nhosts with findings: {with_findings}\n"
            f"critical: {critical}  high: {high}  medium: {medium}  low: {low}",
        ),
        K.call("list_findings", {"scan": scan, "severity": "critical"}),
        K.result(
            "list_findings",
            [
                {
                    "id": vuln_a,
                    "cve": cve_a,
                    "host": host_a,
                    "cvss": cvss_a,
                    "severity": "critical",
                    "status": "open",
                },
                {
                    "id": vuln_b,
                    "cve": cve_b,
                    "host": host_b,
                    "cvss": cvss_b,
                    "severity": "critical",
                    "status": "mitigated",
                },
            ],
        ),
        K.call("patch_host", {"host": host_a, "package": "openssl", "version": "3.0.15"}),
        K.result(
            "patch_host",
            f"ssh: connect to host {host_a} port 22: Connection timed out\nexit status 255",
        ),
        K.call(
            "open_ticket",
            {"title": f"Patch {cve_a} on {host_a}", "assignee": f"@{assignee}", "priority": "P1"},
        ),
        K.result(
            "open_ticket",
            {"key": ticket, "status": "To Do", "priority": "P1", "assignee": f"@{assignee}"},
        ),
    ]

    def c_scan(r: random.Random) -> str:
        return r.choice(
            (
                f"scan {scan} covered {hosts} hosts in {scan_min} min {scan_sec} s; "
                f"{with_findings} had findings",
                f"{with_findings} of {hosts} hosts in {subnet}.0/24 have findings ({scan})",
                f"the full scan {scan} of {hosts} hosts took {scan_min}m {scan_sec}s",
            )
        )

    def c_counts(r: random.Random) -> str:
        return r.choice(
            (
                f"{critical} critical, {high} high, {medium} medium and {low} low findings",
                f"severity counts: critical {critical}, high {high}, medium {medium}, low {low}",
            )
        )

    def c_vulns(r: random.Random) -> str:
        return r.choice(
            (
                f"{vuln_a} ({cve_a}, CVSS {cvss_a}) on {host_a} is open while {vuln_b} is "
                "mitigated",
                f"{cve_a} on {host_a} (CVSS {cvss_a}) is still open; {cve_b} on {host_b} is "
                "mitigated",
            )
        )

    def c_error(r: random.Random) -> str:
        return r.choice(
            (
                f"patching {host_a} failed: SSH timed out (exit status 255)",
                f"the openssl patch on {host_a} could not run because the SSH connection timed out",
                f"patch_host timed out connecting to {host_a}",
            )
        )

    def c_ticket(r: random.Random) -> str:
        return r.choice(
            (
                f"ticket {ticket} (P1) was opened for @{assignee}",
                f"{ticket} is a P1 assigned to @{assignee}, still to do",
            )
        )

    stranger = rng.choice(("jdoe", "netops", "a.chen"))
    wrong_hosts = hosts + rng.choice((7, 11, -5))
    wrong_cvss = round(cvss_a - rng.choice((0.9, 1.3, 2.0)), 1)
    return Story(
        domain="vulnscan",
        messages=messages,
        inner_count=4,
        clauses=[c_scan, c_counts, c_vulns, c_error, c_ticket],
        error_clause=3,
        dropped="timeout:patch_host",
        mutations=[
            (
                "wrong-level",
                lambda r: (4, f"ticket {ticket} (P2) was opened for @{assignee}"),
                (("contradicted", "P2"),),
            ),
            (
                "other-row-status",
                lambda r: (2, f"{vuln_a} on {host_a} is mitigated"),
                (("contradicted", "resolved"),),
            ),
            (
                "wrong-count",
                lambda r: (0, f"scan {scan} covered {wrong_hosts} hosts"),
                (("unsupported", f"{wrong_hosts} host"),),
            ),
            (
                "wrong-score",
                lambda r: (2, f"{vuln_a} ({cve_a}) scores CVSS {wrong_cvss} and is open"),
                (("unsupported", K.norm_number(wrong_cvss)),),
            ),
            (
                "invented-handle",
                lambda r: (4, f"ticket {ticket} (P1) went to @{stranger}"),
                (("unsupported", f"@{stranger}"),),
            ),
            (
                "patched-anyway",
                lambda r: (3, f"{host_a} was patched successfully"),
                (("contradicted", "succeeded"), ("dropped", "timeout:patch_host")),
            ),
        ],
        inner_clauses=[c_scan],
        invented=f"SEC-{rng.randint(2000, 2999)}",
        noise=[
            K.call("get_asset", {"ip": host_b}),
            K.result(
                "get_asset",
                f"ip: {host_b}\nhostname: db-{rng.randint(10, 99)}\nowner: data-platform\n"
                "os: Ubuntu 22.04\nlast seen: 4 min ago",
            ),
        ],
        traps=[
            Trap(
                "derived-sum",
                lambda r: f"{critical + high + medium + low} findings in all",
                (("unverified", f"{critical + high + medium + low} finding"),),
            ),
            Trap(
                "derived-percent",
                lambda r: f"{with_findings / hosts * 100:.1f}% of hosts had findings",
                (("unverified", K.norm_number(round(with_findings / hosts * 100, 1))),),
            ),
            Trap("n-of-m", lambda r: f"{with_findings} of {hosts} hosts had findings"),
            Trap("other-row", lambda r: f"{vuln_b} on {host_b} is already mitigated"),
        ],
        sections=Sections(
            request=f"Scan {subnet}.0/24, patch the critical findings and open tickets.",
            concepts=("CVSS scores and severities", "SSH reachability for patching"),
            pending=(f"Patch {host_a} once SSH is reachable.",),
            next_step=f"Check the firewall rules for {host_a}.",
        ),
    )
